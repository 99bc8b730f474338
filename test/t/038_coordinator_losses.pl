# The coordinator's own failures, with writers on two servers leasing from
# it (issue: leases that survive the coordinator).  Every case gave
# duplicates, or ids held by nobody, with 0.7.0's pool:
#  1. A coordinator with synchronous_commit = off (its WAL writer and
#     background writer stopped) crashes right after a claim: the claim is not
#     lost (the pool commits claims and renewals durably whatever the
#     setting), so the next server gets another id and the two make no ID
#     in common.  A coordinator with fsync off refuses claims, saying so.
#  2. A coordinator restored from a dump taken before its first claim: the
#     pools find themselves written elsewhere (the dump's row of the guard)
#     and go on hold.  The server that claims then gets no id (refused,
#     loudly) while the holder of the lost claim goes on making IDs under
#     it; once the hold is over both servers hold ids of their own.  No ID
#     in common.
#     The same after a failover to a standby that had not received the
#     last claim (the pool finds itself on a new timeline, its last write
#     made without a synchronous standby).
#  3. A claim the server gave up waiting for (uid.coordinator_timeout; the
#     coordinator waits 15 s for a synchronous standby that is not there)
#     commits later: the server's next claims get that id back, so once the
#     standby returns the server holds one id, not one per attempt; and the
#     attempts in between are cancelled on the coordinator, not left
#     waiting there one connection each.
#  4. The host renamed while the server runs: sessions begun before and
#     after the rename hold one lease (the key reads the host name once per
#     server life); a restart takes the new name.
# Every duplicate is counted on snowflake_si, whose IDs two holders of one
# machine id repeat within milliseconds.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

# A server leasing from $conninfo, with more settings in @conf, and a
# procedure gen(secs) that inserts snowflake_si IDs into ids for secs
# seconds, 200 a statement, recording every refusal in refusals.
sub writer
{
	my ($name, $conninfo, @conf) = @_;
	my $node = uid_node($name, coordinator => $conninfo, conf => \@conf);

	$node->safe_psql(
		'postgres', q{
		CREATE TABLE ids (id snowflake_si, at timestamptz DEFAULT clock_timestamp());
		CREATE TABLE refusals (at timestamptz, state text, msg text, detail text);
		CREATE PROCEDURE gen(secs float8)
		LANGUAGE plpgsql AS $$
		DECLARE
			t_end timestamptz := clock_timestamp() + secs * interval '1 s';
			st text;
			m text;
			d text;
		BEGIN
			WHILE clock_timestamp() < t_end LOOP
				BEGIN
					INSERT INTO ids (id) SELECT snowflake_si_new() FROM generate_series(1, 200);
				EXCEPTION WHEN OTHERS THEN
					GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT,
											d = PG_EXCEPTION_DETAIL;
					INSERT INTO refusals VALUES (clock_timestamp(), st, m, d);
					PERFORM pg_sleep(0.05);
				END;
				COMMIT;
			END LOOP;
		END $$;
	});
	return $node;
}

