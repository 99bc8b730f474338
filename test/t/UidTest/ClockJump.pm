# test/t/UidTest/ClockJump.pm, a part of uid's TAP harness
# (test/t/UidTest.pm exports what it exports to every test): the
# clock-regression test of a single-timeline type (clock_jump_test; TAP 008,
# 010, 015) and the worker sessions it runs in phases between clock steps
# (start_generator ... stop_generator; 002 uses them alone).  The hash $T
# that describes the type is in test/t/UidTest/Ids.pm, above
# check_not_ahead.

package UidTest::ClockJump;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest::Clock qw(set_clock check_clock_offset restart_behind);
use UidTest::Ids qw(type_stats check_ids_by check_ids_wrap);
use UidTest::Session qw(start_worker finish_worker poll_while_running run_released);

our @EXPORT = qw(clock_jump_test start_generator wait_for_phase step_phase
  timed_batch stop_generator);

# The clock-regression test of a single-timeline type (doc/design.md, the
# regression policy of snowflake_si, revts8 and uid60), on a node made by faked_node.  Worker sessions
# generate committed batches, in phases between which the server's clock
# steps back 5 s, then an hour, then forward to real time again (the
# workers pause while a step reaches every backend); then the server
# restarts with its clock 20 s back.  The generator must hold at the
# high-water tick and, when its per_ms (per_tick) IDs are used up, borrow
# the next one at the pace of real time (a tick per tick, src/clock.c); it
# never goes back.  So: no duplicate, every session's IDs rise across every
# step and the restart (for a type that wraps, their time never goes back),
# no ID is dated back to the clock, none runs ahead of real time by more
# than a few ticks, generation never stalls, and the regressions are
# counted (guarantees 1, 3 and 4).
#
# What shows that used-up ticks were borrowed is counted, never timed (a
# busy machine must pass): with the clock behind, more IDs than one tick
# holds were dated ahead of the clock when they were made, which a
# generator that waited for the clock could not do (it has at most the
# rest of the mark's tick to give before the clock).  What shows the pace
# is a bound that a slow machine only makes easier: the IDs' dates stay
# within a few ticks of the real time they were made at, and, with the
# clock behind after the restart, three sessions asking for three seconds
# of the format's capacity at once get IDs that span no more than the
# real time they took and two ticks.  With outpaces => 1 it also notes how
# fast the server issued IDs while the clock was behind: a note, not a
# check.
#
# While the clock is behind, every ID the sessions ask for beyond the
# mark's tick is borrowed, at the pace of real time: workers that never
# stopped would keep uid60 at 1024 IDs a second for the whole phase, and
# before the pace they ran its mark minutes ahead of the clock.  So a worker
# commits a quota of batches in each phase after phase 0 and then waits for
# the next phase: what is borrowed does not depend on how long a phase
# lasts on the machine, and a phase with the clock behind stays short.
# The options: workers, per_batch (IDs a committed batch) and probe (IDs of
# the timed batch of each phase), and quota (batches, at least 2; default
# 50), which keep the volume small for uid60; and step, the first step back
# in seconds (default -5; phase 0
# lasts 1 - step seconds, so that the clock stepped back runs through time
# for which IDs were made).  The step is a few seconds, not one or two, so
# that the clock is still behind the IDs once the step has reached every
# backend (set_clock) and the phase has begun; where a busy machine took
# longer than that, the clock goes further back before the phase begins
# (step_phase's behind), and so for the restart (restart_behind).
#
# Returns how many IDs t holds.  The node is left running with its clock
# 20 s back (or further); the caller checks the type's own fields and
# stops it.
sub clock_jump_test
{
	my ($node, $T, %opt) = @_;
	my $step = $opt{step} // -5;
	my $c = start_generator($node, $T, quota => 50, %opt);
	my $workers = $c->{workers};
	my $tick = $c->{tick};
	my $unit = $c->{unit};
	my $started = $c->{started};

	# Phase 0: real time, for 1 - step seconds, so that the clock stepped
	# back runs through time for which IDs were made: a generator that
	# followed the clock back would make some of them again.
	ok(wait_for_phase($c, 0), 'phase 0: every worker generates');
	my ($base) = timed_batch($c, 0);
	note "phase 0 batch: $base s";
	my $phase0 = 1 - $step;
	usleep(1_000_000 * ($phase0 - (time() - $started)))
	  if time() - $started < $phase0;
	my $before = type_stats($node, $T->{name});
	is($before->{regressions}, '0',
		'phase 0: no clock regression while the clock is steady');

	# Phase 1: step back, into the time phase 0 covered.
	my ($hw1) = _high_water($c);
	my ($start1, $step1) = step_phase($c, 1, $step, behind => 1);
	ok(wait_for_phase($c, 1), 'phase 1: every worker keeps generating');
	my ($t1, $rate1) = timed_batch($c, 1);
	note sprintf('phase 1 batch: %s s; %.0f IDs/s from every session', $t1, $rate1);
	_kept_real_time($c, 1, $step1, $rate1);
	_dated_ahead($c, 1, 'phase 1', $step1);
	my $after = type_stats($node, $T->{name});
	cmp_ok($after->{regressions}, '>', $before->{regressions},
		'phase 1: the clock regression was counted');
	_held_at_high_water($c, 1, $hw1, $start1);

	# Phase 2: an hour back.  Hold at the high-water mark and borrow ahead;
	# never wait for a clock that is an hour away.
	my $step2 = time();
	my ($hw2) = _high_water($c);
	$before = type_stats($node, $T->{name});
	my $start2 = step_phase($c, 2, -3600);
	ok(wait_for_phase($c, 2), 'phase 2: every worker keeps generating');
	my ($t2, $rate2) = timed_batch($c, 2);
	note sprintf('phase 2 batch: %s s; %.0f IDs/s from every session', $t2, $rate2);
	_kept_real_time($c, 2, -3600, $rate2);
	_dated_ahead($c, 2, 'phase 2', -3600);
	$after = type_stats($node, $T->{name});
	cmp_ok($after->{regressions}, '>', $before->{regressions},
		'phase 2: the clock regression was counted');
	_held_at_high_water($c, 2, $hw2, $start2);
	is( _query(
			$c,
			"SELECT count(*) FROM t WHERE phase = 2 AND $T->{name}_timestamp(id) < to_timestamp($step2 - 60)"
		),
		'0',
		'phase 2: no ID is dated back to the clock, they hold at the high-water mark'
	);

	# Phase 3: back to real time.
	my ($hw3) = _high_water($c);
	step_phase($c, 3, '+0');
	my (undef, $ahead3) = _high_water($c);
	# While the clock was behind, nothing held generation to the format's
	# capacity: the mark may have run ahead of real time.
	note "phase 3: the last ID is $ahead3 s ahead of the clock";
	ok(wait_for_phase($c, 3), 'phase 3: every worker keeps generating');
	my ($t3) = timed_batch($c, 3);
	note "phase 3 batch: $t3 s";
	_above_high_water($c, 3, $hw3);

	stop_generator($c);

	# Guarantee 4 lets each call wait at most one tick, so a batch of probe
	# IDs never takes much longer than it did at real time in phase 0.  That
	# the used-up ticks were borrowed is counted above; this only catches a
	# stall of a step's length (an hour) and is 20 times phase 0's time and
	# half a minute more: a busy machine, or one that gets busy, passes.
	my $bound = 20 * $base + 30;
	for ([ 1, $t1 ], [ 2, $t2 ], [ 3, $t3 ])
	{
		my ($phase, $t) = @$_;
		cmp_ok($t, '<', $bound,
			"phase $phase: $c->{probe} IDs took ${t}s, no stall (phase 0: ${base}s)"
		);
	}

	# Once the clock has passed the high-water mark, IDs follow the clock
	# again (no offset is kept from the borrowing).
	my $past = $tick + 0.01;
	ok( $node->poll_query_until(
			'postgres', qq{
			SELECT clock_timestamp() > $T->{name}_timestamp(id) + interval '$past s'
			FROM t ORDER BY id DESC LIMIT 1}),
		'phase 3: the clock passes the high-water mark');
	is( _query(
			$c,
			"SELECT abs(extract(epoch FROM $T->{name}_timestamp($T->{name}_new()) - clock_timestamp())) < 0.5 + $tick"
		),
		't',
		'phase 3: a new ID is dated at the clock again');

	# Restart with the clock 20 s back: the high-water mark is in the state
	# file, so the new IDs continue above every earlier one, the last issued
	# before the stop included.  (20 s, so that the clock is still well
	# behind that ID after a slow restart, and further back after one
	# slower still.)
	my ($hw4) = _high_water($c);
	my $last = _query($c, "SELECT $T->{name}_new()");
	is( _query(
			$c,
			'SELECT ' . _not_below($c, "'$last'::$T->{name}", "'$hw4'::$T->{name}")),
		't', 'the last ID before the restart is the highest');
	my $regressions = type_stats($node, $T->{name})->{regressions};
	my $offset4 = restart_behind($node, -20, sub { (_high_water($c))[1] },
		5, 'restart');

	my @r = map {
		start_worker($node,
			"INSERT INTO t (id, s, n, phase) SELECT $T->{name}_new(), 200 + $_, g, 4 FROM generate_series(1, $c->{probe}) g"
		  )
	} 1 .. 2;
	for my $i (1 .. 2)
	{
		my ($rc, $out, $err) = finish_worker($r[ $i - 1 ]);
		is($rc, 0, "restart: session $i generated its IDs") or diag $err;
	}
	_held_at_high_water($c, 4, $last, $last, 'restart', 1);
	_dated_ahead($c, 4, 'restart');
	cmp_ok(type_stats($node, $T->{name})->{regressions},
		'>', $regressions, 'restart: the clock regression was counted');

	# The pace of borrowing, under a load above the capacity: with the clock
	# still 20 s behind the mark, three sessions let go at once ask for three
	# seconds of the format's IDs.  Borrowing a tick per tick of real time,
	# the IDs span no more than the real time the sessions took and two
	# ticks (the first borrow and the tick the sessions began in); a slow
	# machine only widens the bound.  A generator that borrowed as fast as
	# the sessions asked spans the three seconds in whatever time the
	# machine takes to make the IDs.
	my $each = int(3 * $c->{per_tick} / $tick / 3) + 1;
	# That the clock stays behind the mark is the precondition: sessions
	# slower than the gap the restart left (a busy machine) overtake it, and
	# then run again with the clock twice as far back, up to twice more.
	_query($c, "CREATE TABLE pace (id $T->{name} NOT NULL)");
	my ($took, $span, $n, $distinct, $behind);
	for my $try (0 .. 2)
	{
		if ($try > 0)
		{
			note 'pace: the clock caught up with the mark; '
			  . 'again with the clock twice as far back';
			$offset4 *= 2;
			set_clock($node, $offset4);
			_query($c, 'TRUNCATE pace');
		}
		$took = run_released(
			$node, 3,
			sub {
				"INSERT INTO pace SELECT $T->{name}_new() FROM generate_series(1, $each)";
			},
			what => 'pace:');
		($span, $n, $distinct, $behind) = split /\|/, _query(
			$c, qq{
			SELECT extract(epoch FROM max($T->{name}_timestamp(id)) - min($T->{name}_timestamp(id))),
				   count(*), count(DISTINCT id),
				   clock_timestamp() < min($T->{name}_timestamp(id))
			FROM pace});
		last if $behind eq 't';
	}
	is($distinct, $n, "pace: $n IDs, no duplicate");
	is($behind, 't', 'pace: the clock stayed behind the mark');
	cmp_ok($span, '<=', $took + 2 * $tick,
		sprintf('pace: three seconds of IDs span %s s, no more than the %.2f s they took and two %ss',
			$span, $took, $unit));

	# Over every phase and the restart.
	my $total =
	  $T->{wraps}
	  ? check_ids_wrap($node, $T->{name}, 's')
	  : check_ids_by($node, 's');
	is(_query($c, "SELECT count(DISTINCT phase) FROM t WHERE s <= $workers"),
		'4', 'the workers generated in every phase');
	cmp_ok(
		_query(
			$c,
			"SELECT max(c) FROM (SELECT count(*) AS c FROM t GROUP BY $T->{name}_timestamp(id)) x"
		),
		'<=',
		$c->{per_tick},
		"at most $c->{per_tick} IDs in any $unit, borrowed ones included");
	my $end = type_stats($node, $T->{name});
	is($end->{flips}, '0', "no tick flip: $T->{name} has one timeline");
	# The counters are in the state file too: they survived the restart.
	cmp_ok($end->{issued}, '>=', $total,
		'uid_stats counted the IDs of every phase and start');
	note 'uid_stats: ',
	  _query($c, "SELECT * FROM uid_stats() WHERE type = '$T->{name}'");
	return $total;
}

