# Many backends calling revts8_new() at once never get the same ID, each
# backend's IDs are strictly increasing in the type's default (time) order,
# and no millisecond holds more than the format's 64 IDs: past that the
# generator waits for the next millisecond (README, guarantees 1, 3 and
# 5).  revts8 has one timeline, like snowflake_si, but its bytes hold the
# timestamp bit-reversed (doc/formats.md): its default order is time order,
# and byte order (revts8_bytes_ops, the casts to bytea and bigint) is not.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use UidTest;

my $sessions = 8;
my $per_session = 200_000;
my $total = $sessions * $per_session;
my $generator = 42;
my $cluster = 9;
my $T = { name => 'revts8', seq => 'revts8_sequence', per_ms => 64 };

# The format holds 64,000 IDs a second: 1,600,000 of them take 25 s at
# least, however many backends ask for them.
my $node = PostgreSQL::Test::Cluster->new('revts8_concurrency');
$node->init;
$node->append_conf('postgresql.conf',
	"uid.generator = $generator\nuid.cluster = $cluster");
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id revts8 NOT NULL, s int NOT NULL, n int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
});

is( $node->safe_psql(
		'postgres', q{
	SELECT string_agg(setting, ',' ORDER BY name) FROM uid_config()
	WHERE name IN ('uid.generator', 'uid.cluster')}),
	"$cluster,$generator",
	"uid.generator is $generator and uid.cluster is $cluster");

my $started = time();
my $elapsed = run_released($node, $sessions,
	sub {
		my ($s) = @_;
		my $half = int($per_session / 2);

		# two parts: every session's first before every session's last
		[	"INSERT INTO t SELECT revts8_new(), $s, g FROM generate_series(1, $half) g",
			"INSERT INTO t SELECT revts8_new(), $s, g FROM generate_series($half + 1, $per_session) g"
		];
	});
note sprintf('%d IDs in %.2f s: %.0f IDs/s', $total, $elapsed, $total / $elapsed);

# Read at once, before the clock moves on much: a generator that borrowed
# ahead instead of waiting would have dated IDs in the future.
check_not_ahead($node, $T);
# Capacity and clock agree: the IDs fill at least total / 64 milliseconds,
# none of them ahead of the clock, so the run took that long.
cmp_ok($elapsed, '>', $total / (1000 * $T->{per_ms}) - 0.05,
	'the run took as long as 64 IDs a millisecond allow');

is( $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t'),
	"$total|$total",
	"$total IDs, all distinct");

# One timeline, even across the sessions' races: each session's IDs rise in
# the default btree order.
check_ids_by($node, 's');

is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM (SELECT s FROM t GROUP BY s HAVING count(*) = $per_session) x"
	),
	$sessions,
	"each session made $per_session IDs");

# All backends use one generator and cluster id, so only the shared state
# keeps their IDs apart: the uniqueness above is not a gift of those fields.
is( $node->safe_psql(
		'postgres', q{
	SELECT min(revts8_generator(id)), max(revts8_generator(id)),
		   min(revts8_cluster(id)), max(revts8_cluster(id)),
		   min(revts8_sequence(id)), max(revts8_sequence(id))
	FROM t}),
	"$generator|$generator|$cluster|$cluster|0|63",
	"every ID has generator $generator and cluster $cluster; sequences 0 to 63");

# The accessors agree with the layout (doc/formats.md), read from the 8 bytes
# as a big-endian integer L: sequence in bits 21..16, bits 15..10 zero,
# generator in 9..4, cluster in 3..0; and from_parts is their inverse.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM t
	WHERE revts8_sequence(id) <> (id::bigint >> 16) & 63
	   OR (id::bigint >> 10) & 63 <> 0
	   OR revts8_generator(id) <> (id::bigint >> 4) & 63
	   OR revts8_cluster(id) <> id::bigint & 15
	   OR id::bytea <> int8send(id::bigint)
	   OR revts8_from_parts(revts8_timestamp(id), revts8_sequence(id),
							revts8_generator(id), revts8_cluster(id)) <> id}),
	'0',
	'the accessors and casts decode the bit layout');