# Runs gen(secs) on every node at once; waits for all.
sub gen_together
{
	my ($secs, @nodes) = @_;
	my @w = map { start_worker($_, "CALL gen($secs)") } @nodes;
	for my $i (0 .. $#w)
	{
		my ($rc, undef, $err) = finish_worker($w[$i]);
		is($rc, 0, $nodes[$i]->name . ": gen($secs) ran") or diag $err;
	}
	return;
}

sub q1 { my ($node, $sql) = @_; return $node->safe_psql('postgres', $sql); }

# Stops the processes @pids of $node (its WAL writer and background
# writer) at a moment when a synchronous commit goes through without them.
# A SIGSTOP that finds the WAL writer flushing keeps WALWriteLock held, and
# every commit after waits for it for ever (a claim then times out on the
# server asking): the probe's commit shows that, and they run a while and
# are stopped again.  False if no moment was found in 20 tries.
sub stop_flushers
{
	my ($node, @pids) = @_;

	$node->safe_psql('postgres', 'CREATE TABLE IF NOT EXISTS flush_probe (n int)');
	for my $try (1 .. 20)
	{
		kill 'STOP', @pids;
		my $timed_out;
		my $rc = $node->psql('postgres',
			"SET synchronous_commit = on; INSERT INTO flush_probe VALUES ($try)",
			timeout => 5, timed_out => \$timed_out);
		return 1 if $rc == 0 && !$timed_out;
		note "try $try: a commit waited with the flushers stopped; they run again a while";
		kill 'CONT', @pids;
		usleep(200_000);
	}
	return 0;
}

# The IDs two servers made both.
sub in_common
{
	my ($x, $y) = @_;
	my %seen = map { $_ => 1 } split /\n/, q1($x, 'SELECT id FROM ids');
	return scalar grep { $seen{$_} } split /\n/, q1($y, 'SELECT id FROM ids');
}

# The lease id a server holds ('' if none).
sub lease_id
{
	my ($node) = @_;
	return q1($node,
		q{SELECT coalesce(min(lease_id)::text, '') FROM uid_identity() WHERE type = 'snowflake_si'});
}

sub held
{
	my ($coord, $pool) = @_;
	return q1($coord,
		"SELECT count(*) FROM uid_pool_leases('$pool') WHERE state = 'held'");
}


# 1. Asynchronous commit on the coordinator, and a crash right after a claim.
{
	my ($c, $conn) = coordinator_node('async', 'uid.pool_grace = 1');
	$c->safe_psql('postgres', 'ALTER SYSTEM SET synchronous_commit = off');
	$c->reload;
	ok(poll_until('synchronous_commit off', sub { q1($c, 'SHOW synchronous_commit') eq 'off' }),
		'1. the coordinator commits asynchronously');
	my @pool = ("uid.pool = 'async'", 'uid.pool_size = 4');
	my $a = writer('async_a', $conn, @pool);
	# No process but the committing one flushes WAL now: the WAL writer and
	# the background writer are stopped (the crash below kills them).
	my @flushers = split /\n/,
	  q1($c, q{SELECT pid FROM pg_stat_activity WHERE backend_type IN ('walwriter', 'background writer')});
	is(scalar(@flushers), 2, '1. the WAL writer and the background writer are found');
	ok(stop_flushers($c, @flushers),
		'1. they are stopped at a moment they hold nothing a commit waits for');
	gen_together(0.5, $a);
	is(lease_id($a), '0', '1. server a claimed id 0');
	$c->stop('immediate');
	$c->start;
	my $b = writer('async_b', $conn, @pool);
	gen_together(3, $a, $b);
	cmp_ok(q1($b, 'SELECT count(*) FROM ids'), '>', 0, '1. b makes IDs');
	isnt(lease_id($b), '', '1. under a lease');
	isnt(lease_id($b), lease_id($a),
		'1. after the crash, server b claims another id than a (the claim was durable)');
	is(in_common($a, $b), 0, '1. a and b made no ID in common');
	is(held($c, 'async'), 2, '1. the coordinator names two holders');
	is(q1($a, 'SELECT count(*) FROM refusals') + q1($b, 'SELECT count(*) FROM refusals'),
		0, '1. nothing was refused');

	# fsync off: a claim is refused, and says why
	$c->safe_psql('postgres', 'ALTER SYSTEM SET fsync = off');
	$c->reload;
	ok(poll_until('fsync off on the coordinator', sub { q1($c, 'SHOW fsync') eq 'off' }),
		'1. the coordinator turns fsync off');
	my $f = writer('async_f', $conn, "uid.pool = 'nofsync'");
	my $r = attempt($f, 'SELECT snowflake_si_new()');
	is($r->{sqlstate}, '55000', '1. with fsync off on the coordinator, generation is refused (55000)')
	  or diag $r->{err};
	like($r->{detail}, qr/"fsync" off/, '1. the detail says the coordinator has fsync off');
	is(held($c, 'nofsync'), 0, '1. and nothing was claimed');
	$c->safe_psql('postgres', 'ALTER SYSTEM RESET fsync');
	$c->reload;
	ok(poll_until('fsync on again', sub { q1($c, 'SHOW fsync') eq 'on' }), '1. and on again');
	ok(poll_until('a claim with fsync on', sub { attempt($f, 'SELECT snowflake_si_new()')->{rc} == 0 }),
		'1. with fsync on again, it claims');
	$_->stop for $a, $b, $f;
	$c->stop;
}


# 2. A coordinator restored from a dump taken before the first claim (the
# pool did not exist yet: what says where it was written is the guard's
# row of the install).  a's lease must not reach its second half (a
# renewal, which the restored pool would refuse) before the writers end:
# the new coordinator is made before a claims, and the TTL leaves a busy
# machine room (20 s did not, with TAP files three at a time beside a CI
# run: 33 s from a's claim to the writers' end, and a was refused 31
# times); the hold it waits for below lasts a TTL.
{
	my $ttl = 60;
	my ($c, $conn) = coordinator_node('dumped', 'uid.pool_grace = 1');
	my @pool = ("uid.pool = 'p2'", 'uid.pool_size = 4', "uid.pool_ttl = $ttl");
	my $dump = $PostgreSQL::Test::Utils::tmp_check . '/coordinator.sql';
	$c->command_ok([ 'pg_dump', '-d', $c->connstr('postgres'), '-f', $dump ],
		'2. the coordinator is dumped');
	# the cluster that takes its place, made now (started once it is lost)
	my $port = $c->port;
	my $c2 = PostgreSQL::Test::Cluster->new('restored', port => $port);
	$c2->init;
	$c2->append_conf('postgresql.conf', "fsync = on\nuid.pool_grace = 1\n");
	my $a = writer('dump_a', $conn, @pool);
	gen_together(0.5, $a);
	is(lease_id($a), '0', '2. server a claims id 0 after the dump');

	# The coordinator is lost; a new cluster in its place takes the dump.
	$c->stop('immediate');
	$c2->start;
	$c2->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $c2->connstr('postgres'), '-f', $dump ],
		'2. a new coordinator is restored from the dump');

	my $b = writer('dump_b', $conn, @pool);
	my $restored_at = q1($a, 'SELECT clock_timestamp()');
	gen_together(4, $a, $b);
	is(in_common($a, $b), 0, '2. a and b made no ID in common');
	is(q1($b, 'SELECT count(*) FROM ids'), 0, '2. b made no ID: the restored pool hands out none');
	like(q1($b, 'SELECT string_agg(DISTINCT msg, $$ | $$) FROM refusals'),
		qr/this server holds no lease in pool "p2"/, '2. b was refused, with the error of a server that holds no lease');
	my $details = q1($b, 'SELECT string_agg(DISTINCT detail, $$ | $$) FROM refusals');
	like($details, qr/Claiming one failed: .*went back in time/,
		'2. a detail says the pool went back in time');
	like($details, qr/Claiming one failed: the coordinator answered: pool "p2" hands out no id until/,
		'2. and the next say until when it hands out nothing');
	cmp_ok(q1($a, qq{SELECT count(*) FROM ids WHERE at > '$restored_at'}), '>', 0,
		'2. a went on making IDs under its lease');
	is(q1($a, 'SELECT count(*) FROM refusals'), 0, '2. nothing of a was refused');
	like(q1($c2, q{SELECT hold_why FROM uid_pool_guard}),
		qr/written in system \d+ database \d+, timeline 1; this is system \d+ database \d+/,
		'2. the guard says where the pools were written before');

	# The hold ends after the longest TTL and the grace; then both hold ids.
	ok(poll_until('the hold ends',
			sub { q1($c2, q{SELECT hold_until < clock_timestamp() FROM uid_pool_guard}) eq 't' }),
		'2. the hold ends');
	q1($_, 'TRUNCATE refusals') for $a, $b;
	gen_together(6, $a, $b);
	cmp_ok(q1($b, q{SELECT count(*) FROM ids}), '>', 0, '2. after the hold, b makes IDs');
	isnt(lease_id($b), lease_id($a), '2. a and b hold different ids');
	is(in_common($a, $b), 0, '2. and made no ID in common, all along');
	$_->stop for $a, $b;
	$c2->stop;
}