sub _query
{
	my ($c, $sql) = @_;
	return $c->{node}->safe_psql('postgres', $sql);
}

# SQL that is true when the ID $a is not below the ID $b (SQL expressions
# of the type) in the generator's order: above it, or for a type that
# wraps, dated at or after it.
sub _not_below
{
	my ($c, $a, $b) = @_;
	my $type = $c->{T}{name};

	return $c->{T}{wraps}
	  ? "${type}_timestamp($a) >= ${type}_timestamp($b)"
	  : "$a > $b";
}

# Worker sessions that generate IDs of the type $T->{name} into a table t
# in committed batches, in phases: the test moves the server's clock
# between phases with step_phase, which first stops every worker at a gate
# and lets them go once every backend has taken the step.  libfaketime
# moves each process on its own, a real step moves them all at once: a
# process re-reads the clock file at its first clock reading of each new
# second, so one that made no reading in the second before the file changed
# (a new session, a backend descheduled over it) takes the step up to a
# second before the others, and for that second the server runs on two
# clocks, which no server meets.  For sno, one such backend flipped to the
# other timeline, the others at the old time then moved that timeline up
# to the old mark, and the phase after the step back held at the mark
# instead of making IDs at the earlier time (seen once in 002 on 17; with
# a new session making an ID just after the file changed, 002 without the
# gate failed the same way).
#
# Options: workers (default 3), per_batch (IDs per committed batch, 200),
# probe (IDs of timed_batch, 20,000), quota (batches each worker commits in
# a phase after phase 0 before it waits for the next phase; undef: no
# limit), outpaces (clock_jump_test).  $T: name, and for clock_jump_test
# tick (seconds, default 0.001) and per_tick (or per_ms).  Returns the
# handle the other functions take, with the workers started in phase 0.
sub start_generator
{
	my ($node, $T, %opt) = @_;
	my $tick = $T->{tick} // 0.001;
	my $c = {
		node => $node,
		T => $T,
		tick => $tick,
		per_tick => $T->{per_tick} // $T->{per_ms},
		unit => $tick == 1 ? 'second' : 'millisecond',
		workers => $opt{workers} // 3,
		per_batch => $opt{per_batch} // 200,
		probe => $opt{probe} // 20_000,
		quota => $opt{quota},
		outpaces => $opt{outpaces},
	};

	_create_generator($c);
	check_clock_offset($node, 0, 'the server clock starts at real time');
	$c->{started} = time();
	$c->{w} = [ map { start_worker($node, "CALL gen($_, $c->{per_batch})") }
		  1 .. $c->{workers} ];
	return $c;
}

