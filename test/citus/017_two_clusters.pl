# Two Citus clusters whose IDs meet (issue 50): both number their node
# groups from 0, so uid.cluster tells their revts8 IDs apart, and only where
# it is set on every node of every cluster.  Cluster A (a coordinator and
# worker A, moved to node group 65: removed, pg_dist_groupid_seq restarted,
# added again) and cluster B (a coordinator and worker B, group 1), with
# uid.cluster = 1 on every node of B:
#   - the recipe doc/citus.md gave before, uid.cluster on the second
#     cluster only: worker A's revts8 takes its group whole, generator 1 and
#     cluster 1 (65 = 1 + 64), worker B generator 1 (its group) and cluster
#     1 (the setting): one identity, so their IDs collide (190,955 of
#     400,000 in a review);
#   - the recipe now, uid.cluster on every node of every cluster (0 on A's):
#     each node's revts8 generator is its group and its cluster the
#     setting, so a group must fit the generator alone: worker A at 65
#     refuses revts8 (22023, naming the group and 0..63) and makes the
#     other types; at group 63 it generates, generator 63 and cluster 0,
#     beside B's cluster 1.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(attempt);
use CitusTest;

my ($coord_a, $w_a) = citus_cluster(workers => 1);

my $coord_b = citus_node('coordinatorB', 2);
my $w_b = citus_node('workerB', 3);
$coord_b->safe_psql('postgres', 'CREATE EXTENSION uid');
$coord_b->safe_psql('postgres',
	"SELECT citus_set_coordinator_host('127.0.0.1', " . $coord_b->port . ')');
is(add_node($coord_b, $w_b), 1, 'cluster B: worker B is node group 1');

# The revts8 generator|cluster an ID made on $node carries, or the error.
sub revts8_of
{
	my ($node) = @_;
	my $r = attempt($node, q{SELECT revts8_generator(id) || '|' || revts8_cluster(id) FROM revts8_new() id});
	return defined $r->{sqlstate} ? "$r->{sqlstate}|$r->{msg}" : $r->{out};
}

# uid.cluster on $node (undef: reset), in force in the record.
sub set_cluster
{
	my ($node, $value) = @_;
	ok( reload_setting(
			$node, 'uid.cluster', $value,
			sub {
				$node->safe_psql('postgres',
					q{SELECT source FROM uid_identity() WHERE type = 'revts8' AND field = 'cluster'}) eq
				  (defined $value ? 'setting' : 'citus');
			}),
		$node->name . ': uid.cluster ' . ($value // 'reset') . ' in force');
	return;
}

# Worker A into cluster A again as node group $g.
sub worker_a_at
{
	my ($g) = @_;
	$coord_a->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $w_a->port . ')');
	$coord_a->safe_psql('postgres', "ALTER SEQUENCE pg_catalog.pg_dist_groupid_seq RESTART $g");
	is(add_node($coord_a, $w_a), $g, "cluster A: worker A is node group $g");
	return;
}

set_cluster($_, 1) for $coord_b, $w_b;
is(revts8_of($w_b), '1|1', 'cluster B, uid.cluster 1: worker B\'s revts8 is generator 1, cluster 1');
is(revts8_of($coord_b), '0|1', '... its coordinator\'s generator 0, cluster 1');

# The recipe before: nothing set on cluster A.
worker_a_at(65);
is(revts8_of($w_a), '1|1',
	'uid.cluster on cluster B only: worker A at group 65 makes revts8 generator 1, cluster 1, worker B\'s identity');

# The recipe now: uid.cluster on every node of every cluster, 0 on A's.
set_cluster($_, 0) for $coord_a, $w_a;
is(revts8_of($coord_a), '0|0', 'uid.cluster 0 on cluster A: its coordinator\'s revts8 is generator 0, cluster 0');
is( revts8_of($w_a),
	'22023|Citus node group 65 does not fit type revts8 (0..63)',
	'worker A at group 65 refuses revts8: its group must fit the generator alone');
is( $w_a->safe_psql(
		'postgres', q{SELECT sno_partition(sno_new()) || '|' || uid60_worker(uid60_new())}),
	'65|65', '... and makes the others with its group (sno, uid60)');
worker_a_at(63);
is(revts8_of($w_a), '63|0', 'worker A at group 63: revts8 generator 63, cluster 0');

done_testing();
