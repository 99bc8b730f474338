# muid under a clock that goes back: the transaction timestamp is
# max(clock, last + 1) across the server, so while the clock is behind,
# transactions borrow microseconds ahead of it and never go back; the last
# timestamp is in the state file, so neither does a restart with the clock
# set back (README guarantees 1, 3 and 4, muid rules).

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

# A fixed medallion: a medallion drawn at each start would keep the IDs of
# different starts apart by itself and hide a lost state.
my $node = faked_node('muid_clock', "uid.medallion = '1bfc71b112d'");
my $workers = 3;

sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

query(
	q{
	CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL);
	INSERT INTO ctl VALUES (0, false);
	CREATE TABLE t (id muid NOT NULL, phase int NOT NULL, s int NOT NULL,
					x int NOT NULL, n int NOT NULL,
					at timestamptz NOT NULL DEFAULT clock_timestamp());
	-- Short transactions of 3 IDs each until ctl says stop, tagged with the
	-- phase current when the transaction began; at is the server's clock
	-- just after the row's ID was made (a column default is computed after
	-- the values inserted).
	CREATE PROCEDURE gen(sess int) LANGUAGE plpgsql AS $$
	DECLARE
		i int := 0;
		ph int;
	BEGIN
		SET synchronous_commit = off;
		LOOP
			SELECT phase INTO ph FROM ctl WHERE NOT stop;
			EXIT WHEN NOT FOUND;
			i := i + 1;
			INSERT INTO t (id, phase, s, x, n)
			SELECT muid_new(), ph, sess, i, i * 3 + g
			FROM generate_series(1, 3) g;
			COMMIT;
		END LOOP;
	END $$;
});

sub count_in_phase
{
	return query("SELECT count(DISTINCT s) FROM t WHERE phase = $_[0]");
}

sub regressions
{
	return type_stats($node, 'muid')->{regressions};
}

# The latest timestamp issued so far, as Unix seconds, and how far it is
# ahead of the server's clock.
sub high_water
{
	return split /\|/, query(
		'SELECT extract(epoch FROM max(muid_timestamp(id))),
				extract(epoch FROM max(muid_timestamp(id)) - clock_timestamp()) FROM t');
}

check_clock_offset($node, 0, 'the server clock starts at real time', 2);
my @w = map { start_worker($node, "CALL gen($_)") } 1 .. $workers;

# Transactions of the phase whose timestamp is more than a millisecond
# ahead of the server's clock when their IDs were made: borrowed ahead.
# A generator that waited for the clock instead would take the clock's
# time after the wait (at most a few microseconds past it, where many
# transactions meet in one), never a millisecond ahead.
sub dated_ahead
{
	return query(
		"SELECT count(DISTINCT (s, x)) FROM t WHERE phase = $_[0]
		   AND muid_timestamp(id) > at + interval '1 ms'");
}

# Phase 0: real time for 6 s, so that a clock 5 s back runs through time
# for which transactions took timestamps.  (5 s rather than 1 or 2: the
# clock must still be behind them once the step has reached every backend
# and phase 1 has begun, on a busy machine too.)
ok( poll_while_running($node, "SELECT count(DISTINCT s) = $workers FROM t",
		\@w),
	'phase 0: every worker generates');
usleep(6_000_000);
is(regressions(), '0', 'phase 0: no regression while the clock is steady');

my %stepped;    # the real time each phase began
for my $step ([ 1, -5 ], [ 2, -3600 ], [ 3, '+0' ])
{
	my ($phase, $offset) = @$step;
	my ($hw) = high_water();
	my $before = regressions();
	# set_clock returns once every backend has taken the step.
	set_clock($node, $offset);
	query("UPDATE ctl SET phase = $phase");
	my $stepped = $stepped{$phase} = time();
	# Generation never waits for the clock: every worker goes on making
	# transactions however far back it is (a stall shows as the poll's
	# timeout, minutes).
	ok( poll_while_running(
			$node,
			"SELECT count(*) = $workers FROM (SELECT s FROM t WHERE phase = $phase
			   GROUP BY s HAVING count(DISTINCT x) >= 20) x",
			\@w),
		"phase $phase ($offset s): every worker keeps generating");
	my $made = query("SELECT count(DISTINCT (s, x)) FROM t WHERE phase = $phase");
	note sprintf('phase %d: %d transactions in %.1f s', $phase, $made, time() - $stepped);
	# With the clock behind, the timestamps were borrowed ahead of it rather
	# than waited for.
	if ($offset ne '+0')
	{
		cmp_ok(dated_ahead($phase), '>', 0,
			"phase $phase: transactions were dated ahead of the clock, not made to wait for it");
	}
	is( query(
			"SELECT count(*) FROM t WHERE phase = $phase
			   AND extract(epoch FROM muid_timestamp(id)) <= $hw"),
		'0',
		"phase $phase: every timestamp is above the last one before the step");
	if ($offset ne '+0')
	{
		cmp_ok(regressions(), '>', $before,
			"phase $phase: the clock regression was counted");
	}
}

query('UPDATE ctl SET stop = true');
for my $i (1 .. $workers)
{
	my ($rc, $out, $err) = finish_worker($w[ $i - 1 ]);
	is($rc, 0, "worker $i ran through every step without an error")
	  or diag $err;
}

# While the clock was an hour back, timestamps were borrowed ahead of it by a
# microsecond each: none is dated back to that clock.  (Against the real time
# the phase began, not the time of this query: on a busy machine phase 3 and
# the workers' end can take more than a minute.)
is( query(
		"SELECT count(*) FROM t WHERE phase = 2
		   AND muid_timestamp(id) < to_timestamp($stepped{2} - 60)"),
	'0',
	'phase 2: no timestamp is dated back an hour');

# Restart with the clock 60 s back: the state file keeps the last timestamp.
# (A minute leaves room for a slow machine: the stop, the start and the
# checks below take a few seconds, and the clock must still be behind.)
my $last = query('SELECT muid_new()');
restart_behind($node, -60, sub { (high_water())[1] }, 30, 'restart', 2);
my $before = regressions();
query(
	q{DO $$
	BEGIN
		FOR i IN 1..2000 LOOP
			INSERT INTO t (id, phase, s, x, n)
			SELECT muid_new(), 4, 100, i, i * 3 + g FROM generate_series(1, 3) g;
			COMMIT;
		END LOOP;
	END $$});
is(query("SELECT count(*) FROM t WHERE phase = 4 AND id <= '$last'"),
	'0', 'restart: every new muid is above the last one made before');
cmp_ok(dated_ahead(4), '>', 0,
	'restart: transactions were dated ahead of the clock, not made to wait for it');
cmp_ok(regressions(), '>', $before, 'restart: the clock regression was counted');

my $total = check_ids_by($node, 's');
is(query('SELECT count(DISTINCT muid_timestamp(id)) = count(DISTINCT (s, x)) FROM t'),
	't', 'over every phase and the restart, each transaction has its own timestamp');
is(query('SELECT count(DISTINCT phase) FROM t'), '5', 'IDs from every phase');
note "$total IDs; uid_stats: ", query("SELECT * FROM uid_stats() WHERE type = 'muid'");

$node->stop;

done_testing();