# Stops the workers (after phase 3 at the latest) and checks that each ran
# without an error.
sub stop_generator
{
	my ($c) = @_;

	_query($c, 'UPDATE ctl SET stop = true');
	_open_phase($c, 4);
	for my $i (1 .. $c->{workers})
	{
		my ($rc, $out, $err) = finish_worker($c->{w}[ $i - 1 ]);
		is($rc, 0, "worker $i ran through every step without an error")
		  or diag $err;
	}
	$c->{gate}->quit;
	return;
}

# t, and a procedure gen(sess, per) that generates committed batches of
# IDs until ctl says stop, each row tagged with the phase current when its
# batch began; at is the server's clock just after the row's ID was made
# (column defaults are computed after the inserted values).  (No pg_sleep
# between batches: it sleeps until a wall-clock time, so a clock stepped
# back an hour would hold it for an hour.)  Once a worker has committed
# ctl's quota of batches in a phase, it waits for the next phase on an
# advisory lock that a gate session of ours holds until then (a lock wait,
# unlike pg_sleep, does not read the clock); a quota of 0 stops every
# worker of the phase there.
sub _create_generator
{
	my ($c) = @_;
	my $type = $c->{T}{name};

	_query(
		$c, qq{
		CREATE TABLE t (id $type NOT NULL, s int NOT NULL, n int NOT NULL,
						phase int NOT NULL,
						at timestamptz NOT NULL DEFAULT clock_timestamp());
		CREATE UNIQUE INDEX t_id ON t (id);
		CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL, quota int);
		INSERT INTO ctl VALUES (0, false, NULL);

		CREATE PROCEDURE gen(sess int, per int) LANGUAGE plpgsql AS \$\$
		DECLARE
			i int := 0;
			ph int;
			st bool;
			q int;
			cur int := -1;
			done int := 0;
		BEGIN
			LOOP
				SELECT phase, stop, quota INTO ph, st, q FROM ctl;
				EXIT WHEN st;
				IF ph <> cur THEN
					cur := ph;
					done := 0;
				END IF;
				IF done >= q THEN
					PERFORM pg_advisory_lock_shared(4301 + ph);
					PERFORM pg_advisory_unlock_shared(4301 + ph);
					CONTINUE;
				END IF;
				INSERT INTO t (id, s, n, phase)
				SELECT ${type}_new(), sess, i * per + g, ph
				FROM generate_series(1, per) g;
				i := i + 1;
				done := done + 1;
				COMMIT;
			END LOOP;
		END \$\$;
	});
	$c->{gate} = $c->{node}->background_psql('postgres');
	$c->{gate}->query_safe(
		'SELECT pg_advisory_lock(k) FROM generate_series(4301, 4304) k');
	return;
}