# The timestamp is bit-reversed into bits 63..22: timestamp bit i at bit
# 63 - i.  Summed bit by bit, so on a sample (every 1000th ID of each
# session).
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM t
	WHERE n % 1000 = 0
	  AND (SELECT sum(((id::bigint >> (63 - i)) & 1) << i)
		   FROM generate_series(0, 41) i)
		  <> extract(epoch FROM revts8_timestamp(id)) * 1000}),
	'0',
	'the timestamp is bit-reversed in the top 42 bits');
is( $node->safe_psql(
		'postgres',
		"SELECT min(revts8_timestamp(id)) >= to_timestamp($started - 1) FROM t"),
	't',
	'the IDs are dated at the time of the run');

# The capacity: never more than 64 IDs in one millisecond, from all the
# backends together.  The sequence restarts at 0 each millisecond and runs
# on without a gap.
check_capacity($node, $T, $total);

check_overlap($node);

# The default order is time order: sorted by it, (timestamp, sequence)
# rise strictly, so it is ORDER BY revts8_timestamp, revts8_sequence
# (generator and cluster are the same in every row).  Once through a sort
# and once through the unique index.
for my $plan ([ 'a sort', 'SET enable_indexscan = off; SET enable_bitmapscan = off;' ],
	[ 'the index', 'SET enable_seqscan = off; SET enable_sort = off;' ])
{
	my ($via, $set) = @$plan;
	is( $node->safe_psql(
			'postgres', qq{
		$set
		SELECT count(*) FROM (
			SELECT (revts8_timestamp(id), revts8_sequence(id))
				   <= lag((revts8_timestamp(id), revts8_sequence(id))) OVER (ORDER BY id) AS bad
			FROM t
		) x WHERE bad}),
		'0',
		"the default order is (timestamp, sequence) order, through $via");
}

# Byte order is not time order.  Within a millisecond the two agree (the
# sequence bits are not reversed), but across milliseconds the reversed
# timestamp scatters the IDs: from an odd millisecond to the next, bit 0
# of the timestamp, the top bit of the bytes, goes from 1 to 0.  So about
# half of the steps from one millisecond to the next go down in byte
# order.  revts8_bytes_ops agrees with the order of the bytes as bytea at
# every step; bigint, being signed, is a third order.
my ($steps, $ms_steps, $down_in_ms, $down, $bytea_disagrees, $bigint_down) =
  split /\|/,
  $node->safe_psql(
	'postgres', q{
	SELECT count(*),
		   count(*) FILTER (WHERE revts8_timestamp(p) <> revts8_timestamp(id)),
		   count(*) FILTER (WHERE revts8_timestamp(p) = revts8_timestamp(id)
								AND NOT p ~<~ id),
		   count(*) FILTER (WHERE p ~>~ id),
		   count(*) FILTER (WHERE (p ~<~ id) <> (p::bytea < id::bytea)
							   OR (p ~>~ id) <> (p::bytea > id::bytea)
							   OR (p ~<=~ id) <> (p::bytea <= id::bytea)
							   OR (p ~>=~ id) <> (p::bytea >= id::bytea)),
		   count(*) FILTER (WHERE p::bigint > id::bigint)
	FROM (SELECT id, lag(id) OVER (ORDER BY id) AS p FROM t) x
	WHERE p IS NOT NULL});
note "$steps steps in time order, $ms_steps from one millisecond to the next, "
  . "$down going down in byte order, $bigint_down as bigint";
is($down_in_ms, '0',
	'within a millisecond, byte order is time order (sequence order)');
cmp_ok($down, '>', $ms_steps / 4,
	'byte order is not time order: many consecutive IDs go down in revts8_bytes_ops'
);
is($bytea_disagrees, '0',
	'revts8_bytes_ops compares every consecutive pair as their bytea does');
cmp_ok($bigint_down, '>', 0, 'the bigint order is not time order either');

# Sorted by revts8_bytes_ops (its sort support abbreviates), the IDs come
# in the order of their bytes.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM (
		SELECT id::bytea <= lag(id::bytea) OVER (ORDER BY id USING ~<~) AS bad
		FROM t
	) x WHERE bad}),
	'0',
	'ORDER BY id USING ~<~ is the order of the bytes');

# 8 backends ask for more than 64 IDs a millisecond, and so does a burst of
# 100 milliseconds' worth from one session: the capacity was hit.
check_capacity_stats($node, 'revts8', $total, 100 * $T->{per_ms});

$node->stop;

done_testing();
