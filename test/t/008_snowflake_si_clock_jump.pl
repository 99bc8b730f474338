# The server's clock steps back (2 s, then an hour, then forward again)
# while sessions generate snowflake_si IDs, and the server restarts with its
# clock 10 s back.  snowflake_si has a single timeline: the generator holds
# at the high-water millisecond and, when its 256 indexes are used up,
# borrows the next one without waiting; it never goes back.  So: no
# duplicate, every session's IDs rise across every step and the restart, no
# ID is dated back to the clock, and generation never stalls (design.md,
# guarantees 1, 3 and 4, and the regression policy of "the others").

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
my $machine = 5;
my $per_ms = 256;         # 2^k, k = uid.snowflake_si_index_bits (default 8)

my $node = faked_node('snowflake_si_clock_jump', "uid.generator = $machine");

$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (id snowflake_si NOT NULL, s int NOT NULL, n int NOT NULL,
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
			INSERT INTO t SELECT snowflake_si_new(), sess, i * per + g, ph
			FROM generate_series(1, per) g;
			i := i + 1;
			COMMIT;
		END LOOP;
	END $$;
});

sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

cmp_ok(abs(server_clock_offset($node)), '<', 0.5,
	'the server clock starts at real time');

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

# A batch from a new session, timed from outside: it must complete.
sub timed_batch
{
	my ($phase) = @_;
	my $s = 100 + $phase;
	my $start = time();
	query(
		"INSERT INTO t SELECT snowflake_si_new(), $s, g, $phase FROM generate_series(1, $probe) g"
	);
	return time() - $start;
}

sub stats
{
	my ($waits, $regressions, $flips) = split /\|/,
	  query(q{SELECT overflow_waits, clock_regressions, tick_flips
			  FROM uid_stats() WHERE type = 'snowflake_si'});
	return { waits => $waits, regressions => $regressions, flips => $flips };
}

# The highest ID committed so far, and how far its time is ahead of the
# server's clock, in seconds.
sub high_water
{
	my ($id, $ahead) = split /\|/,
	  query(q{SELECT id, extract(epoch FROM snowflake_si_timestamp(id) - clock_timestamp())
			  FROM t ORDER BY id DESC LIMIT 1});
	return ($id, $ahead);
}

# Every ID of a phase is above the highest ID made before it began: the
# generator never went back.
sub above_high_water
{
	my ($phase, $hw, $what) = @_;
	$what //= "phase $phase";
	is(query("SELECT count(*) FROM t WHERE phase = $phase AND id <= '$hw'"),
		'0', "$what: every ID is above every ID made before");
	return;
}

# With the clock behind, a phase's IDs start at the high-water mark: not
# dated back to the clock, and not pushed ahead of it by more than the few
# batches made in between can account for (a second is 256,000 IDs).
sub held_at_high_water
{
	my ($phase, $hw, $what) = @_;
	$what //= "phase $phase";
	above_high_water($phase, $hw, $what);
	is( query(
			qq{SELECT min(snowflake_si_timestamp(id))
						< snowflake_si_timestamp('$hw') + interval '1 s'
			   FROM t WHERE phase = $phase}),
		't',
		"$what: the IDs went on from the high-water mark");
	return;
}

# While the clock stays behind every ID of the phase, no millisecond is
# ever full at the clock's time: used-up ones are borrowed ahead at once,
# so overflow_waits stays still from $from to now.  (The clock is read
# after the counters: behind then, it was behind all along.)
sub borrowed_without_waiting
{
	my ($phase, $from) = @_;
	my $waits = stats()->{waits};
	my $behind = query(
		qq{SELECT clock_timestamp() < min(snowflake_si_timestamp(id))
		   FROM t WHERE phase = $phase});
	SKIP:
	{
		skip "phase $phase: the clock caught up with the mark", 1
		  unless $behind eq 't';
		is($waits, $from->{waits},
			"phase $phase: used-up milliseconds were borrowed, not waited for");
	}
	return;
}

# Moves the clock, checks that the server follows, and starts a phase.
sub step_clock
{
	my ($phase, $offset) = @_;
	set_clock($node, $offset);
	my $off = server_clock_offset($node);
	cmp_ok(abs($off - $offset), '<', 0.5,
		"phase $phase: the server clock is $offset s off real time")
	  or diag "offset: $off";
	query("UPDATE ctl SET phase = $phase");
	return;
}

# Phase 0: real time, for 3 s, so that the clock stepped back 2 s runs
# through time for which IDs were made: a generator that followed the clock
# back would make some of them again.
ok(wait_for_workers(0), 'phase 0: every worker generates');
my $base = timed_batch(0);
note "phase 0 batch: $base s";
usleep(1_000_000 * (3 - (time() - $started))) if time() - $started < 3;
my $before = stats();
is($before->{regressions}, '0',
	'phase 0: no clock regression while the clock is steady');

# Phase 1: 2 s back, into the time phase 0 covered.
my ($hw1) = high_water();
step_clock(1, -2);
my (undef, $ahead1) = high_water();
cmp_ok($ahead1, '>', 1, 'phase 1: the clock is behind the last ID made')
  or diag "the last ID is $ahead1 s ahead of the clock";
ok(wait_for_workers(1), 'phase 1: every worker keeps generating');
my $mid = stats();
my $t1 = timed_batch(1);
note "phase 1 batch: $t1 s";
borrowed_without_waiting(1, $mid);
my $after = stats();
cmp_ok($after->{regressions}, '>', $before->{regressions},
	'phase 1: the clock regression was counted');