# Lets the workers waiting for phase $phase (4: the stop) go on.
sub _open_phase
{
	my ($c, $phase) = @_;

	$c->{gate}->query_safe('SELECT pg_advisory_unlock(' . (4300 + $phase) . ')');
	return;
}

# Waits until every worker has committed two batches in the phase.
sub wait_for_phase
{
	my ($c, $phase) = @_;
	my $workers = $c->{workers};

	return poll_while_running(
		$c->{node}, qq{
		SELECT count(*) = $workers FROM (
			SELECT s FROM t WHERE phase = $phase AND s <= $workers
			GROUP BY s HAVING count(*) >= 2 * $c->{per_batch}
		) x}, $c->{w});
}

# A batch of probe IDs from a new session, timed from outside: it must
# complete (a psql that hangs for $PostgreSQL::Test::Utils::timeout_default
# seconds fails the test instead of hanging it).  Returns its seconds, and
# how many IDs a second the server issued to every session meanwhile (read
# from uid_stats around it, so over a slightly longer time than the
# batch's).
sub timed_batch
{
	my ($c, $phase) = @_;
	my $type = $c->{T}{name};
	my $s = 100 + $phase;
	my $from = time();
	my $issued = type_stats($c->{node}, $type)->{issued};
	my $start = time();

	$c->{node}->safe_psql('postgres',
		"INSERT INTO t (id, s, n, phase) SELECT ${type}_new(), $s, g, $phase FROM generate_series(1, $c->{probe}) g",
		timeout => $PostgreSQL::Test::Utils::timeout_default);
	my $t = time() - $start;
	$issued = type_stats($c->{node}, $type)->{issued} - $issued;
	return ($t, $issued / (time() - $from));
}