# 2b. A failover to a standby that had not received the last claim.  a's
# lease must not reach its second half (a renewal, which the promoted pool
# would refuse: it never saw the claim) before the end: the TTL leaves a
# busy machine room for the failover (20 s did not, with TAP files three
# at a time beside a CI run: a renewed, was refused and claimed again).
{
	my $ttl = 120;
	my $p = PostgreSQL::Test::Cluster->new('lag_primary');
	$p->init(allows_streaming => 1);
	$p->append_conf('postgresql.conf', "fsync = on\nuid.pool_grace = 1\n");
	$p->start;
	$p->safe_psql('postgres', 'CREATE EXTENSION uid');
	$p->backup('lag');
	my $s = PostgreSQL::Test::Cluster->new('lag_standby');
	$s->init_from_backup($p, 'lag', has_streaming => 1);
	$s->start;
	# both nodes' addresses: the servers follow the one that takes writes
	my $conn = sprintf('host=%s,%s port=%d,%d dbname=postgres target_session_attrs=read-write',
		$p->host, $s->host, $p->port, $s->port);
	my @pool = ("uid.pool = 'p2b'", 'uid.pool_size = 4', "uid.pool_ttl = $ttl");
	is(q1($p, "SELECT id FROM uid_pool_claim('p2b', 4, 'app', '$ttl s')"), '0',
		'2b. an application claims id 0');
	$p->wait_for_catchup($s);
	$s->stop;    # it lags from here: it receives nothing more
	my $a = writer('lag_a', $conn, @pool);
	gen_together(0.5, $a);
	is(lease_id($a), '1', '2b. server a claims id 1 on the primary, which the standby never receives');
	$p->stop('immediate');
	$s->start;
	$s->promote;
	ok(poll_until('the standby takes writes', sub { q1($s, 'SELECT NOT pg_is_in_recovery()') eq 't' }),
		'2b. the standby is promoted');
	my $b = writer('lag_b', $conn, @pool);
	gen_together(4, $a, $b);
	is(in_common($a, $b), 0, '2b. a and b made no ID in common');
	is(q1($b, 'SELECT count(*) FROM ids'), 0, '2b. b made no ID: the promoted pool hands out none');
	like(q1($b, 'SELECT string_agg(DISTINCT detail, $$ | $$) FROM refusals'),
		qr/went back in time/, '2b. b was told the pool went back in time');
	like(q1($s, q{SELECT hold_why FROM uid_pool_guard}),
		qr/written on timeline 1 without waiting for a synchronous standby; this is timeline 2/,
		'2b. the pool says it was written on timeline 1 without a synchronous standby');
	is(q1($a, 'SELECT count(*) FROM refusals'), 0, '2b. a went on, refused nothing');
	$_->stop for $a, $b;
	$s->stop;
}


