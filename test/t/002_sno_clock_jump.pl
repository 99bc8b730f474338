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

my $node = faked_node('clock_jump');

# Worker sessions generate committed batches of sno_new() without a quota:
# sno has no capacity to outrun in any phase (UidTest's start_generator;
# step_phase stops them at a gate while the clock moves).
my $c = start_generator($node, { name => 'sno' }, quota => undef);
my $workers = $c->{workers};
my $started = $c->{started};

# Phase 0: real time, for 6 s, so that the clock stepped back 5 s runs
# through time for which IDs were made: a generator that followed the clock
# back would make some of them again.  (5 s rather than 1 or 2: the clock
# must still be behind the IDs of phase 0 once the step has reached every
# backend and phase 1 has begun, on a busy machine too.)
ok(wait_for_phase($c, 0), 'phase 0: every worker generates');
my ($base) = timed_batch($c, 0);
note "phase 0 batch: $base s";
usleep(1_000_000 * (6 - (time() - $started))) if time() - $started < 6;

# Phase 1: 5 s back, ahead of the unused second timeline: flip to it.
my $before = type_stats($node, 'sno');
# Backends racing one another at a steady clock must not flip, or the
# second timeline is used up before the clock ever goes back.
is($before->{flips}, 0, 'phase 0: no tick flip while the clock is steady');
# The old mark: the last ID made before the step (every worker waits at
# the gate from before the clock moves until the phase begins).
my $start1 = step_phase($c, 1, -5, behind => 2);
my $max0 = $node->safe_psql('postgres', "SELECT sno_timestamp('$start1')");
ok(wait_for_phase($c, 1), 'phase 1: every worker keeps generating');
my ($t1) = timed_batch($c, 1);
note "phase 1 batch: $t1 s";
my $after = type_stats($node, 'sno');
cmp_ok($after->{flips}, '>', $before->{flips}, 'phase 1: the tick bit flipped');
cmp_ok($after->{regressions}, '>', $before->{regressions},
	'phase 1: the clock regression was counted');
# Generation went on at the earlier time (on the other timeline) rather
# than waiting for the clock or holding at the old mark: every ID made
# while the clock was still behind the old mark (at: the clock just after
# the ID) is dated before it.  Holding would date them at the mark or
# after.  (The phase begins a second or two after the step: the clock is
# behind the old mark for a few seconds of it.)
my ($behind, $held) = split /\|/, $node->safe_psql(
	'postgres', qq{
	SELECT count(*), count(*) FILTER (WHERE sno_timestamp(id) >= '$max0')
	FROM t WHERE phase = 1 AND at < '$max0'});
cmp_ok($behind, '>', 0, 'phase 1: IDs were made while the clock was behind the old mark');
is($held, '0', 'phase 1: each of them was made at the earlier time, none held at the old mark')
  or diag "$held of $behind IDs were held";

# Phase 2: an hour back, behind both timelines: hold at the high-water mark.
my $step2 = time();
step_phase($c, 2, -3600);
$before = type_stats($node, 'sno');
ok(wait_for_phase($c, 2), 'phase 2: every worker keeps generating');
my ($t2) = timed_batch($c, 2);
note "phase 2 batch: $t2 s";
$after = type_stats($node, 'sno');
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
$before = type_stats($node, 'sno');
step_phase($c, 3, '+0');
ok(wait_for_phase($c, 3), 'phase 3: every worker keeps generating');
my ($t3) = timed_batch($c, 3);
note "phase 3 batch: $t3 s";
$after = type_stats($node, 'sno');
is($after->{flips}, $before->{flips},
	'phase 3: no flip when the clock steps forward');
is( $node->safe_psql('postgres',
		"SELECT count(*) > 0 FROM t WHERE phase = 3 AND sno_timestamp(id) >= to_timestamp($step3 - 1)"
	),
	't',
	'phase 3: IDs follow the clock again');

stop_generator($c);

# A stall of an hour's step would show here.  (A wait for the clock in
# phase 1, 5 s, shows above: no ID would be dated before the old mark.)
# The bound is 20 times phase 0's time and half a minute more: a busy
# machine, or one that gets busy, passes.
for ([ 1, $t1 ], [ 2, $t2 ], [ 3, $t3 ])
{
	my ($phase, $t) = @$_;
	cmp_ok($t, '<', 20 * $base + 30,
		"phase $phase: $c->{probe} IDs took ${t}s, no stall (phase 0: ${base}s)");
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
