# The settings record at its edges (src/core/record.h, src/published.c):
# the record is published by a short-lived "uid settings worker", a dynamic
# background worker that the postmaster forks on demand, and every
# generator uses only the record.
#
#  1. No worker slot free (max_worker_processes = 3, every slot held by the
#     parallel workers of a query that sleeps): (a) with a record of this
#     server life in force, a session that took a reload changing no uid
#     setting keeps making IDs with the record in force, and a new session
#     too; after a reload that gives the identity up, both refuse (55000)
#     rather than carry it, and take the reload once a slot is free;
#     (b) right after a restart, with no record of this server life, a
#     session that set uid settings of its own refuses (55000), and a plain
#     one publishes the values it inherited from the postmaster.
#  2. Copies of the data directory (a hot base backup and a cold file copy)
#     started with other settings: the record copied in the state file is
#     another server's; their IDs carry their own settings.
#  3. Single-user mode publishes its own settings; the next normal start
#     does not keep them.
#  4. The worker itself: a reload makes one, which publishes and exits;
#     many new connections reuse the record instead of starting one each.
#  6. A publisher that stalls (0.6.0 took its lock over from a holder
#     stalled for a second, which then wrote its older ranges over newer
#     ones): the record's writer word held by a living process of this
#     server life; publications wait and never take it over; after a
#     reload that changes no uid setting, sessions make IDs with the record
#     in force meanwhile, without an error, and after one that gives the
#     identity up, they refuse (55000); once the holder is gone, the next
#     worker takes the word and the reload reaches the IDs.
#  7. uid in shared_preload_libraries (the postmaster has loaded it, so
#     its settings are checked ones, not placeholders): an ALTER SYSTEM not
#     reloaded never reaches an ID; a reload does.
#  8. A leased server: a session whose own uid.pool is not the server's (it
#     took a reload late, after an ALTER SYSTEM of uid.pool written for
#     later) claims nothing with it: once the lease runs out it refuses
#     (55000) rather than claim an id of another pool; a plain session goes
#     on with the server's pool.
#  5. A request word in the state file of an earlier boot (the monotonic
#     clock restarts at a reboot; a copy may come from a machine up
#     longer): a worker is started all the same.  Before the fix, every
#     call waited 5 s and refused (55000) and no worker was started, until
#     the new boot's clock passed the old one.
#
# Every check is on the values the IDs embed, on errors, or on what the
# server log says was published; none on timing.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC usleep);
use UidTest;

sub q1
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

# probe(): one sno and one snowflake_si, as 'partition/machine', or the
# error as 'SQLSTATE: message'.
my $probe_fn = probe_sql();

# Lines of $node's server log from byte $from on that match $re.
sub log_lines
{
	my ($node, $from, $re) = @_;
	my $log = slurp_file($node->logfile);
	return grep { /$re/ } split /\n/, substr($log, $from);
}

my $published = qr/uid: settings record (\d+) published from the postmaster/;

############################################################################
# 1. No worker slot free.  Three slots (the logical replication launcher
# takes none), and a query whose three parallel workers sleep holds them
# all: a uid settings worker cannot start.

my $n = uid_node('edges_slots',
	conf => [ 'uid.partition = 5', 'uid.generator = 5', slot_conf(), 'log_min_messages = debug1' ]);
q1($n, $probe_fn);
create_slot_holder($n);
my $parallel_workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'parallel worker'};

# (a) A record of this server life is in force.  A reload that changes no
# uid setting refuses nothing; one that gives the identity up makes the
# sessions refuse rather than go on with it (0.7.0 went on: 1,051 duplicate
# snowflake_si of 18,600 once another server took the identity given up).
my $s = $n->background_psql('postgres', on_error_stop => 0);
is(scalar $s->query('SELECT probe()'), '5/5', '1a. setup: a session makes IDs with 5/5');

my $h = take_slots($n);
is(q1($n, $parallel_workers), '3', '1a. the parallel workers hold all three worker slots');
$n->append_conf('postgresql.conf', "work_mem = '5MB'");
reload_applied($n) or die 'the reload was not taken';
my $log_at = -s $n->logfile;
is(scalar $s->query(q{SELECT current_setting('work_mem')}), '5MB',
	'1a. the session took a reload that changes no uid setting');
