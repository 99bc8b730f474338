# Where sno's ranges meet reloads and back-fill (issue 24, defects 2 and 3):
#
# 1. A statement that runs through a reload, while ALTER SYSTEM prepares
#    ranges that are not reloaded, issues from the delivered range only (0.5.0
#    read the files every 100 ms while the reload was pending and took the
#    edit); a session that takes a reload after the files changed again does
#    not take them either (core reads the files when a backend gets to the
#    reload) and says so.
# 2. A range passes between two servers sharing a partition by the documented
#    handover (uid_reload() on A, which returns once sno_range() shows A's
#    new range, with a time every ID of the old one is dated before; B's
#    clock past that time; uid_reload() on B), while B's generator runs
#    through a pending reload and B's next range was prepared early with
#    ALTER SYSTEM (a reload does not take it): no duplicate; no ID of A's old
#    range after the switch, none of its new one before.  Then a restart of
#    B takes a range prepared with ALTER SYSTEM, as a start takes every
#    setting the files hold, and the server log says so (0.7.0 said
#    nothing, and doc/types.md said only the reload would take it).
# 3. Back-fill at the times of live IDs in sequences the live range used
#    before is refused (0.5.0: 500 of 502 back-filled IDs equal live ones).
#
# Nothing is timed: the checks count IDs.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

sub q1
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

# ALTER SYSTEM of the live range, without a reload.
sub alter_range
{
	my ($node, $lo, $hi) = @_;
	q1($node,
		"LOAD 'uid'; ALTER SYSTEM SET uid.sno_sequence_min = $lo; ALTER SYSTEM SET uid.sno_sequence_max = $hi"
	);
}

# Polls $node's sno_range() (a new session each time, so it takes the
# server's last reload) until it shows lo..hi; returns its row.
sub wait_range
{
	my ($node, $lo, $hi) = @_;
	my $row;
	poll_until(
		"sno_range() showing $lo..$hi",
		sub {
			$row = q1($node,
				'SELECT live_min, live_max, taken_at, previous_min, previous_max, previous_until FROM sno_range()'
			);
			return $row =~ /^\Q$lo|$hi|\E/;
		});
	return $row;
}

my $a = uid_node('reload_a');
my $b = uid_node('reload_b');
for my $node ($a, $b)
{
	q1($node, 'CREATE TABLE t (id sno NOT NULL, s text NOT NULL, at timestamptz NOT NULL)');
}

# 1. One server: a long statement through a reload and an unreloaded edit.
alter_range($a, 0, 32767);
$a->reload;
like(wait_range($a, 0, 32767), qr/^0\|32767\|/, 'a issues from 0..32767');

# The long statement: one DO block committing in a loop (a backend takes a
# reload between statements, not between transactions), about 4 s.  The second worker takes its reload at its next
# command, after the files changed again.
my $long = start_worker($a,
	q{DO $$BEGIN FOR i IN 1 .. 400 LOOP INSERT INTO t VALUES (sno_new(), 'long', clock_timestamp()); COMMIT; PERFORM pg_sleep(0.01); END LOOP; END$$}
);
my $idle = start_worker($a, q{INSERT INTO t VALUES (sno_new(), 'idle1', clock_timestamp())},
	'SELECT pg_sleep(3)',
	q{INSERT INTO t SELECT sno_new(), 'idle2', clock_timestamp() FROM generate_series(1, 100)});
poll_until('the long statement under way',
	sub { q1($a, q{SELECT count(*) >= 20 FROM t WHERE s = 'long'}) eq 't' });
reload_applied($a);    # nothing changed: a reload pending in both workers
alter_range($a, 40000, 40100);    # prepared, not reloaded
my ($rc, $out, $err) = finish_worker($long);
is($rc, 0, 'the long statement ran through the reload') or diag $err;
($rc, $out, $err) = finish_worker($idle);
is($rc, 0, 'the idle session made its IDs') or diag $err;
unlike($err, qr/WARNING|ERROR/,
	'the session that took the reload after the edit issues from the record in force, with no warning');
