# A clock that stops (a stuck VM clock, a frozen faketime) must not stall
# generation: once a tick's sequence is used up and a full wait does not move
# the clock, the generator borrows the next tick (README, guarantee 4).
# Without that, sno_new() and snowflake_si_new() would wait forever.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $node = faked_node('stopped_clock');

# An absolute time without "@" freezes libfaketime's clock there.  One
# minute ahead of now, so that the frozen time is not a regression.
my $frozen = $node->safe_psql('postgres',
	q{SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' + interval '1 minute', 'YYYY-MM-DD HH24:MI:SS')});
set_clock($node, $frozen);
is( $node->safe_psql('postgres',
		q{SELECT clock_timestamp() = clock_timestamp()}),
	't', 'the server clock is frozen');

my $w = start_worker(
	$node,
	q{CREATE TABLE t AS SELECT sno_new() AS id, g FROM generate_series(1, 200000) g});
my ($rc, $out, $err) = finish_worker($w);
is($rc, 0, '200,000 IDs from a frozen clock: generation did not stall')
  or diag $err;

is( $node->safe_psql('postgres',
		q{SELECT count(DISTINCT id) = 200000 AND count(*) = 200000 FROM t}),
	't', 'no duplicate');
is( $node->safe_psql('postgres',
		q{SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM t) s WHERE prev >= id}),
	'0', 'strictly increasing');
# 200,000 IDs need at least 4 units: the frozen one and borrowed ones after it
cmp_ok(
	$node->safe_psql('postgres', q{SELECT count(DISTINCT sno_timestamp(id)) FROM t}),
	'>=', 4, 'later units were borrowed');
is( $node->safe_psql('postgres',
		q{SELECT min(sno_timestamp(id)) = date_trunc('second', clock_timestamp()) FROM t}),
	't', 'the first ID is at the frozen time');
is( $node->safe_psql('postgres',
		q{SELECT overflow_waits > 0 AND tick_flips = 0 FROM uid_stats() WHERE type = 'sno'}),
	't', 'it waited once per unit before borrowing, and never flipped');

# snowflake_si, 1 ms ticks of 256 IDs: the wait for the next millisecond
# ends in a spin, which must also end on a stopped clock (and heed cancels).
$w = start_worker($node, q{SET statement_timeout = '60s'},
	q{CREATE TABLE sf AS SELECT snowflake_si_new() AS id, g FROM generate_series(1, 5000) g});
($rc, $out, $err) = finish_worker($w);
is($rc, 0, '5,000 snowflake_si IDs from a frozen clock: generation did not stall')
  or diag $err;
is( $node->safe_psql('postgres',
		q{SELECT count(DISTINCT id) = 5000 AND count(*) = 5000 FROM sf}),
	't', 'no duplicate snowflake_si');
is( $node->safe_psql('postgres',
		q{SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM sf) s WHERE prev >= id}),
	'0', 'snowflake_si strictly increasing');
cmp_ok(
	$node->safe_psql('postgres', q{SELECT count(DISTINCT snowflake_si_timestamp(id)) FROM sf}),
	'>=', 20, 'later milliseconds were borrowed');

set_clock($node, '+0');
$node->stop;
done_testing();
