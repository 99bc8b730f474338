# sno back-fill (issue 17): sno_new_at(meta, time) makes IDs dated at a
# given time that never equal another ID of the server: not the live IDs
# made at that time (back-fill after the clock is refused), not each other when
# several sessions back-fill the same instant at once, not after a restart
# or a crash.  More IDs than a unit's back-fill range holds are refused,
# never repeated; two sessions back-fill two stretches of time at once.
#
# The back-fill IDs carry the live IDs' metabyte and partition, so only
# their sequences (the back-fill range, clear of the live range) keep them
# apart: a back-fill that drew from the live range would repeat live IDs.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $node = uid_node(
	'backfill',
	conf => [
		'uid.sno_sequence_max = 65279', 'uid.sno_backfill_min = 65280',
		'uid.sno_backfill_max = 65535', 'restart_after_crash = on'
	]);
sub q1 { return $node->safe_psql('postgres', $_[0]); }

q1(q{
	CREATE TABLE live (id sno NOT NULL, at timestamptz NOT NULL);
	CREATE TABLE bf (id sno NOT NULL, s int NOT NULL, n int NOT NULL, part text NOT NULL);
	CREATE TABLE outcome (s int, made int, refused int, other text);
});

# 1. Two sessions back-fill two stretches of time at once, each in time
# order (a port of two tables): no call is refused, no ID repeats, and each
# session's IDs rise with their times.
run_released(
	$node, 2,
	sub {
		my $from = $_[0] == 1 ? '2015-01-01' : '2016-01-01';
		"INSERT INTO bf SELECT sno_new_at(3, '$from 00:00:00+00'::timestamptz + g * interval '1 ms'), $_[0], g, 'streams' FROM generate_series(1, 5000) g";
	},
	what => 'two stretches:');
is( q1(q{SELECT count(*), count(DISTINCT id) FROM bf WHERE part = 'streams'}),
	'10000|10000', 'two stretches: 10,000 distinct IDs');
is( q1(q{
	SELECT count(*) FROM (
		SELECT id <= lag(id) OVER (PARTITION BY s ORDER BY n) AS bad FROM bf WHERE part = 'streams') x
	WHERE bad}),
	'0', "two stretches: each session's IDs rise");
is( q1(q{
	SELECT count(*) FROM bf
	WHERE part = 'streams' AND (sno_tick(id) <> 0 OR sno_meta(id) <> 3 OR sno_partition(id) <> 7
	       OR sno_sequence(id) NOT BETWEEN 65280 AND 65535
	       OR sno_timestamp(id) <> sno_timestamp(sno_from_parts(
	             (CASE s WHEN 1 THEN '2015-01-01' ELSE '2016-01-01' END)::timestamptz + n * interval '1 ms',
	             0, 0, 0)))}),
	'0', 'two stretches: tick bit 0, the metabyte, the partition, a back-fill sequence, the time floored to 4 ms');

# 2. Live IDs, then several sessions back-fill one of their instants at
# once: none equals a live ID or another back-filled one.
q1(q{INSERT INTO live SELECT sno_new(3), clock_timestamp() FROM generate_series(1, 100000)});
my ($x, $y) = split /\n/, q1(q{
	SELECT u FROM (SELECT sno_timestamp(id) AS u, count(*) AS c FROM live GROUP BY 1) s
	WHERE c >= 50 ORDER BY u LIMIT 2});
ok(defined $y, 'live IDs fill several units') or BAIL_OUT('no busy units');
note "instants: $x, $y";
run_released(
	$node, 4,
	sub {
		"INSERT INTO bf SELECT sno_new_at(3, '$x'), $_[0], g, 'instant' FROM generate_series(1, 60) g";
	},
	what => 'one instant:');
is( q1(q{SELECT count(*), count(DISTINCT id) FROM bf WHERE part = 'instant'}),
	'240|240', 'one instant: 240 distinct IDs from 4 sessions');
is( q1(qq{SELECT count(*) FROM bf WHERE part = 'instant' AND sno_timestamp(id) <> '$x'}),
	'0', 'one instant: all dated at it');
is(q1(q{SELECT count(*) FROM bf JOIN live USING (id)}), '0', 'one instant: none equals a live ID');
# not vacuous: the live IDs of that instant differ from the back-filled ones
# in their sequence alone
is( q1(qq{
	SELECT count(*) >= 50 AND bool_and(sno_tick(id) = 0 AND sno_meta(id) = 3 AND sno_partition(id) = 7)
	FROM live WHERE sno_timestamp(id) = '$x'}),
	't', 'one instant: live IDs of the same time, tick, metabyte and partition exist');

