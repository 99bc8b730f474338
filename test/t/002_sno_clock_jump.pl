# The server's clock steps back (5 s, then an hour) while sessions generate
# sno IDs: no duplicate, the tick bit flips on the first step, generation
# holds at the high-water mark on the second, and it never stalls
# (README, guarantees 1, 3 and 4, and doc/design.md, the sno regression policy).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $workers = 3;
my $per_batch = 200;      # IDs per committed batch of a worker
my $probe = 20_000;       # IDs of the timed batch in each phase

my $node = faked_node('clock_jump');

$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (id sno NOT NULL, s int NOT NULL, n int NOT NULL,
					phase int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
	CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL);
	INSERT INTO ctl VALUES (0, false);

	-- Generates committed batches until told to stop, each row tagged with
	-- the phase current when its batch began.  (No pg_sleep between
	-- batches: it sleeps until a wall-clock time, so a clock stepped back
	-- an hour would hold it for an hour.)
	CREATE PROCEDURE gen(sess int, per int) LANGUAGE plpgsql AS $$
	DECLARE
		i int := 0;
		ph int;
		st bool;
	BEGIN
		LOOP
			SELECT phase, stop INTO ph, st FROM ctl;
			EXIT WHEN st;
			INSERT INTO t SELECT sno_new(1), sess, i * per + g, ph
			FROM generate_series(1, per) g;
			i := i + 1;
			COMMIT;
		END LOOP;
	END $$;
});

check_clock_offset($node, 0, 'the server clock starts at real time');

my $started = time();
my @w = map { start_worker($node, "CALL gen($_, $per_batch)") } 1 .. $workers;

# Waits until every worker has committed two batches in the phase.
sub wait_for_workers
{
	my ($phase) = @_;
	return poll_while_running(
		$node, qq{
		SELECT count(*) = $workers FROM (
			SELECT s FROM t WHERE phase = $phase AND s <= $workers
			GROUP BY s HAVING count(*) >= 2 * $per_batch
		) x}, \@w);
}

# A batch from a new session, timed from outside: it must complete (a psql
# that hangs for $PostgreSQL::Test::Utils::timeout_default seconds fails the
# test instead of hanging it).
sub timed_batch
{
	my ($phase) = @_;
	my $s = 100 + $phase;
	my $start = time();
	$node->safe_psql('postgres',
		"INSERT INTO t SELECT sno_new(1), $s, g, $phase FROM generate_series(1, $probe) g",
		timeout => $PostgreSQL::Test::Utils::timeout_default);
	return time() - $start;
}

sub stats
{
	my ($flips, $regressions) = split /\|/,
	  $node->safe_psql('postgres',
		"SELECT tick_flips, clock_regressions FROM uid_stats() WHERE type = 'sno'"
	  );
	return { flips => $flips, regressions => $regressions };
}

# Moves the clock (set_clock returns once every backend has taken the
# step), checks that the server follows, and starts a phase.
sub step_clock
{
	my ($phase, $offset) = @_;
	set_clock($node, $offset);
	check_clock_offset($node, $offset,
		"phase $phase: the server clock is $offset s off real time");
	$node->safe_psql('postgres', "UPDATE ctl SET phase = $phase");
	return;
}

# Phase 0: real time, for 6 s, so that the clock stepped back 5 s runs
# through time for which IDs were made: a generator that followed the clock
# back would make some of them again.  (5 s rather than 1 or 2: the clock
# must still be behind the IDs of phase 0 once the step has reached every
# backend and phase 1 has begun, on a busy machine too.)
ok(wait_for_workers(0), 'phase 0: every worker generates');
my $base = timed_batch(0);
note "phase 0 batch: $base s";
usleep(1_000_000 * (6 - (time() - $started))) if time() - $started < 6;

# Phase 1: 5 s back, ahead of the unused second timeline: flip to it.
my $max0 = $node->safe_psql('postgres',
	'SELECT sno_timestamp(id) FROM t ORDER BY sno_timestamp(id) DESC LIMIT 1');
my $before = stats();
# Backends racing one another at a steady clock must not flip, or the
# second timeline is used up before the clock ever goes back.
is($before->{flips}, 0, 'phase 0: no tick flip while the clock is steady');
step_clock(1, -5);
ok(wait_for_workers(1), 'phase 1: every worker keeps generating');
my $t1 = timed_batch(1);
note "phase 1 batch: $t1 s";
my $after = stats();
cmp_ok($after->{flips}, '>', $before->{flips}, 'phase 1: the tick bit flipped');
cmp_ok($after->{regressions}, '>', $before->{regressions},
	'phase 1: the clock regression was counted');
# Generation went on at the earlier time (on the other timeline) rather
# than waiting for the clock or holding at the old mark.
is( $node->safe_psql('postgres',
		"SELECT count(*) > 0 FROM t WHERE phase = 1 AND sno_timestamp(id) < '$max0'"),
	't',
	'phase 1: IDs were made at the earlier time');

# Phase 2: an hour back, behind both timelines: hold at the high-water mark.
my $step2 = time();
step_clock(2, -3600);
$before = stats();
ok(wait_for_workers(2), 'phase 2: every worker keeps generating');
my $t2 = timed_batch(2);
note "phase 2 batch: $t2 s";
$after = stats();
is($after->{flips}, $before->{flips},
	'phase 2: no flip while the clock is behind both timelines');
is( $node->safe_psql('postgres',
		"SELECT count(*) FROM t WHERE phase = 2 AND sno_timestamp(id) < to_timestamp($step2 - 60)"
	),
	'0',
	'phase 2: no ID is dated back to the clock, they hold at the high-water mark'
);

# Phase 3: back to real time.
my $step3 = time();
$before = stats();
step_clock(3, '+0');
ok(wait_for_workers(3), 'phase 3: every worker keeps generating');
my $t3 = timed_batch(3);
note "phase 3 batch: $t3 s";
$after = stats();
is($after->{flips}, $before->{flips},
	'phase 3: no flip when the clock steps forward');
is( $node->safe_psql('postgres',
		"SELECT count(*) > 0 FROM t WHERE phase = 3 AND sno_timestamp(id) >= to_timestamp($step3 - 1)"
	),
	't',
	'phase 3: IDs follow the clock again');

$node->safe_psql('postgres', 'UPDATE ctl SET stop = true');
for my $i (1 .. $workers)
{
	my ($rc, $out, $err) = finish_worker($w[ $i - 1 ]);
	is($rc, 0, "worker $i ran through every step without an error")
	  or diag $err;
}

# A stall of an hour's step would show here.  (A wait for the clock in
# phase 1, 5 s, shows above: no ID would be dated before the old mark.)
# The bound is 20 times phase 0's time and half a minute more: a busy
# machine, or one that gets busy, passes.
for ([ 1, $t1 ], [ 2, $t2 ], [ 3, $t3 ])
{
	my ($phase, $t) = @$_;
	cmp_ok($t, '<', 20 * $base + 30,
		"phase $phase: $probe IDs took ${t}s, no stall (phase 0: ${base}s)");
}

# Within a session, IDs on one timeline only ever rise (guarantee 3 for
# sno), across both steps.
check_ids($node, 's');
is( $node->safe_psql(
		'postgres',
		'SELECT count(DISTINCT phase) FROM t WHERE s <= ' . $workers),
	'4',
	'the workers generated in every phase');

is($node->safe_psql('postgres', 'SELECT count(DISTINCT sno_tick(id)) FROM t'),
	'2', 'IDs were made on both timelines');

$node->stop;

done_testing();