# 3. Claims the server gave up waiting for, that commit later.
{
	# (a node that may have standbys: with max_wal_senders = 0 no commit waits)
	my $c = PostgreSQL::Test::Cluster->new('stalled');
	$c->init(allows_streaming => 1);
	$c->append_conf('postgresql.conf', "fsync = on\nuid.pool_grace = 1\n");
	$c->start;
	$c->safe_psql('postgres', 'CREATE EXTENSION uid');
	my $conn = 'host=' . $c->host . ' port=' . $c->port . ' dbname=postgres';
	$c->safe_psql('postgres', "ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
	$c->reload;
	ok(poll_until('the coordinator waits for a standby',
			sub { q1($c, 'SHOW synchronous_standby_names') eq 'nobody' }),
		'3. the coordinator waits for a synchronous standby that is not there');
	my $w = writer('stall_w', $conn, "uid.pool = 'stall'", 'uid.pool_size = 8',
		'uid.coordinator_timeout = 300');
	my $tries = 0;
	my $until = time() + 15;    # the standby away for 15 s
	while (time() < $until)
	{
		my $r = attempt($w, 'SELECT snowflake_si_new()');
		isnt($r->{rc}, 0, '3. no ID while the coordinator cannot commit') if $tries == 0;
		$tries++;
		usleep(300_000);
	}
	# each attempt's claim is cancelled on the coordinator once the server
	# gave up (statement_timeout), but the one already waiting to commit:
	# no connection piles up per attempt
	ok(poll_until('one claim left waiting',
			sub { q1($c, q{SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%uid_pool_claim%' AND pid <> pg_backend_pid()}) == 1 }),
		"3. one claim waits on the coordinator, not one per attempt ($tries attempts)");
	$c->safe_psql('postgres', 'ALTER SYSTEM RESET synchronous_standby_names');
	$c->reload;
	ok(poll_until('the server claims once the coordinator commits',
			sub { attempt($w, 'SELECT snowflake_si_new()')->{rc} == 0 }),
		'3. the server claims once the coordinator commits');
	ok(poll_until('the claims that waited are done',
			sub { q1($c, q{SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%uid_pool_claim%' AND pid <> pg_backend_pid()}) == 0 }),
		'3. the claims that waited are done');
	is(held($c, 'stall'), 1, '3. the server holds one id, not one per attempt');
	is(q1($c, q{SELECT id FROM uid_pool_leases('stall') WHERE state = 'held'}), lease_id($w),
		'3. the id it uses');
	$w->stop;
	$c->stop;
}


# 4. The host renamed while the server runs.
SKIP:
{
	my $cc = $ENV{CC} // 'cc';
	my $shim = $PostgreSQL::Test::Utils::tmp_check . '/hostname_shim';
	my $host_file = $PostgreSQL::Test::Utils::tmp_check . '/hostname';
	open my $src, '>', "$shim.c" or die;
	print $src <<'C';
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* gethostname() from the file UID_TEST_HOSTNAME names */
int
gethostname(char *name, size_t len)
{
	FILE	   *f = fopen(getenv("UID_TEST_HOSTNAME"), "r");
	size_t		n;

	if (f == NULL || len == 0)
		return -1;
	n = fread(name, 1, len - 1, f);
	fclose(f);
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
	return 0;
}
C
	close $src;
	skip 'no C compiler to make the host name shim', 5
	  unless system($cc, '-shared', '-fPIC', '-o', "$shim.so", "$shim.c") == 0;
	my $rename = sub { open my $fh, '>', $host_file or die; print $fh "$_[0]\n"; close $fh; };
	$rename->('host-one');

	my ($c, $conn) = coordinator_node('renamed_coordinator', 'uid.pool_grace = 1');
	my $w = PostgreSQL::Test::Cluster->new('renamed');
	$w->init;
	$w->append_conf('postgresql.conf',
		"session_preload_libraries = 'uid'\nuid.coordinator = '$conn'\nuid.pool = 'renamed'\n");
	{
		local $ENV{LD_PRELOAD} = "$shim.so";
		local $ENV{UID_TEST_HOSTNAME} = $host_file;
		$w->start;
	}
	$w->safe_psql('postgres', 'CREATE EXTENSION uid');
	my $old = $w->background_psql('postgres');
	$old->query_safe('SELECT snowflake_si_new()');
	$rename->('host-two');
	$w->safe_psql('postgres', 'SELECT snowflake_si_new()');
	$old->query_safe('SELECT snowflake_si_new()');
	$w->safe_psql('postgres', 'SELECT snowflake_si_new()');
	$old->query_safe('SELECT snowflake_si_new()');
	is(held($c, 'renamed'), 1, '4. sessions before and after the rename hold one lease');
	like(q1($c, q{SELECT holder FROM uid_pool_leases('renamed')}), qr/^host-one:/,
		'4. claimed as host-one');
	$old->quit;
	{
		local $ENV{LD_PRELOAD} = "$shim.so";
		local $ENV{UID_TEST_HOSTNAME} = $host_file;
		$w->restart;
	}
	$w->safe_psql('postgres', 'SELECT snowflake_si_new()');
	is(held($c, 'renamed'), 2, '4. after a restart the new name is a new key: a claim of its own');
	like(q1($c, q{SELECT string_agg(holder, ' ' ORDER BY id) FROM uid_pool_leases('renamed')}),
		qr/^host-one:.* host-two:/, '4. as host-two');
	$w->stop;
	$c->stop;
}

done_testing();
