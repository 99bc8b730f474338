# Two servers with their own settings generate IDs of every type into one
# table, and logical replication (binary transfer, so every type's send and
# recv run) brings the first server's rows to the second, which also makes
# its own.  The unique constraints on the subscriber would stop replication
# at the first duplicate; none may occur (README guarantee 2).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $rows = 1000;    # per server and round: uid60 makes 1024 a second

my %node;
for my $n (1, 2)
{
	my $node = PostgreSQL::Test::Cluster->new("node$n");
	$node->init(allows_streaming => 'logical');
	$node->append_conf(
		'postgresql.conf', qq{
uid.partition = $n
uid.generator = $n
uid.cluster = $n
uid.medallion = '${n}b'
});
	$node->start;
	$node->safe_psql(
		'postgres', q{
		CREATE EXTENSION uid;
		CREATE TABLE t (
			s sno PRIMARY KEY, m muid UNIQUE NOT NULL, f snowflake_si UNIQUE NOT NULL,
			r revts8 UNIQUE NOT NULL, u uid60 UNIQUE NOT NULL, origin int NOT NULL);
		CREATE PROCEDURE gen(origin int, batches int, per int) LANGUAGE plpgsql AS $$
		BEGIN
			FOR i IN 1..batches LOOP
				INSERT INTO t SELECT sno_new(), muid_new(), snowflake_si_new(), revts8_new(),
									 uid60_new(), origin
				FROM generate_series(1, per);
				COMMIT;
			END LOOP;
		END $$;
	});
	$node{$n} = $node;
}

$node{1}->safe_psql('postgres', 'CREATE PUBLICATION ids FOR TABLE t');
$node{2}->safe_psql('postgres',
	"CREATE SUBSCRIPTION ids CONNECTION '"
	  . $node{1}->connstr
	  . " dbname=postgres' PUBLICATION ids WITH (binary = true)");
$node{2}->wait_for_subscription_sync($node{1}, 'ids');

# Both servers generate at the same time, in batches of 100 rows.
my @w = map { start_worker($node{$_}, "CALL gen($_, " . $rows / 100 . ", 100)") } 1, 2;
for my $n (1, 2)
{
	my ($rc, $out, $err) = finish_worker($w[ $n - 1 ]);
	is($rc, 0, "server $n generated its IDs") or diag $err;
}
$node{1}->wait_for_catchup('ids');

is( $node{2}->safe_psql(
		'postgres', 'SELECT origin, count(*) FROM t GROUP BY origin ORDER BY origin'),
	"1|$rows\n2|$rows",
	'the subscriber has both servers\' rows: replication applied every row');
is( $node{2}->safe_psql(
		'postgres', q{
		SELECT count(DISTINCT s) = count(*) AND count(DISTINCT m) = count(*)
		   AND count(DISTINCT f) = count(*) AND count(DISTINCT r) = count(*)
		   AND count(DISTINCT u) = count(*) FROM t}),
	't',
	'no ID of any type is made by both servers');
# The rows arrived intact: each carries its server's settings.
is( $node{2}->safe_psql(
		'postgres', q{
		SELECT count(*) FROM t
		WHERE sno_partition(s) <> origin OR muid_medallion(m) <> origin * 16 + 11
		   OR snowflake_si_machine(f) <> origin OR revts8_generator(r) <> origin
		   OR revts8_cluster(r) <> origin OR uid60_worker(u) <> origin}),
	'0',
	'every replicated ID decodes to its own server\'s settings');
# And equal to what the publisher has, value for value.
my $q = 'SELECT s, m, f, r, u FROM t WHERE origin = 1 ORDER BY s';
is($node{2}->safe_psql('postgres', $q), $node{1}->safe_psql('postgres', $q),
	'the replicated rows equal the publisher\'s');

$node{$_}->stop for 1, 2;

done_testing();