is(scalar $s->query('SELECT probe()'), '5/5',
	'1a. with no slot free, that session makes IDs with the record in force, 5/5');
is($s->{stderr} // '', '', '1a. and no error nor warning reached it');
$s->{stderr} = '';
my $r = attempt($n, 'SELECT sno_partition(sno_new()), snowflake_si_machine(snowflake_si_new())');
is($r->{out} . ($r->{sqlstate} // ''), '5|5',
	'1a. a new session, forked after that reload, makes IDs with 5/5 too')
  or diag $r->{err};

$n->append_conf('postgresql.conf', "uid.partition = 7\nuid.generator = 7");
reload_applied($n) or die 'the reload was not taken';
is(scalar $s->query(q{SELECT current_setting('uid.partition')}), '7',
	'1a. the session took the reload of partition 7');
my $t0 = time();
is(scalar $s->query('SELECT probe()'),
	q{55000: uid could not publish the server's settings of its last reload},
	'1a. with no slot free, that session refuses to make IDs rather than carry 5/5, given up');
my $waited = time() - $t0;
ok($waited >= 4, "1a. after waiting for a slot ($waited s)");
$r = attempt($n, 'SELECT snowflake_si_machine(snowflake_si_new())');
is($r->{sqlstate} // 'no error', '55000',
	'1a. a new session, forked after the reload, refuses too (its values are 7/7, the record 5/5)')
  or diag $r->{out} . $r->{err};
like($r->{err}, qr/DETAIL:  No background worker slot was free for a settings worker for 5 s, and this session's values, as the reload gave them, differ from those IDs carry now\./,
	'1a. saying why: no slot, and its values differ');
is(scalar(log_lines($n, $log_at, $published)), 0, '1a. no record was published while no slot was free');
ok(scalar(log_lines($n, $log_at, qr/no background worker slot free for a settings worker/)) >= 1,
	'1a. the server log says that no slot was free');

free_slots($n, $h);
my $got = poll_until('the session to take partition 7',
	sub { my $v = $s->query('SELECT probe()'); defined $v && $v eq '7/7' ? $v : undef });
is($got, '7/7', '1a. once a slot is free, the session\'s next calls carry the reloaded 7/7');
is(q1($n, 'SELECT probe()'), '7/7', '1a. and a new session\'s too');
$s->quit;

# (b) Right after a restart, the slots taken before any ID is made: the
# record in force is of the earlier server life.  A session that set uid
# settings of its own refuses; a plain one, whose values are still those it
# inherited from the postmaster, publishes them and makes IDs; then the
# first one does too.
$n->append_conf('postgresql.conf', "uid.partition = 6\nuid.generator = 6");
$n->restart;
$h = take_slots($n);
is(q1($n, $parallel_workers), '3', '1b. after the restart, the parallel workers hold all three slots');
$log_at = -s $n->logfile;
{
	local $ENV{PGOPTIONS} = '-c uid.partition=1';
	$r = attempt($n, 'SELECT sno_new()');
	is($r->{sqlstate} // 'no error', '55000',
		'1b. sno_new() with no slot free after a restart, in a session with a startup option, fails with 55000')
	  or diag $r->{out} . $r->{err};
	is($r->{msg}, q{uid could not read the server's settings since it started},
		'1b. saying the server\'s settings could not be read');
	$r = attempt($n, 'SELECT snowflake_si_new()');
	is($r->{sqlstate} // 'no error', '55000', '1b. snowflake_si_new() too');
}
is(q1($n, 'SELECT probe()'), '6/6',
	'1b. a plain session, its values inherited from the postmaster, makes IDs with 6/6 all the same');
is(scalar(log_lines($n, $log_at, qr/published from a session's values inherited from the postmaster/)), 1,
	'1b. it published the values it inherited');
{
	local $ENV{PGOPTIONS} = '-c uid.partition=1';
	is(q1($n, 'SELECT probe()'), '6/6', '1b. then the session with a startup option makes IDs with 6/6');
}
free_slots($n, $h);
is(q1($n, 'SELECT probe()'), '6/6', '1b. once a slot is free, IDs carry the configured 6/6');

############################################################################
# 4. The worker itself (log_min_messages = debug1 on this node).

# A reload: the next generator call starts a worker, which publishes and exits.
$log_at = -s $n->logfile;
my $before_gen = (map { /$published/ ? $1 : () } log_lines($n, 0, $published))[-1];
$n->append_conf('postgresql.conf', "uid.partition = 4\nuid.generator = 4");
reload_applied($n) or die 'the reload was not taken';
is(q1($n, 'SELECT probe()'), '4/4', '4. after a reload of 4/4, IDs carry 4/4');
$n->wait_for_log(qr/background worker "uid settings worker" \(PID \d+\) exited with exit code 0/, $log_at);
my @pub = log_lines($n, $log_at, $published);
is(scalar(@pub), 1, '4. one settings record was published from the postmaster for the reload')
  or diag join "\n", @pub;
my @exited = log_lines($n, $log_at, qr/background worker "uid settings worker" \(PID \d+\) exited with exit code 0/);
is(scalar(@exited), 1, '4. by one uid settings worker, which exited with exit code 0');
my ($after_gen) = map { /$published/ ? $1 : () } @pub;
ok(defined $before_gen && defined $after_gen && $after_gen > $before_gen,
	'4. the record published has a later number than those before')
  or diag 'before: ' . ($before_gen // 'none') . ', after: ' . ($after_gen // 'none');
is(q1($n, q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'uid settings worker'}), '0',
	'4. no uid settings worker is left');

# 20 connections one after another, each making IDs ($want expected): the
# first starts a worker, the others reuse its record.
sub twenty_connections
{
	my ($node, $want, $after) = @_;
	my $at = -s $node->logfile;
	my @got = map { q1($node, 'SELECT probe()') } 1 .. 20;
	is(scalar(grep { $_ ne $want } @got), 0, "4. 20 new connections after $after make IDs with $want")
	  or diag join ', ', @got;
	my @pub = log_lines($node, $at, $published);
	cmp_ok(scalar(@pub), '>=', 1, "4. after $after, a record was published from the postmaster");
	cmp_ok(scalar(@pub), '<=', 3, "4. by at most a few workers for 20 connections after $after: they reuse the record")
	  or diag join "\n", @pub;
	return;
}

$n->restart;
twenty_connections($n, '4/4', 'a restart');
$n->append_conf('postgresql.conf', "uid.partition = 3\nuid.generator = 3");
reload_applied($n) or die 'the reload was not taken';
twenty_connections($n, '3/3', 'a reload of 3/3');
$n->stop;

############################################################################
# 2. Copies of the data directory, started with other settings while the
# state file holds the original's record.

my $o = uid_node('edges_orig',
	init => [ allows_streaming => 1 ],
	conf => [ 'uid.partition = 5', 'uid.generator = 5' ]);
q1($o, $probe_fn);
is(q1($o, 'SELECT probe()'), '5/5', '2. setup: the original makes IDs with 5/5');
$o->backup('hot');
is(q1($o, 'SELECT probe()'), '5/5', '2. setup: and after a base backup');
$o->stop;
$o->backup_fs_cold('cold');

my %copy;
for ([ 'hot', 8 ], [ 'cold', 9 ])
{
	my ($how, $v) = @$_;
	my $c = PostgreSQL::Test::Cluster->new("edges_copy_$how");
	$c->init_from_backup($o, $how);
	$c->append_conf('postgresql.conf', "uid.partition = $v\nuid.generator = $v");
	$c->start;
	$copy{$how} = $c;
}
# The original is stopped: its record is the latest any of them holds.
is(q1($copy{hot}, 'SELECT probe()'), '8/8',
	'2. a copy from a base backup, with 8/8 in its files, makes IDs with 8/8, not the copied record\'s 5/5');
is(q1($copy{cold}, 'SELECT probe()'), '9/9',
	'2. a copy of the stopped data directory, with 9/9 in its files, makes IDs with 9/9');
$o->start;
is(q1($o, 'SELECT probe()'), '5/5', '2. the original, started again, still makes IDs with 5/5');
is(q1($copy{hot}, 'SELECT probe()') . ' ' . q1($copy{cold}, 'SELECT probe()'), '8/8 9/9',
	'2. and the copies still with theirs');
$_->stop for values %copy;

############################################################################
# 3. Single-user mode, with uid.partition = 5 in the files (a single-user
# server publishes its own values: they are the server's).

# Runs the node's data directory as a single-user server making one sno
# and one snowflake_si; returns its stdout and stderr.
sub single_user
{
	my ($node) = @_;
	my ($in, $out, $err) =
	  ("SELECT sno_partition(sno_new(1)), snowflake_si_machine(snowflake_si_new());\n", '', '');
	IPC::Run::run([ 'postgres', '--single', '-D', $node->data_dir, 'postgres' ],
		'<', \$in, '>', \$out, '2>', \$err);
	return ($out, $err);
}

$o->stop;
my ($out, $err) = single_user($o);
like($out, qr/sno_partition = "5"/, '3. a single-user server makes IDs with its partition 5')
  or diag "stdout: $out\nstderr: $err";
like($out, qr/snowflake_si_machine = "5"/, '3. and its generator 5');
unlike($out . $err, qr/ERROR/, '3. without an error');

# Another single-user run with other files: its own, not the last run's.
$o->append_conf('postgresql.conf', "uid.partition = 6\nuid.generator = 6");
($out, $err) = single_user($o);
like($out, qr/sno_partition = "6".*\n.*snowflake_si_machine = "6"/,
	'3. a second single-user server, with 6/6 in its files, makes IDs with 6/6, not the first one\'s 5/5')
  or diag "stdout: $out\nstderr: $err";

# Starts $node with partition and generator $v in its files, checks that
# its IDs carry them, and stops it.
sub start_carrying
{
	my ($node, $v, $what) = @_;
	$node->append_conf('postgresql.conf', "uid.partition = $v\nuid.generator = $v");
	$node->start;
	is(q1($node, 'SELECT probe()'), "$v/$v", $what);
	$node->stop;
	return;
}

start_carrying($o, 8, '3. started normally with 8/8 in its files, IDs carry 8/8, not the single-user server\'s 6/6');

############################################################################
# 5. The request word (offset 1600 of the state file, pinned by a static
# assertion in src/state.c) an hour ahead of this boot's monotonic clock.
{
	my $file = state_file($o);
	open(my $fh, '+<:raw', $file) or die "could not open the state file: $!";
	seek($fh, 1600, 0) or die;
	read($fh, my $buf, 8) == 8 or die;
	my $mono = int(clock_gettime(CLOCK_MONOTONIC) * 1e6);
	ok(abs($mono - unpack('Q<', $buf)) < 3600e6,
		'5. the word at 1600 holds a request on this boot\'s monotonic clock');
	seek($fh, 1600, 0) or die;
	print $fh pack('Q<', $mono + 3600 * 1_000_000);
	close $fh or die;
}
start_carrying($o, 9, '5. after a start with a request word of an earlier boot, the first IDs carry the settings (9/9)');

############################################################################
# 6. The writer word given to a living backend of this server life, as a
# settings worker stopped mid-publication would hold it (UidTest's
# hold_record_writer).
my $w = uid_node('stalled_writer',
	conf => [ 'uid.partition = 5', 'uid.generator = 5', 'log_min_messages = debug1' ]);
q1($w, probe_sql());
is(q1($w, 'SELECT probe()'), '5/5', '6. setup: IDs with 5/5');
my $sleeper = start_worker($w, 'SELECT pg_sleep(600)');
my $spid;
poll_until('the sleeping session',
	sub { $spid = q1($w, q{SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'}); $spid ne '' });
hold_record_writer($w, $spid);
$w->append_conf('postgresql.conf', "work_mem = '5MB'");
reload_applied($w) or die 'the reload was not taken';
$log_at = -s $w->logfile;
my $rw = attempt($w, 'SELECT probe()');
is($rw->{out} . ($rw->{sqlstate} // ''), '5/5',
	'6. with the writer word held by a living process, after a reload that changes no uid setting, IDs carry the record in force, 5/5, without an error')
  or diag $rw->{err};
$w->append_conf('postgresql.conf', "uid.partition = 7\nuid.generator = 7");
reload_applied($w) or die 'the reload was not taken';
$rw = attempt($w, 'SELECT sno_new()');
is($rw->{sqlstate} // 'no error', '55000',
	'6. after one that gives 5/5 up, a session refuses rather than carry it')
  or diag $rw->{out};
like($rw->{err}, qr/DETAIL:  No settings worker published them within 5 s/,
	'6. saying no settings worker published them');
is(scalar(log_lines($w, $log_at, $published)), 0, '6. and nothing was published: the word was not taken over');
q1($w, "SELECT pg_terminate_backend($spid)");
finish_worker($sleeper);
$got = poll_until('the IDs to carry 7/7 once the holder is gone',
	sub { my $v = q1($w, 'SELECT probe()'); $v eq '7/7' ? $v : undef });
is($got, '7/7', '6. once the holder is gone, the next worker takes the word over: IDs carry 7/7');
$w->stop;

############################################################################
# 7. uid in shared_preload_libraries.
my $sp = uid_node('preloaded',
	conf => [ "shared_preload_libraries = 'uid'", 'uid.partition = 5', 'uid.generator = 5' ]);
q1($sp, probe_sql());
my $idle = $sp->background_psql('postgres');
is(scalar $idle->query('SELECT probe()'), '5/5', '7. preloaded: IDs with 5/5');
reload_applied($sp) or die 'the reload was not taken';
usleep(300_000);
q1($sp, 'ALTER SYSTEM SET uid.partition = 99; ALTER SYSTEM SET uid.generator = 9');
is(scalar $idle->query('SELECT probe()'), '5/5',
	'7. a session idle across a reload, an edit pending: 5/5, not the edit');
is(q1($sp, 'SELECT probe()'), '5/5', '7. a new session: 5/5');
{
	local $ENV{PGOPTIONS} = '-c uid.partition=0';
	my ($rc7, $out7, $err7) = $sp->psql('postgres', 'SELECT probe()');
	isnt($out7, '0/5', '7. a startup option never reaches an ID') or diag $err7;
}
reload_applied($sp) or die 'the reload was not taken';
$got = poll_until('the idle session to carry the reload',
	sub { my $v = $idle->query('SELECT probe()'); $v eq '99/9' ? $v : undef });
is($got, '99/9', '7. once reloaded, the edit reaches the IDs of the idle session');
$idle->quit;
$sp->stop;

############################################################################
# 8. Leases and a session's own settings.
my ($k8, $conninfo8) = coordinator_node('coordinator8');
my $l8 = uid_node('leased8', coordinator => $conninfo8,
	conf => [ "uid.pool = 'p8'", 'uid.pool_ttl = 2' ]);
q1($l8, probe_sql());
like(q1($l8, 'SELECT probe()'), qr{^\d+/\d+$}, '8. setup: a plain session claims and makes IDs');
my $late8 = start_worker($l8, 'SELECT pg_sleep(3)', 'SELECT pg_sleep(2.5)', 'SELECT probe()');
poll_until('the long statement under way',
	sub { q1($l8, q{SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(3)'}) eq '1' });
reload_applied($l8) or die 'the reload was not taken';
usleep(300_000);
q1($l8, q{LOAD 'uid'; ALTER SYSTEM SET uid.pool = 'other8'});    # for later, not reloaded
my ($rc8, $out8, $err8) = finish_worker($late8);
like((split /\n/, $out8)[-1],
	qr/^55000: this session's "uid\.coordinator", "uid\.pool" or "uid\.pool_size" is not the server's$/,
	'8. the session that read uid.pool = other8 late refuses to claim with it once the lease ran out')
  or diag "$out8\n$err8";
like(q1($l8, 'SELECT probe()'), qr{^\d+/\d+$}, '8. a plain session claims from the server\'s pool and makes IDs');
is(q1($k8, q{SELECT count(*) FROM uid_pool WHERE pool = 'other8'}), '0',
	'8. nothing was claimed from the pool no reload delivered');
$l8->stop;
$k8->stop;

done_testing();
