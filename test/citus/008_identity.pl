# Each node's identity comes from its Citus node group (pg_dist_local_group:
# the coordinator 0, workers from 1) when no uid identity is set or leased:
# sno's partition, muid's medallion, snowflake_si's machine id and uid60's
# worker are the group, revts8's generator and cluster are group % 64 and
# group / 64, and uid_identity() says each comes from citus.
#   1. The three nodes of the cluster.
#   2. The coordinator also holding shards (shouldhaveshards): an INSERT ..
#      SELECT between distributed tables generates on all three nodes at
#      once, no duplicate, each node's IDs with its own group.
#   3. A session opened on a node before the node is added to the cluster:
#      its IDs carry group 0 then (Citus's group of a node on its own), and
#      the new group after citus_add_node, in the same session.
#   4. A node removed and others added: group ids are never handed out
#      again (pg_dist_node), and the node added again after its removal
#      takes a new group that its IDs carry.
#   5. uid.generator set by hand on one worker (ALTER SYSTEM, reload) wins
#      over the group for the types it sets (snowflake_si, revts8's
#      generator, uid60): uid_identity() says 'setting'.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types poll_until);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my @types = id_types();

# 1.
for my $node ($coord, $w1, $w2)
{
	my $g = node_group($node);
	note $node->name . " is node group $g";
	check_identity($node, $g, $node->name);
}

# 2.
$coord->safe_psql('postgres',
	"SELECT citus_set_node_property('127.0.0.1', " . $coord->port . ", 'shouldhaveshards', true)");
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE src (k int, v int);
	SELECT create_distributed_table('src', 'k');
	INSERT INTO src SELECT g, g FROM generate_series(1, 3000) g;
});
is( $coord->safe_psql('postgres',
		"SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'src'::regclass"),
	3,
	'with shouldhaveshards, the coordinator holds shards of a new table too');
for my $type (@types)
{
	my $t = "sh_$type";
	my $f = identity_field($type);
	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE $t (id $type, v int);
		SELECT create_distributed_table('$t', 'id');
	});
	my $before = $coord->safe_psql('postgres',
		"SELECT issued FROM uid_stats() WHERE type = '$type'");
	$coord->safe_psql('postgres',
		"INSERT INTO $t (id, v) SELECT " . generator_of($type) . ', v FROM src');
	cmp_ok(
		$coord->safe_psql('postgres',
			"SELECT issued FROM uid_stats() WHERE type = '$type'"),
		'>', $before,
		"$type: the coordinator generated in an INSERT .. SELECT between distributed tables");
	check_no_duplicates($coord, $t, "$type, generated on the three nodes");
	is( $coord->safe_psql('postgres',
			"SELECT string_agg(DISTINCT $f, ',' ORDER BY $f) FROM $t"),
		join(',', sort map { expected_identity($_)->{$type} } 0, 1, 2),
		"$type: the IDs carry the groups of the three nodes");
}

# 3.
my $w3 = citus_node('worker3', 3);
$w3->safe_psql('postgres', 'CREATE EXTENSION uid');
my $session = $w3->background_psql('postgres', on_error_stop => 0);
is(node_group($w3), 0, 'a node not yet added says group 0');
check_identity($session, 0, 'worker3, before it is added');
my $g3 = add_node($coord, $w3);
note "worker3 is node group $g3";
is(node_group($w3), $g3, "worker3 says group $g3 once added");
check_identity($session, $g3, 'worker3, the session opened before it was added');
check_identity($w3, $g3, 'worker3, a new session');
$session->quit;

# 4.
my @given = split /\n/,
  $coord->safe_psql('postgres', 'SELECT groupid FROM pg_dist_node ORDER BY groupid');
$coord->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $w3->port . ')');
note 'worker3 says group ' . node_group($w3) . ' once removed';
my $w4 = citus_node('worker4', 4);
my $g4 = add_node($coord, $w4);
my $g3b = add_node($coord, $w3);
note "worker4 is node group $g4; worker3, added again, $g3b";
ok(!(grep { $_ == $g4 || $_ == $g3b } @given) && $g4 != $g3b,
	"no group id is handed out twice (before: @given; then $g4 and $g3b)");
is( $coord->safe_psql('postgres',
		'SELECT count(*) = count(DISTINCT groupid) FROM pg_dist_node'),
	't', 'pg_dist_node: one group a node');
check_identity($w4, $g4, 'worker4');
check_identity($w3, $g3b, 'worker3, added again');

# 5.
my $g2 = node_group($w2);
my $hand = 17;    # within every type's range, and no node's group
$w2->safe_psql('postgres', "ALTER SYSTEM SET uid.generator = $hand");
$w2->safe_psql('postgres', 'SELECT pg_reload_conf()');
# a new session has it once the postmaster has taken the reload (uid_config()
# first loads uid, which defines the setting)
ok( poll_until(
		'the reload of uid.generator',
		sub {
			$w2->safe_psql('postgres',
				q{SELECT count(*) FROM uid_config(); SELECT current_setting('uid.generator')}) =~
			  /\n$hand$/;
		}),
	"worker2: uid.generator is $hand after the reload");
my %want = (
	'snowflake_si machine id' => "$hand|setting",
	'revts8 generator' => "$hand|setting",
	'uid60 worker' => "$hand|setting",
	'sno partition' => "$g2|citus",
	'muid medallion' => "$g2|citus");
my %source = identity_sources($w2);
is($source{$_} // 'no row', $want{$_}, "worker2, uid.generator $hand by hand: uid_identity() $_")
  for sort keys %want;
my $ids = identity_of($w2);
is($ids->{snowflake_si}, $hand, "worker2: a snowflake_si ID carries the machine id set by hand");
like($ids->{revts8}, qr/^$hand\|/, "worker2: a revts8 ID carries the generator set by hand");
is($ids->{uid60}, $hand, "worker2: a uid60 ID carries the worker set by hand");
is($ids->{sno}, $g2, "worker2: a sno ID still carries group $g2 (uid.generator is not sno's)");
is($ids->{muid}, $g2, "worker2: a muid ID still carries group $g2 (uid.generator is not muid's)");

done_testing();
