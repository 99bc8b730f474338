# Every session Citus opens on a worker is another node's task (issue 50).
# A worker without metadata (stop_metadata_sync_to_node(), or added with
# citus.enable_metadata_sync off) has an empty pg_dist_node and a group that
# reads 0, the coordinator's: uid refuses there in a session Citus opened,
# which runs for another node.  It took only "citus_internal gpid=N" for
# one, but run_command_on_workers() sets "citus_run_command gpid=N" on its
# sessions, and the rebalancer "citus_rebalancer gpid=N": those made the
# coordinator's IDs.  Here the coordinator and run_command_on_workers() on
# both workers make 100,000 sno and snowflake_si IDs each at once, into a
# local table of each node; taking only "citus_internal" for a task, worker
# 1 (no metadata) made the coordinator's IDs (here: 75,790 snowflake_si and
# 80,100 sno of worker 1's 100,000 each were the coordinator's too; a review
# counted 170,356 duplicate snowflake_si of 400,000).  Now run_command_on_workers() fails
# on worker 1 with uid's refusal (55000)
# and no ID is made in common; worker 2 (metadata synced) generates with
# its group.  A session on worker 1 named as each kind of session Citus
# opens refuses (a shard move's or split's logical replication runs as
# its subscription, "citus_shard_..."); one named otherwise generates (the
# documented direct session); metadata synced again, run_command_on_workers()
# generates on worker 1 with its group.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(attempt start_worker finish_worker);
use CitusTest;

my $n = 100000;
my ($coord, $w1, $w2) = citus_cluster();
my $w1addr = "'127.0.0.1', " . $w1->port;

# On each node, its own: ids (a local table) and gen(n, at), which waits
# until at and makes n IDs of each type into it.
for my $node ($coord, $w1, $w2)
{
	$node->safe_psql(
		'postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE TABLE ids (s sno, f snowflake_si);
		CREATE FUNCTION gen(n int, at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
		BEGIN
			PERFORM pg_sleep_until(at);
			INSERT INTO ids SELECT sno_new(), snowflake_si_new() FROM generate_series(1, n);
			RETURN n || ' made';
		END $$;
	});
}

$coord->safe_psql('postgres', "SELECT stop_metadata_sync_to_node($w1addr)");
is($w1->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group'),
	'0', 'worker 1 has no metadata: it says group 0, the coordinator\'s');

# Both start at one instant of the one clock of this machine.
my $at = $coord->safe_psql('postgres', q{SELECT clock_timestamp() + interval '3 s'});
my $local = start_worker($coord, "SELECT gen($n, '$at')");
my $remote = start_worker($coord,
	"SELECT nodeport || '|' || success || '|' || result FROM run_command_on_workers(\$\$SELECT gen($n, '$at')\$\$) ORDER BY nodeport"
);
my ($rc, $out, $err) = finish_worker($local);
is($rc, 0, 'the coordinator made its IDs') or diag $err;
($rc, $out, $err) = finish_worker($remote);
is($rc, 0, 'run_command_on_workers() returned') or diag $err;
my %result = map { my ($port, $rest) = split /\|/, $_, 2; ($port => $rest) } split /\n/, $out;
note "run_command_on_workers(): $_ $result{$_}" for sort keys %result;

# IDs made both on the coordinator and on worker 1.
my %made = map { $_ => 1 } split /\n/, $coord->safe_psql('postgres', 'SELECT f FROM ids');
my %made_s = map { $_ => 1 } split /\n/, $coord->safe_psql('postgres', 'SELECT s FROM ids');
my @w1f = split /\n/, $w1->safe_psql('postgres', 'SELECT f FROM ids');
my @w1s = split /\n/, $w1->safe_psql('postgres', 'SELECT s FROM ids');
is(scalar(grep { $made{$_} } @w1f), 0,
	'no snowflake_si ID made by both the coordinator and worker 1 (' . scalar(@w1f) . ' on worker 1)');
is(scalar(grep { $made_s{$_} } @w1s), 0,
	'no sno ID made by both the coordinator and worker 1 (' . scalar(@w1s) . ' on worker 1)');
like(
	$result{ $w1->port } // 'no result',
	qr/^false\|.*this Citus worker has no metadata: its node group reads 0, the coordinator's/,
	'run_command_on_workers() on worker 1 fails with uid\'s refusal');
is($result{ $w2->port } // 'no result', "true|$n made", 'run_command_on_workers() on worker 2 made its IDs');
is( $w2->safe_psql(
		'postgres', q{SELECT string_agg(DISTINCT snowflake_si_machine(f, 8) || '/' || sno_partition(s), ',') FROM ids}),
	'2/2', '... with its group, 2');

# Each kind of session Citus opens, on worker 1; and one it does not.
for my $app (
	'citus_internal gpid=10000012345', 'citus_run_command gpid=10000012345',
	'citus_rebalancer gpid=10000012345', 'citus_shard_move_subscription_10')
{
	for my $gen ('snowflake_si_new()', 'sno_new()')
	{
		my $r = attempt($w1, "SET application_name = '$app'; SELECT $gen");
		is($r->{sqlstate} // "none: $r->{out}", '55000', "worker 1, application_name '$app': $gen refuses");
	}
}
is( $w1->safe_psql(
		'postgres', q{SET application_name = 'psql'; SELECT snowflake_si_machine(snowflake_si_new(), 8)}),
	'0', 'worker 1, a session of its own: generates with group 0 (uid cannot tell it from a server on its own)');

# Metadata synced again: run_command_on_workers() generates there, with the group.
$coord->safe_psql('postgres', "SELECT start_metadata_sync_to_node($w1addr)");
$w1->safe_psql('postgres', 'TRUNCATE ids');
is( $coord->safe_psql(
		'postgres',
		"SELECT success || '|' || result FROM run_command_on_workers(\$\$SELECT gen(1000, now())\$\$) WHERE nodeport = "
		  . $w1->port),
	'true|1000 made',
	'metadata synced again: run_command_on_workers() makes IDs on worker 1');
is( $w1->safe_psql(
		'postgres', q{SELECT string_agg(DISTINCT snowflake_si_machine(f, 8) || '/' || sno_partition(s), ',') FROM ids}),
	'1/1', '... with its group, 1');

done_testing();