# The highest ID committed so far, and how far its time is ahead of the
# server's clock, in seconds.
sub _high_water
{
	my ($c) = @_;

	return split /\|/,
	  _query($c,
		"SELECT id, extract(epoch FROM $c->{T}{name}_timestamp(id) - clock_timestamp()) FROM t ORDER BY id DESC LIMIT 1"
	  );
}

# Moves the clock, checks that the server follows, and starts a phase.
# Returns the highest ID committed when the phase began (read in the
# statement that begins it).  First every worker stops at the gate of the
# phase it is in, after the batch it is in, and only then does the clock
# move: set_clock waits until the step has reached every backend (up to a
# second), and a worker that went on meanwhile would generate with the
# clock of its own (start_generator), or with the clock already behind
# borrow ahead without limit (uid60's mark would run minutes ahead of it).
sub step_phase
{
	my ($c, $phase, $offset, %opt) = @_;
	my $quota = $c->{quota} // 'NULL';

	_query($c, 'UPDATE ctl SET quota = 0');
	ok( poll_while_running(
			$c->{node}, qq{
			SELECT count(*) = $c->{workers} FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted}, $c->{w}),
		"phase $phase: every worker waits at the gate before the step");
	set_clock($c->{node}, $offset);
	check_clock_offset($c->{node}, $offset,
		"phase $phase: the server clock is $offset s off real time");
	_step_behind($c, $phase, \$offset, $opt{behind}) if defined $opt{behind};
	my $start = _query($c,
		"UPDATE ctl SET phase = $phase, quota = $quota RETURNING (SELECT id FROM t ORDER BY id DESC LIMIT 1)"
	);
	_open_phase($c, $phase);
	return wantarray ? ($start, $offset) : $start;
}

