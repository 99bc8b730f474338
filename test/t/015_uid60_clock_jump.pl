# The server's clock steps back (8 s, then an hour, then forward again)
# while sessions generate uid60 IDs, and the server restarts with its clock
# 20 s back.  uid60 is on the single-timeline allocator with 1024 IDs a
# second: the generator holds at the high-water second and, when its
# sequence comes back to where the second began, borrows the next second
# without waiting; it never goes back.  So: no duplicate, no session's IDs
# go back in time across the steps and the restart, no ID is dated back to
# the clock, and generation never stalls; while the clock is behind, more
# than a second's 1024 IDs are dated ahead of the clock, which waiting out
# each full second would not allow (README, guarantees 1, 3 and 4, and
# doc/design.md, the regression policy of snowflake_si, revts8 and uid60).  The steps and checks are UidTest's clock_jump_test, shared with
# snowflake_si and revts8, with small batches: every ID made while the clock
# is behind moves the mark ahead by 1/1024 s.  Then a stopped clock: one
# wait of about a second, then borrowing.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $worker = 77;
my $T = {
	name => 'uid60',
	seq => 'uid60_sequence',
	tick => 1,
	per_tick => 1024,
	wraps => 1,
};

my $node = faked_node('uid60_clock_jump', "uid.generator = $worker");

# Each phase with the clock behind makes 3 x 4 x 50 + 1,000 IDs, about
# 1.6 s of borrowed seconds, more than the 1024 a second that shows they
# were borrowed.  The first step is 8 s: the IDs are dated to the second,
# and the clock must be well behind the last of them until the phase's IDs
# are made, on a busy machine too.
clock_jump_test(
	$node, $T,
	workers => 3,
	per_batch => 50,
	probe => 1_000,
	quota => 4,
	step => -8,
	outpaces => 1);

is( $node->safe_psql(
		'postgres', q{
	SELECT min(uid60_worker(id)), max(uid60_worker(id)), max(uid60_sequence(id)) < 1024
	FROM t}),
	"$worker|$worker|t",
	"every ID has worker $worker and a sequence below 1024");

# A stopped clock (a stuck VM clock, a frozen faketime) must not stall
# generation: once the second's 1024 IDs are used up and a wait of about a
# second does not move the clock, the generator borrows the next second
# (README, guarantee 4), and then one second per second of real time.  One
# minute ahead, so that the frozen time is not a regression.
my $frozen = $node->safe_psql('postgres',
	q{SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '1 minute', 'YYYY-MM-DD HH24:MI:SS')});
set_clock($node, $frozen);
is( $node->safe_psql('postgres', q{SELECT clock_timestamp() = clock_timestamp()}),
	't', 'the server clock is frozen');
# A stall shows as the statement timeout (60 s, where about six seconds
# are needed).
my $start = time();
my $w = start_worker($node, q{SET statement_timeout = '60s'},
	q{CREATE TABLE frozen AS SELECT uid60_new() AS id, g FROM generate_series(1, 6000) g});
my ($rc, $out, $err) = finish_worker($w);
my $took = time() - $start;
note sprintf('6,000 uid60 IDs from a frozen clock took %.2f s', $took);
is($rc, 0, '6,000 uid60 IDs from a frozen clock: generation did not stall')
  or diag $err;
my ($ok, $seconds) = split /\|/, $node->safe_psql(
	'postgres', q{
	SELECT count(DISTINCT id) = 6000 AND count(*) = 6000
		   AND min(uid60_timestamp(id)) = date_trunc('second', clock_timestamp()),
		   count(DISTINCT uid60_timestamp(id))
	FROM frozen});
is($ok, 't', 'no duplicate; the first second is the frozen one');
cmp_ok($seconds, '>=', 6, 'later seconds were borrowed (6,000 IDs need six)');
# The frozen second is fresh (a minute past every ID), so its 1024 IDs come
# at once; a wait of about a second for the next does not move the clock,
# and the call borrows it.  Each second borrowed after it waits for the
# pace of real time: at most one borrowed second per second the statement
# took, and one more.  A generator that borrowed as fast as the statement
# asked would date the IDs five seconds on in about one.
cmp_ok($seconds - 1, '<=', $took + 1,
	sprintf('borrowed at the pace of real time: %d seconds borrowed in %.2f s', $seconds - 1, $took));

set_clock($node, '+0');
$node->stop;

done_testing();
