# doc/migrating.md, run as written (issue 51): the blocks of the guide
# marked "<!-- guide: NAME -->" are read from the document itself, so the
# test cannot drift from it, and run on a server whose parallel plans are
# forced cheap (parallel_setup_cost, parallel_tuple_cost and
# min_parallel_table_scan_size 0), as a real-sized table makes them.
#
# 1. The generators in a parallel plan.  SELECT T_new() ... ORDER BY x gives
#    keys in x's order for every type: the generators are PARALLEL
#    RESTRICTED, so the leader calls them above the Gather Merge, in the
#    merged order.  PARALLEL SAFE (uid 0.7.0 before this test) let each
#    worker call them on its own share of the rows before the merge: of
#    300,000 rows, 299,963 sno, 299,981 snowflake_si and (of 100,000) every
#    revts8 key came out of order.  uid60's keys within a second sort by a
#    sequence that wraps, in no call order: its label is read from the
#    catalog.
# 2. The guide's sno pass (one ORDER BY created_at over both tables, keys by
#    sno_new_at()) on its own customers and orders, 300,000 rows: every
#    row once, every reference followed, the keys in creation order.  With
#    PARALLEL SAFE it was refused in a worker ("this server has back-filled
#    past it").
#
# Every plan checked is shown to be parallel (a Gather in EXPLAIN), so that
# none of this passes for want of a parallel plan.  Nothing is timed.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $doc = slurp_file("$FindBin::RealBin/../../doc/migrating.md");

# The text of the guide's block NAME: the fenced block after its marker.
sub guide
{
	my ($name) = @_;
	$doc =~ /^<!-- guide: \Q$name\E -->\n```[a-z]*\n(.*?)^```$/ms
	  or die "doc/migrating.md has no block marked \"guide: $name\"\n";
	return $1;
}

my $parallel_cheap = join("\n",
	'parallel_setup_cost = 0', 'parallel_tuple_cost = 0',
	'min_parallel_table_scan_size = 0', 'max_parallel_workers_per_gather = 2');
my $node = uid_node('migrating', conf => [ guide('sno settings'), $parallel_cheap ]);
sub q1 { return $node->safe_psql('postgres', $_[0]); }

# EXPLAIN of a query shows a parallel plan.
sub parallel_plan
{
	my ($query, $what) = @_;
	like(q1("EXPLAIN (COSTS OFF) $query"), qr/Gather/, "$what: the plan is parallel");
}

# 1. Each generator in a parallel ORDER BY.
q1(q{
	CREATE TABLE events (n bigint NOT NULL, created_at timestamptz NOT NULL);
	INSERT INTO events
	SELECT g, timestamptz '2024-01-01' + ((g::bigint * 7919) % 300000) * interval '1 ms'
	FROM generate_series(1, 300000) g;
	ANALYZE events;
});
my @generators = (
	[ 'sno',          'sno_new(0)',         300000 ],
	[ 'snowflake_si', 'snowflake_si_new()', 300000 ],
	[ 'revts8',       'revts8_new()',       100000 ],
	[ 'muid',         'muid_new()',         300000 ]);
for my $g (@generators)
{
	my ($type, $call, $rows) = @$g;
	my $query = "SELECT n, created_at, $call AS k FROM events WHERE n <= $rows ORDER BY created_at, n";
	parallel_plan($query, $type);
	q1("CREATE TABLE made_$type AS $query");
	is( q1(qq{
		SELECT count(*), count(DISTINCT k), count(*) FILTER (WHERE by_time <> by_key)
		FROM (SELECT k, row_number() OVER (ORDER BY created_at, n) AS by_time,
		             row_number() OVER (ORDER BY k) AS by_key FROM made_$type) s}),
		"$rows|$rows|0",
		"$type: $rows keys made in a parallel ORDER BY, distinct, in its order");
}
# uid60's IDs of one second sort by a sequence that wraps, not in the order
# they were made (doc/types.md), so no ORDER BY can show its label: every
# generator's is read from the catalog.
is( q1(q{
	SELECT string_agg(p.oid::regprocedure::text || ' ' || p.proparallel::text, ', ' ORDER BY p.proname)
	FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	     AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uid')
	  AND (p.proname ~ '^[a-z0-9_]+_new(_at)?$' OR p.proname = 'muid_txn')}),
	'muid_new() r, muid_txn() r, revts8_new() r, sno_new(integer) r, '
	  . 'sno_new_at(integer,timestamp with time zone) r, snowflake_si_new() r, uid60_new() r',
	'every generator is PARALLEL RESTRICTED');

# 2. The guide's sno pass on its own two tables: 100,000 customers and
# 200,000 orders, several rows (of both tables) in most 4 ms units, times
# out of the keys' order.
q1(guide('example schema'));
q1(q{
	INSERT INTO customers (created_at, name)
	SELECT timestamptz '2023-05-01' + ((g::bigint * 7919) % 100000) * interval '3 ms', 'customer ' || g
	FROM generate_series(1, 100000) g;
	INSERT INTO orders (customer_id, created_at, amount)
	SELECT 1 + (g * 37) % 100000, timestamptz '2023-05-01' + ((g::bigint * 104729) % 200000) * interval '1.5 ms', g
	FROM generate_series(1, 200000) g;
	ANALYZE customers, orders;
	CREATE TABLE before_rows AS
	SELECT 'customers' AS tab, id, created_at, NULL::bigint AS customer_id FROM customers
	UNION ALL
	SELECT 'orders', id, created_at, customer_id FROM orders;
});
my $pass = guide('sno customers orders');
$pass =~ /CREATE TEMP TABLE new_keys ON COMMIT DROP AS\n(SELECT .*?);/s
  or die "the guide's pass has no CREATE TEMP TABLE new_keys\n";
parallel_plan($1, "the guide's pass");
q1($pass);
is( q1(q{
	SELECT count(*), count(DISTINCT a.id), count(*) FILTER (WHERE b.id IS NULL)
	FROM (SELECT 'customers' AS tab, legacy_id, id FROM customers
	      UNION ALL SELECT 'orders', legacy_id, id FROM orders) a
	LEFT JOIN before_rows b ON b.tab = a.tab AND b.id = a.legacy_id}),
	'300000|300000|0',
	"the guide's pass: 300,000 rows, each once, with a distinct new key");
is( q1(q{
	SELECT count(*), count(*) FILTER (WHERE c.legacy_id IS DISTINCT FROM b.customer_id)
	FROM orders o JOIN before_rows b ON b.tab = 'orders' AND b.id = o.legacy_id
	LEFT JOIN customers c ON c.id = o.customer_id}),
	'200000|0', "the guide's pass: every order references its customer's new key");
is( q1(q{
	SELECT count(*) FILTER (WHERE by_time <> by_key)
	FROM (SELECT row_number() OVER (ORDER BY created_at, tab, legacy_id) AS by_time,
	             row_number() OVER (ORDER BY id) AS by_key
	      FROM (SELECT 'customers' AS tab, legacy_id, id, created_at FROM customers
	            UNION ALL SELECT 'orders', legacy_id, id, created_at FROM orders) a) s}),
	'0', "the guide's pass: the new keys sort as (created_at, table, old key)");

$node->stop;
done_testing();
