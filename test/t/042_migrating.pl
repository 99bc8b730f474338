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
# 3. The guide's retry step: a pass whose transaction failed has used up
#    a lane of the back-fill range for its times (the keys it returned may
#    have left it, so the server does not give them again), and a second
#    one the other; the guide's next range lets the pass run again as
#    written.
#
# 4. Each refusal of the guide's function (a table whose key is not one
#    column, a partitioned table, foreign keys it does not handle, a view
#    of a moved column): its message, and no column changed.
#
# Every plan checked is shown to be parallel (a Gather in EXPLAIN, or in
# auto_explain's log for the pass inside the guide's function), so that
# none of this passes for want of a parallel plan.  Nothing is timed.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidGuide;
use UidTest;

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

# The guide's schema with C customers and 2C orders from the day FROM, several
# rows (of both tables) in most 4 ms units, times out of the keys' order;
# before_rows keeps what each row was.
sub example_tables
{
	my ($from, $c) = @_;
	my $o = 2 * $c;
	q1(guide('example schema'));
	q1(qq{
		INSERT INTO customers (created_at, name)
		SELECT timestamptz '$from' + ((g::bigint * 7919) % $c) * interval '3 ms', 'customer ' || g
		FROM generate_series(1, $c) g;
		INSERT INTO orders (customer_id, created_at, amount)
		SELECT 1 + (g * 37) % $c, timestamptz '$from' + ((g::bigint * 104729) % $o) * interval '1.5 ms', g
		FROM generate_series(1, $o) g;
		ANALYZE customers, orders;
		CREATE TABLE before_rows AS
		SELECT 'customers' AS tab, id, created_at, NULL::bigint AS customer_id FROM customers
		UNION ALL
		SELECT 'orders', id, created_at, customer_id FROM orders;
	});
}

# After the guide's pass: every row once with a distinct new key, every
# order referencing its customer's new key, the keys in creation order.
sub check_moved
{
	my ($what, $rows, $orders) = @_;
	is( q1(q{
		SELECT count(*), count(DISTINCT a.id), count(*) FILTER (WHERE b.id IS NULL)
		FROM (SELECT 'customers' AS tab, legacy_id, id FROM customers
		      UNION ALL SELECT 'orders', legacy_id, id FROM orders) a
		LEFT JOIN before_rows b ON b.tab = a.tab AND b.id = a.legacy_id}),
		"$rows|$rows|0", "$what: $rows rows, each once, with a distinct new key");
	is( q1(q{
		SELECT count(*), count(*) FILTER (WHERE c.legacy_id IS DISTINCT FROM b.customer_id)
		FROM orders o JOIN before_rows b ON b.tab = 'orders' AND b.id = o.legacy_id
		LEFT JOIN customers c ON c.id = o.customer_id}),
		"$orders|0", "$what: every order references its customer's new key");
	is( q1(q{
		SELECT count(*) FILTER (WHERE by_time <> by_key)
		FROM (SELECT row_number() OVER (ORDER BY created_at, tab, legacy_id) AS by_time,
		             row_number() OVER (ORDER BY id) AS by_key
		      FROM (SELECT 'customers' AS tab, legacy_id, id, created_at FROM customers
		            UNION ALL SELECT 'orders', legacy_id, id, created_at FROM orders) a) s}),
		'0', "$what: the new keys sort as (created_at, table, old key)");
}

# 2. The guide's sno pass on its own two tables: 100,000 customers and
# 200,000 orders.  The guide's function and its call run in one session,
# auto_explain showing the plan of the pass that makes the keys.
example_tables('2023-05-01', 100000);
guide_parallel($node, 'postgres', guide('sno customers orders'), 'the guide\'s pass');
my $pass = guide('uid_move_keys') . guide('sno customers orders');
check_moved("the guide's pass", 300000, 200000);

# 3. The guide's retry step.  The same pass on new tables whose rows are
# dated later, in a transaction that fails at its end (its COMMIT a
# ROLLBACK), twice: the first failure moves one lane past those times, the
# second the other, and the pass run again as written is refused; after
# the guide's next range, as written, it keeps every row, reference and
# the order.
q1(q{DROP TABLE customers, orders, before_rows});
example_tables('2024-06-01', 20000);
(my $failing = $pass) =~ s/^COMMIT;$/ROLLBACK;/m or die "the guide's pass has no COMMIT\n";
q1($failing);
q1($failing);
my ($rc, $out, $err) = $node->psql('postgres', $pass);
like($err, qr/this server has back-filled past it/,
	"retry: the pass run again after two failed ones is refused");