# The precondition of a step back ($behind in seconds): the last ID made
# is more than that ahead of the clock when the phase begins.  Between
# that ID and the step the workers stopped at the gate and set_clock
# waited for every backend: on a busy machine that can take longer than
# the step.  No worker generates until the phase opens, so the clock can
# still go further back: twice as far, up to three times, and only then
# does the precondition fail.  Updates the offset in force.
sub _step_behind
{
	my ($c, $phase, $offset, $behind) = @_;
	my (undef, $ahead) = _high_water($c);

	for (my $try = 1; $ahead <= $behind && $try <= 3; $try++)
	{
		note "phase $phase: the last ID is $ahead s ahead of the clock, "
		  . "not more than $behind; stepping twice as far back";
		$$offset *= 2;
		set_clock($c->{node}, $$offset);
		check_clock_offset($c->{node}, $$offset,
			"phase $phase: the server clock is $$offset s off real time");
		(undef, $ahead) = _high_water($c);
	}
	cmp_ok($ahead, '>', $behind,
		"phase $phase: the clock is behind the last ID made")
	  or diag "the last ID is $ahead s ahead of the clock";
	return;
}

# Every ID of a phase is above the highest ID made before it began (for a
# type that wraps: dated at or after it): the generator never went back.
sub _above_high_water
{
	my ($c, $phase, $hw, $what) = @_;

	$what //= "phase $phase";
	is( _query(
			$c,
			"SELECT count(*) FROM t WHERE phase = $phase AND NOT "
			  . _not_below($c, 'id', "'$hw'::$c->{T}{name}")),
		'0',
		"$what: every ID is "
		  . ($c->{T}{wraps} ? 'dated at or after' : 'above')
		  . ' every ID made before');
	return;
}

# With the clock behind, a phase's IDs are above every ID made before the
# step ($hw), and they start at the mark the phase began with ($start):
# not dated back to the clock, and not pushed ahead of the mark by more
# than the few batches in flight then can account for (a second holds
# 1000 * per_ms IDs; with ticks of a second, the mark's tick may fill up
# before the phase's first ID, which then is in the next one).  After a
# restart ($fenced) the first IDs are fenced past the lease, which runs
# up to a second past the last ID's tick (src/lease.c).
sub _held_at_high_water
{
	my ($c, $phase, $hw, $start, $what, $fenced) = @_;
	my $type = $c->{T}{name};
	my $slack = 1 + $c->{tick} + ($fenced ? 1 + $c->{tick} : 0);

	$what //= "phase $phase";
	_above_high_water($c, $phase, $hw, $what);
	is( _query(
			$c,
			"SELECT min(${type}_timestamp(id)) < ${type}_timestamp('$start') + interval '$slack s' FROM t WHERE phase = $phase"
		),
		't',
		"$what: the IDs went on from the high-water mark");
	return;
}