is( q1($a,
		q{SELECT count(*) FILTER (WHERE sno_sequence(id) NOT BETWEEN 0 AND 32767) || '/' || count(*) FROM t WHERE s = 'long'}
	),
	'0/400',
	'the long statement issued from the delivered range only');
is( q1($a,
		q{SELECT count(*) FILTER (WHERE sno_sequence(id) NOT BETWEEN 0 AND 32767) || '/' || count(*) FROM t WHERE s = 'idle2'}
	),
	'0/100',
	'the session that took a reload after the edit issued from the delivered range only');
is(q1($a, 'SELECT live_min || \'..\' || live_max FROM sno_range()'),
	'0..32767', 'sno_range() shows the delivered range, not the edit');

# A session that sets a range of its own at start has the server's values
# read from the files when the library loads (guarantee 7), edits no reload
# delivered included: it does not take them either.
{
	local $ENV{PGOPTIONS} = '-c uid.sno_sequence_min=5';
	my ($r, $o, $e) = $a->psql('postgres',
		q{SELECT count(*) FILTER (WHERE sno_sequence(id) NOT BETWEEN 0 AND 32767) FROM (SELECT sno_new() AS id FROM generate_series(1, 100)) s});
	is($o, '0', 'a session that overrode a range setting issues from the delivered range')
	  or diag $e;
}
is(q1($a, 'SELECT live_min || \'..\' || live_max FROM sno_range()'),
	'0..32767', 'and the server still issues from it');

# The edit, reloaded: the server switches, and sno_range() tells from what.
$a->reload;
my $row = wait_range($a, 40000, 40100);
like($row, qr/^40000\|40100\|[^|]+\|0\|32767\|[^|]+$/,
	'after the reload: 40000..40100, the previous range 0..32767 and when its IDs ended');
is( q1($a,
		q{SELECT count(*) FILTER (WHERE sno_sequence(id) NOT BETWEEN 40000 AND 40100) FROM (SELECT sno_new() AS id FROM generate_series(1, 1000)) s}
	),
	'0',
	'IDs after the reload are in the new range');

# 2. A range passes from one server to another while both generate.
q1($a, 'TRUNCATE t');
alter_range($a, 0,     32767);
alter_range($b, 32768, 49151);
$a->reload;
$b->reload;
wait_range($a, 0,     32767);
wait_range($b, 32768, 49151);

my $gen = sub {
	my ($node, $name) = @_;
	return start_worker($node,
		qq{DO \$\$DECLARE until timestamptz := clock_timestamp() + interval '8 s'; BEGIN WHILE clock_timestamp() < until LOOP INSERT INTO t SELECT sno_new(), '$name', clock_timestamp() FROM generate_series(1, 2000); COMMIT; END LOOP; END\$\$}
	);
};
my @gen = ($gen->($a, 'a'), $gen->($a, 'a'), $gen->($b, 'b'));
poll_until('both servers generating',
	sub { q1($a, 'SELECT count(*) > 10000 FROM t') eq 't' && q1($b, 'SELECT count(*) > 5000 FROM t') eq 't' });

# B: a reload pending in its generator, and its next range prepared early.
reload_applied($b);
alter_range($b, 0, 32767);
# b's generator makes IDs on with its reload pending (a thousand more rows)
my $b_rows = q1($b, 'SELECT count(*) FROM t');
poll_until('b generating on', sub { q1($b, "SELECT count(*) > $b_rows + 1000 FROM t") eq 't' });

# The handover: A moves to 49152..65535, which nobody uses, giving 0..32767
# up; B takes it once its clock is past the time A's IDs of it reached.
alter_range($a, 49152, 65535);
my $until_a = q1($a, 'SELECT uid_reload()');
my $arow = q1($a,
	'SELECT live_min, live_max, taken_at, previous_min, previous_max, previous_until FROM sno_range()');
like($arow, qr/^49152\|65535\|[^|]+\|0\|32767\|[^|]+$/,
	"uid_reload() on a returned ($until_a) with its new range in force, 0..32767 before it");
my (undef, undef, $taken_a, undef, undef, $prev_until) = split /\|/, $arow;
is(q1($a, "SELECT timestamptz '$until_a' >= timestamptz '$prev_until'"), 't',
	"the time it returned is no earlier than the end of the old range's last unit, $prev_until");
