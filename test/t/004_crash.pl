# A backend killed with SIGKILL while others generate sno and muid IDs:
# after crash recovery generation goes on, and the state survived the
# crash, so no ID repeats, even when the clock is set back across the crash
# (README, guarantees 1 and 3).

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

my $workers = 4;
my $per_batch = 200;

# A fixed medallion, so that muids of different starts differ by timestamp only.
my $node = faked_node('crash', 'restart_after_crash = on',
	"uid.medallion = '1bfc71b112d'");

$node->safe_psql(
	'postgres', q{
	CREATE TABLE t (id sno NOT NULL, s int NOT NULL, n int NOT NULL,
					phase int NOT NULL, m muid NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
	CREATE UNIQUE INDEX t_m ON t (m);

	-- Many small committed batches, so that what was committed before a
	-- crash survives it; loops forever when batches is null.
	CREATE PROCEDURE gen(sess int, ph int, per int, batches int)
	LANGUAGE plpgsql AS $$
	DECLARE
		i int := 0;
	BEGIN
		WHILE batches IS NULL OR i < batches LOOP
			INSERT INTO t SELECT sno_new(), sess, i * per + g, ph, muid_new()
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

# Workers of a phase have session numbers phase * 10 + 1, 2, ...
sub start_workers
{
	my ($phase, $batches) = @_;
	$batches = defined $batches ? $batches : 'NULL';
	return [
		map {
			my $s = $phase * 10 + $_;
			start_worker($node, "SET application_name = 'gen$s'",
				"CALL gen($s, $phase, $per_batch, $batches)")
		} 1 .. $workers
	];
}

# Lets the workers of a phase run at least $secs seconds and commit a few
# batches each, then kills one of their backends with SIGKILL, waits for the
# server to crash-restart and returns once it takes connections again.
sub crash_during
{
	my ($phase, $secs) = @_;
	my $w = start_workers($phase);
	my $start = time();

	ok( poll_while_running(
			$node, qq{
			SELECT count(*) = $workers FROM (
				SELECT s FROM t WHERE phase = $phase
				GROUP BY s HAVING count(*) >= 5 * $per_batch
			) x}, $w),
		"phase $phase: every worker commits batches");
	usleep(1_000_000 * ($secs - (time() - $start))) if time() - $start < $secs;

	my $victim = query(
		"SELECT pid FROM pg_stat_activity WHERE application_name = 'gen"
		  . ($phase * 10 + 1) . "'");
	like($victim, qr/^\d+$/, "phase $phase: found a generating backend");
	my $log_offset = -s $node->logfile;
	ok(kill('KILL', $victim), "phase $phase: killed backend $victim");

	$node->wait_for_log(qr/all server processes terminated; reinitializing/,
		$log_offset);
	ok(wait_for_primary($node),
		"phase $phase: the server recovered from the crash");

	# Every worker lost its connection in the crash.
	for my $i (1 .. $workers)
	{
		my ($rc) = finish_worker($w->[ $i - 1 ]);
		isnt($rc, 0, "phase $phase: worker $i was cut off by the crash");
	}
	return;
}

# Runs the workers of a phase to completion.
sub generate
{
	my ($phase, $batches) = @_;
	my $w = start_workers($phase, $batches);
	for my $i (1 .. $workers)
	{
		my ($rc, $out, $err) = finish_worker($w->[ $i - 1 ]);
		is($rc, 0, "phase $phase: worker $i generated after the crash")
		  or diag $err;
	}
	return;
}

# muid has one timeline: every muid of a phase is above every earlier one.
sub muid_above_earlier
{
	my ($phase) = @_;
	return query(
		qq{SELECT (SELECT m FROM t WHERE phase = $phase ORDER BY m LIMIT 1)
				> (SELECT m FROM t WHERE phase < $phase ORDER BY m DESC LIMIT 1)});
}

sub flips
{
	return query("SELECT tick_flips FROM uid_stats() WHERE type = 'sno'");
}

# The first ID made in a phase is above every ID made before it on the
# same timeline.
sub above_earlier
{
	my ($phase) = @_;
	return query(
		qq{SELECT count(*) FROM (VALUES (0), (1)) v(k)
		   WHERE (SELECT id FROM t WHERE phase = $phase AND sno_tick(id) = k
				  ORDER BY id LIMIT 1)
			  <= (SELECT id FROM t WHERE phase < $phase AND sno_tick(id) = k
				  ORDER BY id DESC LIMIT 1)});
}

# Crash 1, at a steady clock: the IDs made after it continue the same
# timeline above every ID made before it.
crash_during(0, 1);
my $flips0 = flips();
generate(1, 20);
is(flips(), $flips0, 'phase 1: no tick flip after a crash at a steady clock');
is(query('SELECT count(DISTINCT sno_tick(id)) FROM t WHERE phase = 1'),
	'1', 'phase 1: one timeline');
is(above_earlier(1), '0',
	'phase 1: the IDs made after the crash are above those made before it');
is(muid_above_earlier(1), 't',
	'phase 1: the muids made after the crash are above those made before it');

# Crash 2, then the clock set back to 6 s before the last ID committed
# before the crash, before anything is generated: the surviving high-water
# mark is ahead of the clock, so generation flips to the other timeline.
# Had the state been lost, the IDs would repeat those made in the last
# seconds before the crash, which the generators were busy making for 8 s.
# (The step is measured from that ID, not from now, so that a slow crash
# recovery does not leave the clock past it.)
crash_during(2, 8);
my ($last2, $since) = split /\|/, query(
	'SELECT max(sno_timestamp(id)), extract(epoch FROM clock_timestamp() - max(sno_timestamp(id))) FROM t');
my $back = -(int($since) + 6);
note "crash 2: the last ID was made ${since}s ago; the clock steps back ${back}s";
set_clock($node, $back);
check_clock_offset($node, $back, "the server clock is $back s off real time");
is(query("SELECT clock_timestamp() < '$last2'"),
	't', 'the clock is behind the last ID committed before crash 2');
my $flips2 = flips();
generate(3, 20);
cmp_ok(flips(), '>', $flips2, 'phase 3: the tick bit flipped');
is( query(
		"SELECT count(*) > 0 FROM t WHERE phase = 3 AND sno_timestamp(id) < '$last2'"),
	't',
	'phase 3: IDs are dated within the time covered before the crash');
is(above_earlier(3), '0',
	'phase 3: the IDs are above the earlier IDs of their timeline');
is(muid_above_earlier(3), 't',
	'phase 3: with the clock behind, the muids are still above every earlier one');

check_ids($node, 's');
is(query('SELECT count(DISTINCT m) = count(*) FROM t'), 't', 'no muid repeats');
is( query(
		'SELECT count(*) FROM (SELECT m <= lag(m) OVER (PARTITION BY s ORDER BY n) AS bad FROM t) x WHERE bad'
	),
	'0',
	"each session's muids are strictly increasing");

$node->stop;

done_testing();
