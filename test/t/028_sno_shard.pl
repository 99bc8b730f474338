# sno's sequence sharding (issue 17): servers that share a partition with
# disjoint sequence ranges (uid.sno_sequence_min/max) never make the same
# ID; a range of 4 waits for the next 4 ms unit instead of wrapping; a
# reload that moves the range while IDs are being made, also in the middle
# of a statement and of a unit, issues none twice and none outside the
# range; the fair share of a unit divides the range, not the whole
# sequence; and overflow notifications reach a listener (uid.
# sno_overflow_channel), at most one per unit, and none without overflow.
#
# Nothing is timed: what is checked is counted from the IDs (their units,
# sequences and when they were made) and the counters.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use List::Util;
use Test::More;
use UidTest;

# IDs of one server, made by $n sessions of $per IDs each, released at
# once; t (id, s, n, at): at is the clock just after the ID was made.
sub generate
{
	my ($node, $n, $per, $what) = @_;
	return run_released(
		$node, $n,
		sub {
			"INSERT INTO t SELECT sno_new(), $_[0], g, clock_timestamp() FROM generate_series(1, $per) g";
		},
		what => $what);
}

sub q1
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

my @nodes;
for my $name ('shard_a', 'shard_b')
{
	my $node = uid_node($name);
	q1($node,
		'CREATE TABLE t (id sno NOT NULL, s int NOT NULL, n int NOT NULL, at timestamptz NOT NULL)'
	);
	push @nodes, $node;
}
my ($a, $b) = @nodes;

# 1. Two servers, one partition (7), the sequence divided between them.
reload_with($a, 'uid.sno_sequence_min' => 0, 'uid.sno_sequence_max' => 32767);
reload_with($b, 'uid.sno_sequence_min' => 32768, 'uid.sno_sequence_max' => 65535);
is( q1($b, 'SELECT sequence_min, sequence_max, capacity_per_tick FROM sno_snapshot()'),
	'32768|65535|32768', 'server b generates in 32768..65535 (sno_snapshot)');