poll_until("b's clock past $until_a", sub { q1($b, "SELECT clock_timestamp() > '$until_a'") eq 't' });
alter_range($b, 0, 32767);
q1($b, 'SELECT uid_reload()');
my $brow = q1($b, 'SELECT live_min, live_max, taken_at FROM sno_range()');
like($brow, qr/^0\|32767\|/, "uid_reload() on b returned with 0..32767 in force");
my (undef, undef, $taken_b) = split /\|/, $brow;
# IDs of b after its reload, whether or not its generator still runs (on a
# busy machine the handover can outlast its 8 s)
q1($b, "INSERT INTO t SELECT sno_new(), 'b', clock_timestamp() FROM generate_series(1, 1000)");
for my $w (@gen)
{
	my ($rc, $out, $err) = finish_worker($w);
	is($rc, 0, 'a generator ran through the handover') or diag $err;
}

# Every ID of both servers in one table.
q1($a, 'CREATE TABLE tb (LIKE t)');
my $dump = q1($b, 'COPY t TO STDOUT');
($rc, $out, $err) = $a->psql('postgres', "COPY tb FROM STDIN;\n$dump\n\\.\n");
is($rc, 0, "server b's IDs loaded into server a") or diag $err;
my $counts = q1($a, 'SELECT count(*), count(DISTINCT id) FROM (SELECT id FROM t UNION ALL SELECT id FROM tb) x');
my ($n, $distinct) = split /\|/, $counts;
cmp_ok($n, '>', 20000, "the two servers made $n IDs through the handover");
is($n - $distinct, 0, 'no ID twice across the two servers');
is( q1($a,
		"SELECT count(*) FROM t WHERE sno_sequence(id) <= 32767 AND at > timestamptz '$taken_a' + interval '50 ms'"
	),
	'0',
	"no ID of a's old range after it took the new one");
is(q1($a, "SELECT count(*) FROM t WHERE sno_sequence(id) >= 49152 AND at < '$taken_a'"),
	'0', "no ID of a's new range before it took it");
is(q1($a, "SELECT count(*) FROM tb WHERE sno_sequence(id) <= 32767 AND at < '$taken_b'"),
	'0', "no ID of b's new range before b's reload delivered it");
cmp_ok(q1($a, "SELECT count(*) FROM tb WHERE sno_sequence(id) <= 32767"), '>', 0,
	"b issued from its new range after the reload");

# 2b. A range prepared with ALTER SYSTEM for a later step is what a restart
# takes (as every setting the files hold): the log says what the start
# changed.
alter_range($b, 100, 199);
is(q1($b, 'SELECT live_min || \'..\' || live_max FROM sno_range()'), '0..32767',
	'2b. a range prepared with ALTER SYSTEM is not in force before a reload or a restart');
