# The server's clock steps back (5 s, then an hour, then forward again)
# while sessions generate uid60 IDs, and the server restarts with its clock
# 10 s back.  uid60 is on the single-timeline allocator with 1024 IDs a
# second: the generator holds at the high-water second and, when its
# sequence comes back to where the second began, borrows the next second
# without waiting; it never goes back.  So: no duplicate, no session's IDs
# go back in time across the steps and the restart, no ID is dated back to
# the clock, and generation never stalls; while the clock is behind, the
# IDs come faster than the 1024 a second of waiting out each full second
# (design.md, guarantees 1, 3 and 4, and the regression policy of "the
# others").  The steps and checks are UidTest's clock_jump_test, shared with
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
# 1.6 s of borrowed seconds.  The first step is 5 s: the IDs are dated to
# the second, and the clock must be well behind the last of them.
clock_jump_test(
	$node, $T,
	workers => 3,
	per_batch => 50,
	probe => 1_000,
	quota => 4,
	step => -5,
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
# (design.md, guarantee 4).  One minute ahead, so that the frozen time is
# not a regression.
my $frozen = $node->safe_psql('postgres',
	q{SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '1 minute', 'YYYY-MM-DD HH24:MI:SS')});
set_clock($node, $frozen);
is( $node->safe_psql('postgres', q{SELECT clock_timestamp() = clock_timestamp()}),
	't', 'the server clock is frozen');
my $waits = type_stats($node, 'uid60')->{waits};
my $start = time();
my $w = start_worker($node, q{SET statement_timeout = '60s'},
	q{CREATE TABLE frozen AS SELECT uid60_new() AS id, g FROM generate_series(1, 3000) g});
my ($rc, $out, $err) = finish_worker($w);
my $took = time() - $start;
is($rc, 0, '3,000 uid60 IDs from a frozen clock: generation did not stall')
  or diag $err;
cmp_ok($took, '<', 5, "they took ${took}s: about one wait of a second, then borrowing");
is( $node->safe_psql(
		'postgres', q{
	SELECT count(DISTINCT id) = 3000 AND count(*) = 3000,
		   count(DISTINCT uid60_timestamp(id)) >= 3,
		   min(uid60_timestamp(id)) = date_trunc('second', clock_timestamp())
	FROM frozen}),
	't|t|t',
	'no duplicate; the first second is the frozen one, later ones were borrowed');
cmp_ok(type_stats($node, 'uid60')->{waits}, '>', $waits,
	'it waited for the frozen second before borrowing');

set_clock($node, '+0');
$node->stop;

done_testing();