# Both at once: four sessions on each server, all started at one moment
# of the (real, shared) clock.
my $start = q1($a, q{SELECT clock_timestamp() + interval '3 s'});
my @w;
for my $node ($a, $b)
{
	push @w, map {
		my $s = $_;
		start_worker($node, "SELECT pg_sleep_until('$start')",
			"INSERT INTO t SELECT sno_new(), $s, g, clock_timestamp() FROM generate_series(1, 50000) g"
		  )
	} 1 .. 4;
}
for my $i (0 .. $#w)
{
	my ($rc, $out, $err) = finish_worker($w[$i]);
	is($rc, 0, "session $i made its IDs") or diag $err;
}

# Server b's IDs into server a, beside a's own: one table of all of them.
q1($a, 'CREATE TABLE t_b (LIKE t)');
my $dump = q1($b, 'COPY t TO STDOUT');
my ($rc, $out, $err) = $a->psql('postgres', "COPY t_b FROM STDIN;\n$dump\n\\.\n");
is($rc, 0, "server b's IDs loaded into server a") or diag $err;
is( q1($a, q{
	SELECT count(*) FILTER (WHERE srv = 'a'), count(*) FILTER (WHERE srv = 'b'),
		   count(*) - count(DISTINCT id)
	FROM (SELECT id, 'a' AS srv FROM t UNION ALL SELECT id, 'b' FROM t_b) x}),
	'200000|200000|0', 'no ID of the 400,000 is made twice');
is( q1($a, q{
	SELECT count(*) FILTER (WHERE sno_sequence(id) > 32767) FROM t}) . '|'
	  . q1($a, q{SELECT count(*) FILTER (WHERE sno_sequence(id) < 32768) FROM t_b}),
	'0|0', "every ID's sequence is in its server's range");
is( q1($a, q{SELECT count(DISTINCT sno_partition(id)) FROM (SELECT id FROM t UNION ALL SELECT id FROM t_b) x}),
	'1', 'both servers embed the one partition');
# not vacuous: the servers made IDs in the same 4 ms units, where the
# sequences alone keep them apart (both start each unit at their lower
# bound: 0 and 32768)
my $shared = q1($a, q{
	SELECT count(*) FROM (SELECT DISTINCT sno_timestamp(id), sno_tick(id) FROM t) x
	JOIN (SELECT DISTINCT sno_timestamp(id), sno_tick(id) FROM t_b) y USING (sno_timestamp, sno_tick)});
cmp_ok($shared, '>=', 10, "the servers made IDs in the same 4 ms units ($shared)");
is( q1($a, q{
	SELECT count(*) FILTER (WHERE lo <> 0) FROM (
		SELECT min(sno_sequence(id)) AS lo FROM t GROUP BY sno_timestamp(id), sno_tick(id)) x}),
	'0', "each of server a's units begins at its lower bound 0");
is( q1($b, q{
	SELECT count(*) FILTER (WHERE lo <> 32768) FROM (
		SELECT min(sno_sequence(id)) AS lo FROM t GROUP BY sno_timestamp(id), sno_tick(id)) x}),
	'0', "each of server b's units begins at its lower bound 32768");
$b->stop;

# 2. A range of 4 under load: at most 4 IDs in any unit, all in the range,
# and calls that found their unit used up waited (they never wrapped).
q1($a, 'TRUNCATE t');
reload_with($a, 'uid.sno_sequence_min' => 100, 'uid.sno_sequence_max' => 103);
my $before = type_stats($a, 'sno');
generate($a, 4, 500, 'range of 4:');
my $after = type_stats($a, 'sno');
is( q1($a, q{
	SELECT count(*), count(DISTINCT id), min(sno_sequence(id)), max(sno_sequence(id)) FROM t}),
	'2000|2000|100|103', 'range of 4: 2,000 distinct IDs, sequences 100..103');
is( q1($a, q{
	SELECT max(c), count(*) >= 500 FROM (
		SELECT count(*) AS c FROM t GROUP BY sno_timestamp(id), sno_tick(id)) x}),
	'4|t', 'range of 4: at most 4 IDs in a 4 ms unit, so 500 units or more');
cmp_ok($after->{waits} - $before->{waits},
	'>', 0, 'range of 4: calls waited for the next unit (uid_stats overflow_waits)');
is($after->{flips}, $before->{flips}, 'range of 4: no tick-tock flip');

# 3. The fair share of a unit divides the range.  A hog inserts in a loop;
# a victim takes one ID every millisecond or so.  In a unit that follows
# one in which the victim took an ID, two backends share it: the hog may
# take 2 of the 4, then waits.  (Divided from the whole sequence, its share
# would be 32,768 and it would take all it can.)
q1($a, 'TRUNCATE t');
q1($a, 'ALTER TABLE t ADD COLUMN who text');
my $hog = start_worker($a,
	("INSERT INTO t SELECT sno_new(), 0, g, clock_timestamp(), 'hog' FROM generate_series(1, 400) g")
	  x 15);
ok( poll_until(
		'the hog to run alone for a while',
		sub { q1($a, q{SELECT count(*) >= 800 FROM t}) eq 't' }),
	'the hog has been generating');
($rc, $out, $err) = $a->psql('postgres',
	q{INSERT INTO t SELECT sno_new(), 1, g, clock_timestamp(),
	                       (SELECT 'victim' FROM pg_sleep(0.001 + 0 * g))
	  FROM generate_series(1, 600) g});
is($rc, 0, 'the victim made its IDs') or diag $err;
my ($hog_rc, undef, $hog_err) = finish_worker($hog);
is($hog_rc, 0, 'the hog made its IDs') or diag $hog_err;
my ($pairs, $over, $alone_full) = split /\|/, q1($a, q{
	WITH u AS (
		SELECT (extract(epoch FROM sno_timestamp(id)) * 250)::bigint AS unit,
			   count(*) FILTER (WHERE who = 'hog') AS hog,
			   count(*) FILTER (WHERE who = 'victim') AS victim
		FROM t GROUP BY 1)
	SELECT count(*) FILTER (WHERE u.victim > 0 AND p.victim > 0),
		   count(*) FILTER (WHERE u.victim > 0 AND p.victim > 0 AND u.hog > 2),
		   (SELECT count(*) FROM u WHERE hog = 4 AND victim = 0)
	FROM u JOIN u p ON p.unit = u.unit - 1});
note "units with victim IDs in it and the one before: $pairs";
cmp_ok($pairs, '>=', 10, 'the victim took IDs in consecutive units');
is($over, '0', 'in those, the hog took at most 2 of the 4 (its share)');
cmp_ok($alone_full, '>', 0, 'alone, the hog filled whole units (4 IDs)');
is(q1($a, 'SELECT count(*) - count(DISTINCT id) FROM t'), '0', 'no ID was made twice');
q1($a, 'ALTER TABLE t DROP COLUMN who');

# 4. Overflow notifications: a listener gets one per unit in which calls
# waited, while the load is above the range's capacity; none when it is not;
# none with the channel off.
q1($a, 'TRUNCATE t');
reload_with($a, 'uid.sno_overflow_channel' => 'sno_overflow');
my $l = sno_listener($a, 'sno_overflow');
my $load_start = q1($a, 'SELECT clock_timestamp()');
generate($a, 3, 300, 'overload:');
my $load_end = q1($a, 'SELECT clock_timestamp()');
my @n = sno_notifications($l, 'sno_overflow');
note scalar(@n), ' notifications';
cmp_ok(scalar(@n), '>', 0, 'overload: the listener received notifications');
my @times = map { $_->{time} } @n;
my %seen;
is(scalar(grep { $seen{$_}++ } @times), 0, 'overload: at most one notification per 4 ms unit');
is( scalar(
		grep {
			!(     defined $_->{count}
				&& $_->{count} >= 1
				&& defined $_->{ticks}
				&& $_->{ticks} >= 1)
		} @n),
	0,
	'overload: each has a count and a number of ticks of at least 1');
cmp_ok(List::Util::max(map { $_->{ticks} } @n),
	'>', 1, 'overload: the overflow lasted several units in a row (ticks)');
my $units = join ',', map { "'$_'" } @times;
is( q1($a, qq{
	SELECT count(*) FROM unnest(ARRAY[$units]::timestamptz[]) u
	WHERE u < '$load_start'::timestamptz - interval '4 ms' OR u > '$load_end'}),
	'0', 'overload: every notification is of a unit during the load');
is( q1($a, qq{
	SELECT count(*) FROM unnest(ARRAY[$units]::timestamptz[]) u
	WHERE NOT EXISTS (SELECT FROM t WHERE sno_timestamp(id) = u AND sno_sequence(id) = 103)}),
	'0', 'overload: every notified unit was used up (its sequence 103 issued)');
is( q1($a,
		q{SELECT overflow_ticks > 0 AND overflow_notified_time IS NOT NULL FROM sno_snapshot()}),
	't', 'sno_snapshot() shows the last notification');

# within the capacity: one session, 40 IDs spaced out: none
$l = sno_listener($a, 'sno_overflow');
q1($a,
	q{SELECT count(sno_new()) FROM generate_series(1, 40) g, LATERAL (SELECT pg_sleep(0.005 + 0 * g)) s}
);
@n = sno_notifications($l, 'sno_overflow');
is(scalar(@n), 0, 'within the capacity: no notification');

# the channel off: the same overload, no notification
reload_with($a, 'uid.sno_overflow_channel' => '');
$l = sno_listener($a, 'sno_overflow');
$before = type_stats($a, 'sno');
generate($a, 3, 200, 'channel off:');
$after = type_stats($a, 'sno');
@n = sno_notifications($l, 'sno_overflow');
cmp_ok($after->{waits} - $before->{waits}, '>', 0, 'channel off: calls waited');
is(scalar(@n), 0, 'channel off: no notification');

# 5. A reload that moves and narrows the range while sessions generate:
# two run one long statement each (a reload reaches a backend between
# statements, but sno's range also in the middle of one), two run short
# ones, until ctl says stop.  No ID is made twice; an ID made before a
# reload is in the range before it, one made a second after the server had
# it (a margin for the signal to reach the sessions) in its range.
q1($a, 'TRUNCATE t');
reload_with($a, 'uid.sno_sequence_min' => 0, 'uid.sno_sequence_max' => 999);
q1($a, q{
	CREATE TABLE ctl (stop bool NOT NULL);
	INSERT INTO ctl VALUES (false);
	CREATE PROCEDURE long_gen(sess int) LANGUAGE plpgsql AS $$
	DECLARE
		i int := 0;
	BEGIN
		LOOP
			i := i + 1;
			INSERT INTO t VALUES (sno_new(), sess, i, clock_timestamp());
			COMMIT;
			EXIT WHEN (SELECT stop FROM ctl);
			PERFORM pg_sleep(0.001);
		END LOOP;
	END $$;
});
# (a procedure that commits each row is one statement all the same)
my @gen = map { start_worker($a, "CALL long_gen($_)") } 1 .. 2;
push @gen, map {
	my $s = $_;
	start_worker($a,
		map {
			"INSERT INTO t SELECT sno_new(), $s, $_ * 100 + g, clock_timestamp() FROM generate_series(1, 20) g, LATERAL (SELECT pg_sleep(0.001 + 0 * g)) p WHERE NOT (SELECT stop FROM ctl)"
		} 1 .. 3000)
} 3 .. 4;
ok( poll_until(
		'the sessions to generate',
		sub { q1($a, 'SELECT count(DISTINCT s) = 4 AND count(*) >= 1000 FROM t') eq 't' }),
	'reload: the sessions generate');
my @reloads;
for my $r ([ 1000, 1003 ], [ 2000, 2999 ], [ 500, 503 ])
{
	my $at = q1($a, 'SELECT clock_timestamp()');
	reload_with($a, 'uid.sno_sequence_min' => $r->[0], 'uid.sno_sequence_max' => $r->[1]);
	my $done = q1($a, 'SELECT clock_timestamp()');
	push @reloads, "($#reloads + 1, '$at'::timestamptz, '$done'::timestamptz, $r->[0], $r->[1])";
	# every session makes IDs in this range (the long ones included)
	poll_until(
		"IDs of every session in $r->[0]..$r->[1]",
		sub {
			q1($a,
				"SELECT count(DISTINCT s) = 4 FROM t WHERE sno_sequence(id) BETWEEN $r->[0] AND $r->[1] AND at > '$done'::timestamptz + interval '1 s'"
			) eq 't';
		});
}
q1($a, 'UPDATE ctl SET stop = true');
for my $w (@gen)
{
	($rc, $out, $err) = finish_worker($w);
	is($rc, 0, 'reload: a session ran through the reloads') or diag $err;
}
is(q1($a, 'SELECT count(*) - count(DISTINCT id) FROM t'), '0', 'reload: no ID was made twice');
my $r = "(VALUES (-1, '-infinity'::timestamptz, '-infinity'::timestamptz, 0, 999), "
  . join(', ', @reloads) . ') r (k, at, done, lo, hi)';
my ($after_bad, $before_bad, $long_new) = split /\|/, q1($a, qq{
	WITH r AS (SELECT * FROM $r),
	w AS (SELECT r.*, lead(at, 1, 'infinity') OVER (ORDER BY k) AS next_at,
	             lag(lo, 1, lo) OVER (ORDER BY k) AS plo, lag(hi, 1, hi) OVER (ORDER BY k) AS phi
	      FROM r)
	SELECT
		(SELECT count(*) FROM t JOIN w ON t.at > w.done + interval '1 s' AND t.at < w.next_at
		 WHERE NOT sno_sequence(t.id) BETWEEN w.lo AND w.hi),
		(SELECT count(*) FROM t JOIN w ON t.at >= w.at AND t.at < w.next_at
		 WHERE NOT (sno_sequence(t.id) BETWEEN w.lo AND w.hi
		            OR sno_sequence(t.id) BETWEEN w.plo AND w.phi)),
		(SELECT count(DISTINCT w.k) FROM t JOIN w ON t.at > w.done + interval '1 s' AND t.at < w.next_at
		 WHERE t.s <= 2 AND w.k >= 0 AND sno_sequence(t.id) BETWEEN w.lo AND w.hi)});
is($after_bad, '0', 'reload: IDs made a second after a reload are in its range');
is($before_bad, '0', "reload: IDs made around a reload are in its range or the one before");
is($long_new, '3', 'reload: the long statements took each new range in their course');
is( q1($a, qq{
	SELECT count(*) FROM t
	WHERE NOT EXISTS (SELECT FROM $r WHERE sno_sequence(t.id) BETWEEN r.lo AND r.hi)}),
	'0', 'reload: no sequence outside the ranges set');
note q1($a, q{SELECT * FROM sno_snapshot()});
$a->stop;

# 6. A range moved within one 4 ms unit.  The server's clock is frozen, so
# every ID is in one unit until its range is used up (then the next unit is
# borrowed, see 005).  Two IDs in 0..3, then the range moves up to
# 100..103: the next ID of the unit is 100, not 2 (the word's sequence + 1,
# outside the range); then down to 0..3 again: the unit's sequences only
# grow, so it is used up and the next ID is in the next unit, at 0.
SKIP:
{
	skip 'libfaketime is not installed', 6 unless faketime_lib();
	my $f = faked_node('shard_frozen', 'uid.sno_sequence_min = 0', 'uid.sno_sequence_max = 3');
	my $frozen = q1($f,
		q{SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '1 minute', 'YYYY-MM-DD HH24:MI:SS')});
	set_clock($f, $frozen);
	q1($f, 'CREATE TABLE t (id sno NOT NULL, n int NOT NULL)');
	q1($f, 'INSERT INTO t SELECT sno_new(), g FROM generate_series(1, 2) g');
	reload_with($f, 'uid.sno_sequence_min' => 100, 'uid.sno_sequence_max' => 103);
	q1($f, 'INSERT INTO t SELECT sno_new(), 2 + g FROM generate_series(1, 2) g');
	reload_with($f, 'uid.sno_sequence_min' => 0, 'uid.sno_sequence_max' => 3);
	q1($f, 'INSERT INTO t SELECT sno_new(), 4 + g FROM generate_series(1, 2) g');
	my @rows = split /\n/, q1($f, q{
		SELECT n, sno_sequence(id), sno_timestamp(id) = min(sno_timestamp(id)) OVER () AS first_unit
		FROM t ORDER BY n});
	is($rows[0] . ' ' . $rows[1], '1|0|t 2|1|t', 'frozen unit: two IDs at 0 and 1');
	is($rows[2], '3|100|t', 'moved up within the unit: the next ID is at the new lower bound 100');
	is($rows[3], '4|101|t', 'and the one after it at 101');
	is($rows[4], '5|0|f', 'moved back down: the unit is used up, the next ID is in the next unit at 0');
	is(q1($f, 'SELECT count(*) - count(DISTINCT id) FROM t'), '0', 'frozen unit: no ID made twice');
	is(q1($f, 'SELECT count(*) FROM t WHERE sno_tick(id) <> 0'), '0', 'frozen unit: no tick flip');
	set_clock($f, '+0');
	$f->stop;
}

done_testing();