# While the clock is $offset s off real time, used-up ticks are borrowed
# at the pace of real time, so the phase's IDs keep about their real
# dates: none is dated more than four ticks and a tenth of a second after
# the real time just after it was made (its at, less the offset).  The
# mark began the phase at most a couple of ticks ahead of real time, and
# each borrow is at most a tick ahead of the one before it; a generator
# that borrowed as fast as the sessions asked ran revts8's mark 0.8 s
# ahead in phase 1.  With outpaces, $rate (the server's IDs a second
# around the timed batch) is noted beside the capacity.
sub _kept_real_time
{
	my ($c, $phase, $offset, $rate) = @_;
	my $type = $c->{T}{name};
	my $slack = 4 * $c->{tick} + 0.1;
	my $ahead = _query($c,
		"SELECT coalesce(max(extract(epoch FROM ${type}_timestamp(id) - (at - interval '$offset s'))), 0) FROM t WHERE phase = $phase"
	);

	cmp_ok($ahead, '<', $slack,
		"phase $phase: borrowed at the pace of real time, no ID dated more than $slack s after it was made"
	);
	note sprintf('phase %d: %.0f IDs/s; the capacity is %d/s; IDs were up to %.3f s ahead of real time',
		$phase, $rate, $c->{per_tick} / $c->{tick}, $ahead)
	  if $c->{outpaces};
	return;
}

# The phase's IDs that were dated ahead of the server's clock when they
# were made (their tick begins after the clock read just after them, at):
# more than per_tick of them.  With the clock behind the high-water mark, a
# generator that waited for the clock once the mark's tick was used up
# would date at most the rest of that tick ahead (fewer than per_tick
# IDs), then wait and date the others at the clock; one that borrows dates
# every ID ahead until the clock catches up, seconds later.  At real time
# no ID is ever dated ahead (check_not_ahead).
#
# That needs the clock to stay behind the mark while the phase's IDs are
# made, and on a busy machine the phase can outlast the step: the clock
# caught up (some IDs are dated at or before it) before more than per_tick
# were made.  Then the precondition did not hold, which says nothing of the
# generator, so it is made to hold: the clock (at $offset, the offset in
# force) goes back again to 8 s behind the mark, and one statement, which
# takes a second or two of borrowing at the pace of real time, makes
# 2 x per_tick + 1 more IDs of the phase; those must be dated ahead.
sub _dated_ahead
{
	my ($c, $phase, $what, $offset) = @_;
	my $type = $c->{T}{name};
	my ($ahead, $n, $caught) = split /\|/,
	  _query($c,
		"SELECT count(*) FILTER (WHERE ${type}_timestamp(id) > at), count(*), "
		  . "count(*) FILTER (WHERE ${type}_timestamp(id) <= at) FROM t WHERE phase = $phase"
	  );
	my $burst = '';

	if ($ahead <= $c->{per_tick} && $caught > 0 && defined $offset)
	{
		my (undef, $hw_ahead) = _high_water($c);
		my $back = $offset + ($hw_ahead < 8 ? $hw_ahead - 8 : 0);

		note "$what: the clock caught up with the mark before more than $c->{per_tick} IDs "
		  . "were made ($ahead dated ahead, $caught at or before the clock): "
		  . "clock to $back s and a burst of IDs";
		set_clock($c->{node}, $back);
		check_clock_offset($c->{node}, $back,
			"$what: the server clock is $back s off real time for the burst");
		my $s = 190 + $phase;
		$c->{node}->safe_psql('postgres',
			"INSERT INTO t (id, s, n, phase) SELECT ${type}_new(), $s, g, $phase "
			  . "FROM generate_series(1, " . (2 * $c->{per_tick} + 1) . ") g",
			timeout => $PostgreSQL::Test::Utils::timeout_default);
		($ahead, $n) = split /\|/,
		  _query($c,
			"SELECT count(*) FILTER (WHERE ${type}_timestamp(id) > at), count(*) "
			  . "FROM t WHERE phase = $phase AND s = $s");
		$burst = ' (of a burst made with the clock stepped back again)';
	}
	cmp_ok($ahead, '>', $c->{per_tick},
		"$what: more than a $c->{unit}'s $c->{per_tick} IDs dated ahead of the clock when made: "
		  . "used-up $c->{unit}s were borrowed, not waited out")
	  or diag "$ahead of the $n IDs of the phase$burst were dated ahead of the clock";
	note "$what: $ahead of $n IDs$burst were dated ahead of the clock when made";
	return;
}

1;
