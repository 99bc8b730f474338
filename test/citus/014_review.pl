# What a hostile review of the node-group identity found (issue 37), each
# case as it was reproduced:
#   1. stop_metadata_sync_to_node() leaves a worker that holds shards with
#      group 0, the coordinator's, and no pg_dist_node: an INSERT .. SELECT
#      pushed down to it made 118,909 pairs of equal IDs with the
#      coordinator's.  Now Citus's tasks on such a worker refuse (55000),
#      uid_citus_check() refuses there, and once metadata is synced again
#      the worker generates with its group, no duplicate.
#   2. uid.cluster alone set on every node (a second Citus cluster told
#      apart by hand) made every node's revts8 generator 0: 137,759
#      duplicates in 300,000 rows.  Now the generator is the node group.
#   3. The layout uid_citus_check() noted refused snowflake_si in a
#      database without Citus on the same server after the node's layout
#      changed; now only databases with Citus are bound by it.
#   4. uid_citus_check() in a session with another DateStyle found the
#      coordinator's epoch unequal to itself.
#   5. With pg_dist_local_group empty, uid_identity() showed the default
#      identity the generators do not use; now it says they refuse.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(attempt);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();

$coord->safe_psql(
	'postgres', q{
	CREATE TABLE src (k int PRIMARY KEY, v int);
	SELECT create_distributed_table('src', 'k');
	INSERT INTO src SELECT g, g FROM generate_series(1, 20000) g;
	CREATE TABLE dst (k int, id snowflake_si DEFAULT snowflake_si_new(), r revts8 DEFAULT revts8_new());
	SELECT create_distributed_table('dst', 'k', colocate_with => 'src');
});

# 1. A worker without metadata.
my $w1addr = "'127.0.0.1', " . $w1->port;
$coord->safe_psql('postgres', "SELECT stop_metadata_sync_to_node($w1addr)");
is($w1->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group'),
	'0', 'stop_metadata_sync_to_node(): worker 1 says group 0');
my $r = attempt($coord, 'INSERT INTO dst (k) SELECT k FROM src');
is("$r->{sqlstate}|$r->{msg}",
	'55000|this Citus worker has no metadata: its node group reads 0, the coordinator\'s',
	'an INSERT .. SELECT whose tasks generate on it refuses');
$r = attempt($w1, 'SELECT uid_citus_check()');
like("$r->{sqlstate}|$r->{msg}", qr/^55000\|this node is not the coordinator/,
	'uid_citus_check() refuses on it');
$coord->safe_psql('postgres', "SELECT start_metadata_sync_to_node($w1addr)");
$coord->safe_psql('postgres', 'INSERT INTO dst (k) SELECT k FROM src');
check_no_duplicates($coord, 'dst', 'snowflake_si');
is( $coord->safe_psql(
		'postgres', q{SELECT string_agg(DISTINCT snowflake_si_machine(id, 8)::text, ',' ORDER BY snowflake_si_machine(id, 8)::text) FROM dst}),
	'1,2',
	'metadata synced again: the workers generate with their groups');

# 2. uid.cluster alone on every node.
for my $node ($coord, $w1, $w2)
{
	ok( reload_setting(
			$node, 'uid.cluster', 1,
			sub {
				$node->safe_psql('postgres',
					q{SELECT value FROM uid_identity() WHERE type = 'revts8' AND field = 'cluster'}) eq '1';
			}),
		$node->name . ': uid.cluster = 1');
}
$coord->safe_psql('postgres', 'TRUNCATE dst');
$coord->safe_psql('postgres', 'INSERT INTO dst (k) SELECT k FROM src');
is( $coord->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT r) FROM dst'),
	'0', 'uid.cluster alone: no duplicate revts8');
is( $coord->safe_psql(
		'postgres', q{SELECT string_agg(DISTINCT revts8_generator(r) || '/' || revts8_cluster(r), ',') FROM dst}),
	'1/1,2/1',
	'each worker\'s revts8 generator is its group, its cluster the hand setting');
is( $w2->safe_psql(
		'postgres', q{SELECT string_agg(field || '=' || value || ':' || source, ',' ORDER BY field)
			FROM uid_identity() WHERE type = 'revts8'}),
	'cluster=1:setting,generator=2:citus',
	'uid_identity() says so');

# 4. (before 3, which changes a layout) DateStyle.
like($coord->safe_psql('postgres', q{SET DateStyle = 'SQL, DMY'; SELECT uid_citus_check()}),
	qr/^3 nodes agree: snowflake_si epoch 2024-01-01 00:00:00\.000\+00, index width 8/,
	'uid_citus_check() agrees in a session with DateStyle SQL, DMY');

# 3. A database without Citus is not bound by the cluster's layout.
$w2->safe_psql('postgres', 'CREATE DATABASE plain');
$w2->safe_psql('plain', 'CREATE EXTENSION uid');
ok( reload_setting(
		$w2, 'uid.snowflake_si_index_bits', 6,
		sub {
			(attempt($w2, 'SELECT snowflake_si_new()')->{sqlstate} // '') eq '55000';
		}),
	'worker 2 at index width 6 refuses snowflake_si in its Citus database');
$r = attempt($w2, 'SELECT snowflake_si_new()');
like($r->{err}, qr/uid_citus_agree\(epoch, index_bits\)/, '... the hint names the way out for a node that left');
is($w2->safe_psql('plain', 'SELECT snowflake_si_new() IS NOT NULL'),
	't', 'a database without Citus on worker 2 generates');
reload_setting($w2, 'uid.snowflake_si_index_bits', undef,
	sub { !defined attempt($w2, 'SELECT snowflake_si_new()')->{sqlstate} });

# 5. An empty pg_dist_local_group, as reported.
is( $w2->safe_psql(
		'postgres', q{
		BEGIN;
		DELETE FROM pg_dist_local_group;
		SELECT string_agg(DISTINCT source || ':' || several_servers_safe, ',') FROM uid_identity()
			WHERE type IN ('sno', 'snowflake_si');
		ROLLBACK;}),
	'citus:false',
	'with pg_dist_local_group empty, uid_identity() says the types that take the group refuse');

done_testing();