my $log_at = -s $b->logfile;
$b->restart;
is(q1($b, 'SELECT sno_sequence(sno_new()) BETWEEN 100 AND 199'), 't', '2b. the restart took it');
# (the settings worker logs it once it has published the record, which the
# session may use first: waited for)
ok($b->wait_for_log(qr/LOG:  uid: this start changed what IDs carry: sno's ranges/, $log_at),
	'2b. and the server log says the start changed what IDs carry');

# 3. Back-fill and the live range's history.
my $c = uid_node('backfill_history');
q1($c, 'CREATE TABLE t (id sno NOT NULL, s int NOT NULL)');
reload_with($c, 'uid.sno_sequence_min' => 0, 'uid.sno_sequence_max' => 7);
run_released($c, 4, sub { "INSERT INTO t SELECT sno_new(), $_[0] FROM generate_series(1, 3000)" },
	what => 'live IDs in 0..7');
is(q1($c, 'SELECT max(sno_sequence(id)) FROM t'), '7', 'the live IDs used all of 0..7');
reload_with($c,
	'uid.sno_sequence_min' => 0,
	'uid.sno_sequence_max' => 3,
	'uid.sno_backfill_min' => 4,
	'uid.sno_backfill_max' => 7);
my ($ret, $stdout, $stderr) = $c->psql('postgres',
	'SELECT sno_new_at(0, sno_timestamp(id)) FROM t WHERE sno_sequence(id) >= 4 LIMIT 1');
isnt($ret, 0, 'back-fill in sequences the live range used is refused');
like($stderr, qr/the back-fill range 4\.\.7 holds sequences that sno_new\(\) has issued on this server, 0\.\.7/,
	'the refusal names the sequences sno_new() issued');
# One at a time, at the times of live IDs of 4..7: none made, none equal.
my $made = 0;
my $equal = 0;
for my $at (split /\n/, q1($c, 'SELECT DISTINCT sno_timestamp(id) FROM t WHERE sno_sequence(id) >= 4 ORDER BY 1 LIMIT 50'))
{
	my ($r, $o) = $c->psql('postgres', "SELECT sno_new_at(0, '$at')");
	next if $r != 0;
	$made++;
	$equal++ if q1($c, "SELECT count(*) FROM t WHERE id = '$o'") ne '0';
}
is("$made/$equal", '0/0', 'no back-filled ID at the live IDs\' times, so none equal to one');
# A range clear of what the live range used back-fills those times.
reload_with($c, 'uid.sno_backfill_min' => 100, 'uid.sno_backfill_max' => 103);
q1($c, 'CREATE TABLE bf (id sno NOT NULL)');
q1($c, 'INSERT INTO bf SELECT sno_new_at(0, at) FROM (SELECT DISTINCT sno_timestamp(id) AS at FROM t ORDER BY 1 LIMIT 200) x');
is( q1($c, 'SELECT count(*) || \'/\' || count(*) FILTER (WHERE id IN (SELECT id FROM t)) FROM bf'),
	'200/0', 'a range clear of the live history back-fills the same times, no ID equal to a live one');

# A 0.5.0 library run on the file meanwhile would have issued live
# sequences without recording them: its file version is 2.  The file set
# back to 2 (what such a run leaves) is taken over with the record started
# again, so back-fill at the times of IDs made before is refused even in a
# range clear of what was recorded.
is(unpack('V', substr(slurp_file(state_file($c)), 4, 4)), 4, 'the state file is version 4');
$c->stop;
{
	open my $fh, '+<', state_file($c) or die "could not open the state file: $!";
	binmode $fh;
	seek($fh, 4, 0);
	print $fh pack('V', 2);
	close $fh or die;
}
$c->start;
reload_with($c, 'uid.sno_backfill_min' => 200, 'uid.sno_backfill_max' => 203);
my $old_at = q1($c, 'SELECT min(sno_timestamp(id)) FROM t');
my $rv = attempt($c, "SELECT sno_new_at(0, '$old_at')");
is($rv->{sqlstate} // 'made', '55000',
	'after a version 2 file was taken over, back-fill at the times of earlier live IDs is refused')
  or diag $rv->{err};
is(unpack('V', substr(slurp_file(state_file($c)), 4, 4)), 4, 'and the file is version 4 again');

# 4. Backends whose settings no reload delivered to them, each of a kind a
# review found publishing them (each seen failing before its fix, on 15):
# a session that took a reload before it loaded uid; the parallel workers of
# a leader that took a reload late; a session that set both ends at its
# start; a session whose check refused a value (it holds the default).
my $d = uid_node('late_kinds');
q1($d, worker_generators_sql() . 'CREATE TABLE big AS SELECT g FROM generate_series(1, 200000) g; ANALYZE big');
alter_range($d, 100, 199);
$d->reload;
wait_range($d, 100, 199);

# a. Connected before a reload, uid not loaded; the reload, then an edit.
my $late = $d->background_psql('postgres');
$late->query_safe('SELECT 1');
alter_range($d, 100, 199);
reload_applied($d);
alter_range($d, 200, 299);    # prepared, not reloaded
is($late->query('SELECT min(sno_sequence(x)) || \'..\' || max(sno_sequence(x)) FROM (SELECT sno_new(1) x FROM generate_series(1, 500)) s'),
	'100..199', '4a. a session that took a reload before it loaded uid issues from the delivered range');
is(q1($d, 'SELECT live_min || \'..\' || live_max FROM sno_range()'), '100..199', '4a. and the server still does');
$late->quit;

# b. A leader that took a reload late, and its parallel workers.
my $leader = $d->background_psql('postgres');
$leader->query_safe('SELECT sno_new(1)');
alter_range($d, 100, 199);
reload_applied($d);
alter_range($d, 200, 299);
my $par = $d->safe_psql('postgres', 'SELECT current_setting(\'server_version_num\')::int >= 160000') eq 't'
  ? 'debug_parallel_query' : 'force_parallel_mode';
$leader->query_safe("SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET $par = on");
# (sno_new()'s PARALLEL SAFE wrapper: the workers make the IDs)
my $got = $leader->query('SELECT min(sno_sequence(x)) || \'..\' || max(sno_sequence(x)) FROM (SELECT worker_sno_new(1) x FROM big) s');
is($got, '100..199', '4b. a parallel query of a leader that took a reload late issues from the delivered range');
is(q1($d, 'SELECT live_min || \'..\' || live_max FROM sno_range()'), '100..199', '4b. and the server still does');
ok(!$d->log_contains(qr/sno issues from live range 200\.\.299/), '4b. no process published the edit');
$leader->quit;

# c. Both ends set at the session's start: the files' values, not a reload's.
{
	local $ENV{PGOPTIONS} = '-c uid.sno_sequence_min=5 -c uid.sno_sequence_max=6';
	my ($r, $o, $e) = $d->psql('postgres',
		q{SELECT min(sno_sequence(x)) || '..' || max(sno_sequence(x)) FROM (SELECT sno_new(1) x FROM generate_series(1, 500)) s});
	is($o, '100..199', '4c. a session that set both ends at its start issues from the delivered range') or diag $e;
}
is(q1($d, 'SELECT live_min || \'..\' || live_max FROM sno_range()'), '100..199', '4c. and the server still does');

# d. A value the check refuses, reloaded: as the postmaster keeps a
# setting's value when a reload gives it an invalid one, the record in force
# stays in force (the log says so); no session refuses, and none issues from
# the default in its place.
alter_range($d, 100, 199);
$d->reload;
wait_range($d, 100, 199);
$d->append_conf('postgresql.auto.conf', "uid.sno_sequence_max = 70000\n");
reload_applied($d);
my $rr = attempt($d, 'SELECT sno_new(1)');
is($rr->{sqlstate} // 'made', 'made', '4d. a session holding a refused value still makes IDs') or diag $rr->{err};
ok($d->log_contains(qr/gives a uid setting an invalid value: IDs keep the settings in force/),
	'4d. the server log says the settings in force were kept');
is(q1($d, 'SELECT live_min || \'..\' || live_max FROM sno_range()'), '100..199',
	'4d. and the server still issues from the delivered range, not from the default in its place');

# 5. An identity setting in a session that takes a reload late: the new
# uid.generator was prepared with ALTER SYSTEM after the reload was
# signalled.  The session carries the server's settings record (5), never
# the edit, until a reload delivers it; then it carries it.
my $g = uid_node('late_identity', conf => ['uid.generator = 5']);
# (an error would end the background psql: the function reports it instead)
$g->safe_psql('postgres', q{
	CREATE FUNCTION machine() RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN snowflake_si_machine(snowflake_si_new())::text;
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$});
my $sess = $g->background_psql('postgres');
is($sess->query('SELECT machine()'), '5', '5. the session makes IDs with generator 5');
reload_applied($g);
$g->safe_psql('postgres', "LOAD 'uid'; ALTER SYSTEM SET uid.generator = 6");    # prepared
is($sess->query('SELECT machine()'), '5',
	'5. taking the reload late, the session carries the record in force, not the edit');
is($g->safe_psql('postgres', 'SELECT machine()'), '5',
	'5. a new session carries what the last reload delivered: 5');
$g->reload;
ok(poll_until('the session to take the reload of generator 6',
		sub { ($sess->query('SELECT machine()') // '') eq '6' }),
	'5. once the edit is reloaded, the session carries it');
$sess->quit;

done_testing();
