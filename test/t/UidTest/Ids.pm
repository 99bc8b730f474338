# test/t/UidTest/Ids.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): the checks every type's IDs get:
# no duplicate and each session's IDs in order, uid_stats' counters, and for
# a single-timeline type no ID ahead of the clock, the capacity, sessions
# that overlapped.

package UidTest::Ids;

use strict;
use warnings;

use Exporter 'import';
use Test::More;

our @EXPORT = qw(check_ids_by check_ids check_ids_wrap type_stats
  check_not_ahead check_capacity check_overlap check_capacity_stats);

# The generator guarantees over a table of IDs t (id, n int, and the
# session columns named in $sessions): no duplicate, and each session's IDs
# strictly increasing in the type's btree order (guarantees 1 and 3).
# $timeline is an SQL expression of id that names the timeline within which
# the order must hold (sno: sno_tick(id)), or undef for a type with a single
# timeline, whose IDs must rise across every clock step.
sub check_ids_by
{
	my ($node, $sessions, $timeline) = @_;
	my $partition = defined $timeline ? "$sessions, $timeline" : $sessions;
	my $scope = defined $timeline ? ' on each timeline' : '';
	my ($count, $distinct) = split /\|/,
	  $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t');

	is($distinct, $count, "no duplicate among $count IDs");
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FROM (
			SELECT id <= lag(id) OVER (PARTITION BY $partition ORDER BY n) AS bad
			FROM t
		) x WHERE bad}),
		'0',
		"each session's IDs are strictly increasing$scope");
	return $count;
}

# check_ids_by for sno, whose IDs rise on each of its two timelines.
sub check_ids
{
	my ($node, $sessions) = @_;
	return check_ids_by($node, $sessions, 'sno_tick(id)');
}

# The generator guarantees for a type whose sequence runs on across its
# ticks (uid60): no duplicate, and in each session the time (name's
# timestamp function) never goes back.  Its IDs rise too, but for where the
# server's sequence wrapped from its largest value to 0 within a tick: a
# session sees that at most once a tick, and only as a smaller sequence in
# the same tick.
sub check_ids_wrap
{
	my ($node, $name, $sessions) = @_;
	my ($count, $distinct) = split /\|/,
	  $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t');

	is($distinct, $count, "no duplicate among $count IDs");
	my ($back, $bad_down, $downs) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FILTER (WHERE ts < prev_ts),
			   count(*) FILTER (WHERE id <= prev AND (ts <> prev_ts OR seq >= prev_seq)),
			   coalesce(max(downs), 0)
		FROM (
			SELECT *,
				   count(*) FILTER (WHERE id <= prev) OVER (PARTITION BY $sessions, ts) AS downs
			FROM (
				SELECT t.*, lag(id) OVER w AS prev, ${name}_timestamp(id) AS ts,
					   lag(${name}_timestamp(id)) OVER w AS prev_ts,
					   ${name}_sequence(id) AS seq, lag(${name}_sequence(id)) OVER w AS prev_seq
				FROM t WINDOW w AS (PARTITION BY $sessions ORDER BY n)
			) x
		) y});
	is($back, '0', "each session's IDs never go back in time");
	is($bad_down, '0',
		"each session's IDs rise, but where the sequence wrapped within a tick");
	cmp_ok($downs, '<=', 1, 'and a session saw the sequence wrap at most once a tick');
	return $count;
}

# The type's row of uid_stats(), as a hash: issued, waits (overflow_waits),
# wait_us (overflow_wait_us), regressions (clock_regressions) and flips
# (tick_flips).
sub type_stats
{
	my ($node, $type) = @_;
	my %s;

	@s{qw(issued waits wait_us regressions flips)} = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT issued, overflow_waits, overflow_wait_us, clock_regressions,
			   tick_flips
		FROM uid_stats() WHERE type = '$type'});
	return \%s;
}


# The helpers below test a type with a single timeline and millisecond
# ticks (snowflake_si, revts8), described by a hash:
#   name    the type; its generator is name_new(), its time name_timestamp()
#   seq     the accessor of its sequence within a millisecond
#   per_ms  how many IDs one millisecond holds
# clock_jump_test also takes a type with other ticks (uid60): then tick is
# their length in seconds and per_tick how many IDs one holds, and wraps
# => 1 says that its sequence is not reset each tick, so that it wraps
# within a tick and IDs of one tick sort by sequence, not by when they were
# made (see check_ids_wrap).
# Its IDs are in a table t (id, s int, n int, ...): s the session, n the
# ID's place in it.