held_at_high_water(1, $hw1);

# Phase 2: an hour back.  Hold at the high-water mark and borrow ahead;
# never wait for a clock that is an hour away.
my $step2 = time();
my ($hw2) = high_water();
$before = stats();
step_clock(2, -3600);
ok(wait_for_workers(2), 'phase 2: every worker keeps generating');
$mid = stats();
my $t2 = timed_batch(2);
note "phase 2 batch: $t2 s";
borrowed_without_waiting(2, $mid);
$after = stats();
cmp_ok($after->{regressions}, '>', $before->{regressions},
	'phase 2: the clock regression was counted');
held_at_high_water(2, $hw2);
is( query(
		"SELECT count(*) FROM t WHERE phase = 2 AND snowflake_si_timestamp(id) < to_timestamp($step2 - 60)"
	),
	'0',
	'phase 2: no ID is dated back to the clock, they hold at the high-water mark'
);

# Phase 3: back to real time.
my ($hw3) = high_water();
step_clock(3, '+0');
my (undef, $ahead3) = high_water();
# While the clock was behind, nothing held generation to the format's
# 256 IDs a millisecond: the mark may have run ahead of real time.
note "phase 3: the last ID is $ahead3 s ahead of the clock";
ok(wait_for_workers(3), 'phase 3: every worker keeps generating');
my $t3 = timed_batch(3);
note "phase 3 batch: $t3 s";
above_high_water(3, $hw3);

query('UPDATE ctl SET stop = true');
for my $i (1 .. $workers)
{
	my ($rc, $out, $err) = finish_worker($w[ $i - 1 ]);
	is($rc, 0, "worker $i ran through every step without an error")
	  or diag $err;
}

# A stall of a step's length (2 s, an hour) would show here; the bound is
# loose because the machine may be busy.
for ([ 1, $t1 ], [ 2, $t2 ], [ 3, $t3 ])
{
	my ($phase, $t) = @$_;
	cmp_ok($t, '<', 10 * $base + 20,
		"phase $phase: $probe IDs took ${t}s (phase 0: ${base}s)");
}

# Once the clock has passed the high-water mark, IDs follow the clock again
# (no offset is kept from the borrowing).
ok( $node->poll_query_until(
		'postgres', q{
		SELECT clock_timestamp() > snowflake_si_timestamp(id) + interval '10 ms'
		FROM t ORDER BY id DESC LIMIT 1}),
	'phase 3: the clock passes the high-water mark');
is( query(
		q{SELECT abs(extract(epoch FROM snowflake_si_timestamp(snowflake_si_new())
										- clock_timestamp())) < 0.5}),
	't',
	'phase 3: a new ID is dated at the clock again');

# Restart with the clock 10 s back: the high-water mark is in the state
# file, so the new IDs continue above every earlier one, the last issued
# before the stop included.
my ($hw4) = high_water();
my $last = query('SELECT snowflake_si_new()');
is(query("SELECT '$last'::snowflake_si > '$hw4'"),
	't', 'the last ID before the restart is the highest');
my $regressions = stats()->{regressions};
$node->stop;
set_clock($node, -10);
start_faked($node);
my $off = server_clock_offset($node);
cmp_ok(abs($off + 10), '<', 0.5, 'restart: the server clock is -10 s off real time')
  or diag "offset: $off";
my (undef, $ahead4) = high_water();
cmp_ok($ahead4, '>', 5, 'restart: the clock is behind the last ID made before')
  or diag "the last ID is $ahead4 s ahead of the clock";

my @r = map {
	start_worker($node,
		"INSERT INTO t SELECT snowflake_si_new(), 200 + $_, g, 4 FROM generate_series(1, $probe) g"
	  )
} 1 .. 2;
for my $i (1 .. 2)
{
	my ($rc, $out, $err) = finish_worker($r[ $i - 1 ]);
	is($rc, 0, "restart: session $i generated its IDs") or diag $err;
}
held_at_high_water(4, $last, 'restart');
cmp_ok(stats()->{regressions}, '>', $regressions,
	'restart: the clock regression was counted');

# Over every phase and the restart.
my $total = check_ids_by($node, 's');
is(query('SELECT count(DISTINCT phase) FROM t WHERE s <= ' . $workers),
	'4', 'the workers generated in every phase');
cmp_ok(
	query(
		'SELECT max(c) FROM (SELECT count(*) AS c FROM t GROUP BY snowflake_si_timestamp(id)) x'
	),
	'<=', $per_ms,
	"at most $per_ms IDs in any millisecond, borrowed ones included");
is( query(
		'SELECT min(snowflake_si_machine(id)), max(snowflake_si_machine(id)), max(snowflake_si_index(id)) < 256 FROM t'
	),
	"$machine|$machine|t",
	"every ID has machine id $machine and an index below 256");
my $end = stats();
is($end->{flips}, '0', 'no tick flip: snowflake_si has one timeline');
# The counters are in the state file too: they survived the restart.
cmp_ok(query(q{SELECT issued FROM uid_stats() WHERE type = 'snowflake_si'}),
	'>=', $total, 'uid_stats counted the IDs of every phase and start');
note 'uid_stats: ',
  query(q{SELECT * FROM uid_stats() WHERE type = 'snowflake_si'});

set_clock($node, '+0');
$node->stop;

done_testing();
