# Many backends calling snowflake_si_new() at once never get the same ID,
# each backend's IDs are strictly increasing, and no millisecond holds more
# than the format's 2^k = 256 IDs: past that the generator waits for the
# next millisecond (README, guarantees 1, 3 and 5).  snowflake_si has a
# single timeline (no tick bit), so its btree order is its integer order.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $sessions = 8;
my $per_session = 200_000;
my $total = $sessions * $per_session;
my $machine = 5;
# 2^k IDs a millisecond, k = uid.snowflake_si_index_bits (default 8)
my $T = { name => 'snowflake_si', seq => 'snowflake_si_index', per_ms => 256 };
my $max_id = '9007199254740991';    # 2^53 - 1

# The format holds 256,000 IDs a second: 1,600,000 of them take 6.25 s at
# least, however many backends ask for them.
my $node = PostgreSQL::Test::Cluster->new('snowflake_si_concurrency');
$node->init;
$node->append_conf('postgresql.conf', "uid.generator = $machine");
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id snowflake_si NOT NULL, s int NOT NULL, n int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
});

is( $node->safe_psql('postgres',
		q{SELECT setting FROM uid_config() WHERE name = 'uid.generator'}),
	$machine,
	"uid.generator is $machine");

my $elapsed = run_released($node, $sessions,
	sub {
		my ($s) = @_;
		my $half = int($per_session / 2);

		# two parts: every session's first before every session's last
		[	"INSERT INTO t SELECT snowflake_si_new(), $s, g FROM generate_series(1, $half) g",
			"INSERT INTO t SELECT snowflake_si_new(), $s, g FROM generate_series($half + 1, $per_session) g"
		];
	});
note sprintf('%d IDs in %.2f s: %.0f IDs/s', $total, $elapsed, $total / $elapsed);

# Read at once, before the clock moves on much: a generator that borrowed
# ahead instead of waiting would have dated IDs in the future.
check_not_ahead($node, $T);

is( $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t'),
	"$total|$total",
	"$total IDs, all distinct");

# One timeline, even across the sessions' races: each session's IDs rise in
# plain btree order.
check_ids_by($node, 's');

# The btree order is the integer order: sorted by the type's operators, the
# values as bigint rise too.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM (
		SELECT id::bigint <= lag(id::bigint) OVER (ORDER BY id) AS bad FROM t
	) x WHERE bad}),
	'0',
	'the type\'s order is the integer order');

is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM (SELECT s FROM t GROUP BY s HAVING count(*) = $per_session) x"
	),
	$sessions,
	"each session made $per_session IDs");

is( $node->safe_psql('postgres',
		"SELECT min(id::bigint) >= 0 AND max(id::bigint) <= $max_id FROM t"),
	't',
	'every value is a safe JavaScript integer (0 .. 2^53 - 1)');

# All backends use one machine id, so only the shared state keeps their IDs
# apart: the uniqueness above is not a gift of the machine field.
is( $node->safe_psql('postgres',
		'SELECT min(snowflake_si_machine(id)), max(snowflake_si_machine(id)) FROM t'),
	"$machine|$machine",
	"every ID has machine id $machine");
is( $node->safe_psql('postgres',
		'SELECT min(snowflake_si_index(id)) >= 0 AND max(snowflake_si_index(id)) < 256 FROM t'),
	't',
	'every index is below 256');

# The accessors agree with the layout (doc/formats.md): MAB * 8192 + MID * 256
# + UIN, MAB in ms after 2024-01-01.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM t
	WHERE snowflake_si_timestamp(id) <> timestamptz '2024-01-01 00:00:00+00'
			+ (id::bigint >> 13) * interval '1 ms'
	   OR snowflake_si_machine(id) <> (id::bigint >> 8) & 31
	   OR snowflake_si_index(id) <> id::bigint & 255}),
	'0',
	'the accessors decode the bit layout');

# The capacity: never more than 256 IDs in one millisecond, from all the
# backends together.  The index restarts at 0 each millisecond and runs on
# without a gap.
check_capacity($node, $T, $total);

check_overlap($node);

# 8 backends ask for more than 256 IDs a millisecond, and so does a burst of
# 100 milliseconds' worth from one session: the capacity was hit.
check_capacity_stats($node, 'snowflake_si', $total, 100 * $T->{per_ms});

$node->stop;

done_testing();
