# Which sessions uid takes for Citus's, on a Citus worker without metadata,
# without Citus (issue 50).  The catalog uid reads is Citus's two tables,
# made here by hand: pg_dist_local_group with its row 0 and pg_dist_node
# empty, as on a worker added with citus.enable_metadata_sync off or after
# stop_metadata_sync_to_node().  There a session that Citus opened runs for
# another node and the group 0 would be the coordinator's: uid refuses
# (55000).  Citus names every session it opens on another node in its
# namespace "citus_": its tasks "citus_internal gpid=N", run_command_on_*()
# "citus_run_command gpid=N", the rebalancer "citus_rebalancer gpid=N", a
# shard move's or split's logical replication its subscription,
# "citus_shard_...".  Taking only the first, uid let the others make IDs
# with group 0 (20 of these checks failed; test/citus/016 with Citus
# itself: the coordinator's IDs again).  A session named otherwise is one of the
# server's own (a server on its own reads the same catalog) and generates
# with group 0, as doc/citus.md says.  Each type that takes the group
# (no identity setting here) behaves alike.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(attempt id_types generator_calls);

my $node = PostgreSQL::Test::Cluster->new('worker');
$node->init;
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	SET allow_system_table_mods = on;
	CREATE TABLE pg_catalog.pg_dist_local_group (groupid int NOT NULL);
	INSERT INTO pg_catalog.pg_dist_local_group VALUES (0);
	CREATE TABLE pg_catalog.pg_dist_node (nodeid int, groupid int);
});

my %gen = generator_calls();
for my $app (
	'citus_internal gpid=10000012345', 'citus_run_command gpid=10000012345',
	'citus_rebalancer gpid=10000012345', 'citus_shard_move_subscription_10_20',
	'citus_shard_split_subscription_10')
{
	for my $type (id_types())
	{
		my $r = attempt($node, "SET application_name = '$app'; SELECT $gen{$type}");
		is( ($r->{sqlstate} // 'none') . '|' . ($r->{msg} // $r->{out}),
			"55000|this Citus worker has no metadata: its node group reads 0, the coordinator's",
			"application_name '$app': $type refuses");
	}
}
for my $app ('psql', 'citus', 'my_citus_app')
{
	for my $type (id_types())
	{
		my $r = attempt($node, "SET application_name = '$app'; SELECT $gen{$type} IS NOT NULL");
		is(($r->{sqlstate} // 'none') . '|' . $r->{out}, 'none|t', "application_name '$app': $type generates");
	}
}
is( $node->safe_psql(
		'postgres', q{SET application_name = 'psql'; SELECT snowflake_si_machine(snowflake_si_new(), 8) || '|' || sno_partition(sno_new())}),
	'0|0', '... with group 0');

# A worker with metadata (pg_dist_node lists the nodes): group 0 is the
# coordinator's own, and a session Citus opened there generates.
$node->safe_psql('postgres', 'INSERT INTO pg_catalog.pg_dist_node VALUES (1, 0)');
is( $node->safe_psql(
		'postgres',
		q{SET application_name = 'citus_run_command gpid=10000012345'; SELECT snowflake_si_machine(snowflake_si_new(), 8)}),
	'0', 'with pg_dist_node listing nodes: a session Citus opened generates with the group');

done_testing();
