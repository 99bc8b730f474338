# The server restarts with its clock set back: the generator's state
# outlives the server, so no ID made before is made again.  A start is a
# fence (src/lease.c): both tick-tock timelines move past every ID made
# before, so whether the clock is set back 10 s, into the time the first
# timeline covered, or a minute, behind both timelines, sno does not flip
# to the earlier time but holds at the fence and borrows ahead, and every
# new ID sorts after every earlier one (README, guarantees 1, 3 and 6).
# While a server runs, a clock step back still flips (002).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $node = faked_node('restart');

$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (id sno NOT NULL, start int NOT NULL, s int NOT NULL,
					n int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);

	-- Small committed batches spread over secs seconds, so that IDs cover
	-- every stretch of that time.
	CREATE PROCEDURE gen(st int, sess int, secs float8) LANGUAGE plpgsql AS $$
	DECLARE
		i int := 0;
		t0 timestamptz := clock_timestamp();
	BEGIN
		WHILE clock_timestamp() < t0 + secs * interval '1 s' LOOP
			INSERT INTO t SELECT sno_new(), st, sess, i * 200 + g
			FROM generate_series(1, 200) g;
			i := i + 1;
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
	END $$;
});

# Two sessions per start, so that the IDs come from more than one backend.
sub generate
{
	my ($start, $secs) = @_;
	my @w = map { start_worker($node, "CALL gen($start, $_, $secs)") } 1 .. 2;
	for my $w (@w)
	{
		my ($rc, $out, $err) = finish_worker($w);
		is($rc, 0, "start $start: IDs generated") or diag $err;
	}
	return;
}

sub flips
{
	return $node->safe_psql('postgres',
		"SELECT tick_flips FROM uid_stats() WHERE type = 'sno'");
}

# Restarts with the clock $offset s back, or further back if the restart
# took longer than the step (UidTest's restart_behind): the clock is then
# behind the time of the IDs made before that $sql returns.
sub restart_at
{
	my ($start, $offset, $sql) = @_;
	restart_behind($node, $offset,
		sub { query("SELECT extract(epoch FROM ($sql) - clock_timestamp())") },
		0, "start $start");
	return;
}

sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

# Start 0: the fence moves sno at most a lease (1 s) and a tick past the
# clock, even with uid60 in use: a uid60 made early in its one-second tick
# once pushed the lease to the tick's end and a second more, and with it
# every type's fence (2 s ahead of the clock, seen as 1.05 to 2.08 s after
# promotions on 0.5.0).  The lease now covers ticks' starts
# (uid_tick_lease_us, doc/design.md).  early() makes a uid60 and a sno in
# the first tenths of a second and returns the clock after them.
query(
	q{CREATE FUNCTION early() RETURNS timestamptz LANGUAGE plpgsql AS $$
	BEGIN
		WHILE extract(microseconds FROM clock_timestamp())::bigint % 1000000 > 300000 LOOP
			PERFORM pg_sleep(0.01);
		END LOOP;
		PERFORM uid60_new(), sno_new();
		RETURN clock_timestamp();
	END $$});
my $clock0 = query('SELECT early()');
$node->stop('immediate');
$node->start;
my ($reach, $ahead) = split /\|/, query(
	qq{SELECT extract(epoch FROM last_fence - '$clock0'),
			  extract(epoch FROM sno_timestamp(x.id) - clock_timestamp())
	   FROM (SELECT sno_new() AS id) x, LATERAL uid_lease()});
note "start 0: the fence is ${reach} s past the clock before the crash; "
  . "the first sno is ${ahead} s ahead of the clock";
cmp_ok($reach, '<=', 1.0,
	'start 0: the fence is at most a lease past the clock before the crash');
cmp_ok($ahead, '<=', 1.004,
	'start 0: the first sno is at most a lease and a tick ahead of the clock');

# Start 1: real time, for 11 s, so that start 2's clock, 10 s back, runs
# through time for which start 1 made IDs: had the state been lost, start 2
# would make some of the same IDs again.
generate(1, 11);
my $flips1 = flips();
is(query('SELECT DISTINCT sno_tick(id) FROM t'), '0', 'start 1: one timeline');

# Start 2: 10 s back, into the time start 1 covered.
restart_at(2, -10, 'SELECT max(sno_timestamp(id)) FROM t WHERE start = 1');
generate(2, 2);
is(flips(), $flips1, 'start 2: no flip across a restart');
is( query(
		q{SELECT (SELECT min(id) FROM t WHERE start = 2)
				 > (SELECT max(id) FROM t WHERE start = 1)}),
	't',
	'start 2: every ID sorts after every ID made before the restart');
my $flips2 = flips();

# Start 3: a minute back, behind both timelines.
restart_at(3, -60,
	'SELECT min(sno_timestamp(id)) FROM t WHERE start IN (1, 2)');
generate(3, 2);
is(flips(), $flips2, 'start 3: no flip while behind both timelines');
is( query(
		q{SELECT (SELECT min(id) FROM t WHERE start = 3)
				 > (SELECT max(id) FROM t WHERE start < 3)}),
	't',
	'start 3: every ID sorts after every ID made before the restart');

my $total = check_ids($node, 'start, s');

# The state survived both restarts: so did its counters.
cmp_ok(query("SELECT issued FROM uid_stats() WHERE type = 'sno'"),
	'>=', $total, 'uid_stats counted the IDs of every start');

$node->stop;

done_testing();