# No ID is dated ahead of the server's clock: at real time the generator
# waited out full ticks instead of borrowing ahead.  Call it as soon as the
# IDs are made, before the clock moves on much.
sub check_not_ahead
{
	my ($node, $T) = @_;
	my $unit = ($T->{tick} // 0.001) == 1 ? 'seconds' : 'milliseconds';

	is( $node->safe_psql(
			'postgres',
			"SELECT $T->{name}_timestamp(id) <= clock_timestamp() FROM t ORDER BY id DESC LIMIT 1"
		),
		't',
		"no ID is dated ahead of the clock: full $unit were waited out");
	return;
}

# The capacity (guarantee 5): never more than per_ms IDs in one
# millisecond, from all the backends together, so $total IDs span at least
# $total / per_ms milliseconds; the sequence restarts at 0 each millisecond
# and runs on without a gap.  (With one generator id, distinct IDs of one
# millisecond have distinct sequences.)
sub check_capacity
{
	my ($node, $T, $total) = @_;
	my ($ms, $fullest, $bad_start, $gaps) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*), max(c),
			   count(*) FILTER (WHERE lo <> 0),
			   count(*) FILTER (WHERE hi <> c - 1)
		FROM (
			SELECT count(*) AS c, min($T->{seq}(id)) AS lo,
				   max($T->{seq}(id)) AS hi
			FROM t GROUP BY $T->{name}_timestamp(id)
		) x});

	note "$ms milliseconds used, the fullest has $fullest IDs";
	cmp_ok($fullest, '<=', $T->{per_ms},
		"at most $T->{per_ms} IDs in any millisecond");
	cmp_ok($ms, '>=', $total / $T->{per_ms},
		"the IDs span at least total / $T->{per_ms} milliseconds");
	is($bad_start, '0', "each millisecond's $T->{seq} starts at 0");
	is($gaps, '0', "each millisecond's $T->{seq} values have no gap");
	return;
}

# The sessions of t really overlapped: every session's first ID is below
# every session's last one.
sub check_overlap
{
	my ($node) = @_;

	is( $node->safe_psql(
			'postgres', q{
		WITH lo AS (SELECT DISTINCT ON (s) id FROM t ORDER BY s, id),
			 hi AS (SELECT DISTINCT ON (s) id FROM t ORDER BY s, id DESC)
		SELECT bool_and(lo.id < hi.id) FROM lo, hi}),
		't',
		'the sessions generated concurrently');
	return;
}


# After $total IDs of a capacity-bound single-timeline type from sessions
# that asked for more than its capacity: the counters show the waits, and
# no call was mistaken for a clock regression or a tick flip.  Whether
# sessions that insert every ID into a table ask for more than a fast
# format's capacity depends on the machine's speed; with $burst, one
# session first asks for that many IDs in one statement that keeps none
# of them, many times faster than inserting them, so that the capacity is
# hit on a busy or slow machine too.
sub check_capacity_stats
{
	my ($node, $type, $total, $burst) = @_;

	if ($burst)
	{
		is( $node->safe_psql(
				'postgres',
				"SELECT count(DISTINCT id) FROM (SELECT ${type}_new() AS id FROM generate_series(1, $burst)) x"
			),
			$burst,
			"a burst of $burst IDs in one statement, all distinct");
		$total += $burst;
	}
	note 'uid_stats: ',
	  $node->safe_psql('postgres', "SELECT * FROM uid_stats() WHERE type = '$type'");
	my $stats = type_stats($node, $type);
	cmp_ok($stats->{issued}, '>=', $total, 'uid_stats counts the IDs issued');
	cmp_ok($stats->{waits}, '>', 0,
		'full ticks were waited out (overflow_waits)');
	cmp_ok($stats->{wait_us}, '>', 0, 'and the time waiting was counted');
	# A backend whose clock reading was overtaken by another backend's, or
	# that waited for the next tick, must not pass for a clock that went
	# back.
	is($stats->{regressions}, '0', 'no clock regression');
	is($stats->{flips}, '0', "no tick flip: $type has one timeline");
	return;
}

1;