is(q1(q{SELECT count(*) FROM information_schema.columns WHERE column_name = 'legacy_id'}),
	'0', 'retry: the refused pass changed nothing');
q1(guide('sno next range'));
q1($pass);
check_moved('retry: after the next range', 60000, 40000);
is( q1(q{SELECT sequence_max, backfill_min, backfill_max FROM (
	SELECT max(setting) FILTER (WHERE name = 'uid.sno_sequence_max') AS sequence_max,
	       max(setting) FILTER (WHERE name = 'uid.sno_backfill_min') AS backfill_min,
	       max(setting) FILTER (WHERE name = 'uid.sno_backfill_max') AS backfill_max
	FROM uid_config()) c}),
	'65023|65024|65279', "retry: the next range is the 256 sequences below the guide's");

# 4. What the guide's function refuses, before it changes anything: each
# case on its own tables, the call in one session with the function; then
# no column was renamed or retyped.
my @refusals = (
	[ 'a time per table', 'CREATE TABLE r (id bigint PRIMARY KEY);',
		q{ARRAY['r']::regclass[], ARRAY[NULL, NULL]::text[]}, qr/one time \(or NULL\) per table/ ],
	[ 'a primary key of two columns', 'CREATE TABLE r (a int, b int, PRIMARY KEY (a, b));',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/r is not a table with a primary key of one column/ ],
	[ 'no primary key', 'CREATE TABLE r (id bigint);',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/r is not a table with a primary key of one column/ ],
	[ 'a partitioned table',
		'CREATE TABLE r (id bigint PRIMARY KEY) PARTITION BY RANGE (id); CREATE TABLE r1 PARTITION OF r FOR VALUES FROM (0) TO (100);',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/r is not a table with a primary key of one column/ ],
	[ 'a foreign key of two columns to a moved key',
		'CREATE TABLE r (id bigint PRIMARY KEY, x int, UNIQUE (id, x)); CREATE TABLE s (id bigint PRIMARY KEY, rid bigint, x int, FOREIGN KEY (rid, x) REFERENCES r (id, x));',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/not handled: the foreign key s_rid_x_fkey of s, of several columns/ ],
	[ 'a foreign key to a moved reference',
		'CREATE TABLE r (id bigint PRIMARY KEY); CREATE TABLE s (id bigint PRIMARY KEY, rid bigint UNIQUE REFERENCES r); CREATE TABLE u (id bigint PRIMARY KEY, srid bigint REFERENCES s (rid));',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/not handled: the foreign key u_srid_fkey of u, .* to a moved reference/ ],
	[ 'a column that references two moved keys',
		'CREATE TABLE r (id bigint PRIMARY KEY); CREATE TABLE s (id bigint PRIMARY KEY); CREATE TABLE u (id bigint PRIMARY KEY, k bigint REFERENCES r REFERENCES s);',
		q{ARRAY['r', 's']::regclass[], ARRAY[NULL, NULL]::text[]}, qr/not handled: u, a column of which holds two keys or references/ ],
	[ 'a view of a moved column',
		'CREATE TABLE r (id bigint PRIMARY KEY); CREATE VIEW rv AS SELECT id FROM r;',
		q{ARRAY['r']::regclass[], ARRAY[NULL]::text[]}, qr/view rv uses r\.id: drop it before, make it again after/ ]);
my $columns = q{SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod),
	', ' ORDER BY attrelid, attnum) FROM pg_attribute
	WHERE attnum > 0 AND NOT attisdropped
	  AND attrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'refused'::regnamespace)};
for my $c (@refusals)
{
	my ($what, $ddl, $args, $message) = @$c;
	q1("DROP SCHEMA IF EXISTS refused CASCADE; CREATE SCHEMA refused; SET search_path = refused, public; $ddl");
	my $before = q1($columns);
	my (undef, undef, $err) = $node->psql('postgres',
		"SET search_path = refused, public;\n" . guide('uid_move_keys') . "\nSELECT pg_temp.uid_move_keys($args);");
	like($err, $message, "refused: $what");
	is(q1($columns), $before, "refused: $what: no column changed");
}

$node->stop;
done_testing();