# 3. More than the unit holds: 4 sessions ask 80 IDs each of the next busy
# instant, 320 for a range of 256: exactly 256 are made, the others are
# refused (54000), none is repeated.
run_released(
	$node, 4,
	sub {
		qq{DO \$\$
		DECLARE made int := 0; refused int := 0; other text;
		BEGIN
			FOR i IN 1 .. 80 LOOP
				BEGIN
					INSERT INTO bf VALUES (sno_new_at(3, '$y'), $_[0], i, 'full');
					made := made + 1;
				EXCEPTION WHEN program_limit_exceeded THEN
					refused := refused + 1;
				WHEN OTHERS THEN
					other := SQLSTATE || ': ' || SQLERRM;
				END;
			END LOOP;
			INSERT INTO outcome VALUES ($_[0], made, refused, other);
		END \$\$};
	},
	what => 'overfull:');
is(q1(q{SELECT sum(made), sum(refused), count(other) FROM outcome}),
	'256|64|0', 'overfull: 256 made, 64 refused as used up, no other error');
is( q1(qq{SELECT count(*), count(DISTINCT id), min(sno_sequence(id)), max(sno_sequence(id))
	FROM bf WHERE part = 'full'}),
	'256|256|65280|65535', 'overfull: the 256 are the whole back-fill range, each once');
is(q1(q{SELECT count(*) FROM bf JOIN live USING (id)}), '0', 'overfull: none equals a live ID');

# 4. Back-fill ahead of the clock is refused (22008) and moves no lane;
# live IDs made at a time, then back-filled at that time once it passed:
# none equal.
my $lanes_before = q1(q{SELECT backfill_lane0_time, backfill_lane1_time FROM sno_snapshot()});
is(attempt($node, "SELECT sno_new_at(3, clock_timestamp() + interval '3 s')")->{sqlstate},
	'22008', 'ahead: back-fill after the clock is refused');
is(q1(q{SELECT backfill_lane0_time, backfill_lane1_time FROM sno_snapshot()}),
	$lanes_before, 'ahead: the refused call moved no lane');
# The time of the latest live IDs (a loop that waits for a chosen unit may
# miss it on a busy machine: the time is taken from the IDs instead).
q1(q{INSERT INTO live SELECT sno_new(3), clock_timestamp() FROM generate_series(1, 1000)});
my $f = q1(q{SELECT max(sno_timestamp(id)) FROM live});
run_released(
	$node, 2,
	sub {
		"INSERT INTO bf SELECT sno_new_at(3, '$f'), $_[0], g, 'ahead' FROM generate_series(1, 100) g";
	},
	what => 'ahead:');
is( q1(qq{SELECT count(*) > 0 FROM live WHERE sno_timestamp(id) = '$f'}),
	't', 'ahead: live IDs were made at the back-filled time');
is(q1(q{SELECT count(*) FROM bf JOIN live USING (id)}), '0', 'ahead: none equals a live ID');
is(q1(q{SELECT count(*) - count(DISTINCT id) FROM bf}), '0', 'no back-filled ID repeats another');

# 5. The lanes are in the state file: after a restart and after a crash, a
# used-up unit stays used up, a passed time stays passed, and the lanes go
# on where they were.  First the rest of the unit ahead (256 in all).
q1(qq{INSERT INTO bf SELECT sno_new_at(3, '$f'), 9, g, 'fill' FROM generate_series(1, 56) g});
is(attempt($node, "SELECT sno_new_at(3, '$f')")->{sqlstate},
	'54000', 'the unit ahead is used up');
my $lanes_sql = q{SELECT backfill_lane0_time, backfill_lane0_sequence, backfill_lane1_time,
	backfill_lane1_sequence FROM sno_snapshot()};
my $lanes = q1($lanes_sql);
my $k = 0;
for my $how ('restart', 'crash')
{
	if ($how eq 'restart')
	{
		$node->restart;
	}
	else
	{
		my $victim = $node->background_psql('postgres');
		my $vpid = $victim->query_safe('SELECT pg_backend_pid()');
		kill 'KILL', $vpid;
		eval { $victim->quit };
		wait_for_primary($node);
	}
	is(q1($lanes_sql), $lanes, "$how: the lanes are as they were");
	is(attempt($node, "SELECT sno_new_at(3, '$f')")->{sqlstate},
		'54000', "$how: the used-up unit stays used up");
	is(attempt($node, "SELECT sno_new_at(3, '$x')")->{sqlstate},
		'55000', "$how: a time both lanes passed stays refused");
	$k++;
	q1(qq{INSERT INTO bf SELECT sno_new_at(3, '$f'::timestamptz + interval '$k s' / 250), 9, g, '$how'
		  FROM generate_series(1, 20) g});
	is(q1(q{SELECT count(*) - count(DISTINCT id) FROM bf}), '0', "$how: back-fill goes on, no repeat");
	$lanes = q1($lanes_sql);
}
is(q1(q{SELECT count(*) FROM bf JOIN live USING (id)}), '0', 'in all, no back-filled ID equals a live one');
note 'sno_snapshot: ', q1(q{SELECT * FROM sno_snapshot()});

$node->stop;
done_testing();
