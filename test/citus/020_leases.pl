# Leased identities on Citus (doc/citus.md, "Leases on Citus"): a lease
# wins over the node group, and uid_citus_check() finds a lease that
# equals another node's group.
#   1. Worker 1 alone leases from a pool on the coordinator's database
#      (session_preload_libraries = 'uid', uid.coordinator, uid.pool): its
#      IDs carry its lease id (the pool's first, 0), uid_identity() says
#      'lease' there, the other nodes keep their groups; the coordinator's
#      group is 0 too, and uid_citus_check() fails naming the identity the
#      two share.
#   2. Every node leases: three different lease ids, an INSERT .. SELECT
#      between distributed tables generating on both workers and writers
#      through the coordinator and both workers at once make no duplicate,
#      each node's IDs carry its own lease id, and uid_citus_check() passes.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types carried_lease_id poll_until);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my $pool_conninfo = 'host=127.0.0.1 port=' . $coord->port . ' dbname=postgres';

# The pool's database needs fsync (PostgreSQL::Test::Cluster turns it off).
ok(reload_setting($coord, 'fsync', 'on',
		sub { $coord->safe_psql('postgres', 'SHOW fsync') eq 'on' }),
	'the coordinator, where the pool is, has fsync on');

# Leases the identity of $node from the pool on the coordinator's database.
sub lease_on
{
	my ($node) = @_;
	my $loaded = sub {
		$node->safe_psql('postgres', 'SHOW session_preload_libraries') eq 'uid';
	};
	ok(reload_setting($node, 'session_preload_libraries', q{'uid'}, $loaded),
		$node->name . ': uid in session_preload_libraries');
	$node->safe_psql('postgres', "ALTER SYSTEM SET uid.pool = 'citus'");
	my $leased = sub {
		$node->safe_psql('postgres',
			q{SELECT bool_and(source = 'lease') FROM uid_identity()}) eq 't';
	};
	ok(reload_setting($node, 'uid.coordinator', qq{'$pool_conninfo'}, $leased),
		$node->name . ': uid_identity() says every type leases');
	return;
}

# The lease id of $node once it holds one (its first ID claims it).
sub lease_id
{
	my ($node) = @_;
	$node->safe_psql('postgres', 'SELECT sno_new()');
	return $node->safe_psql('postgres',
		q{SELECT min(lease_id) FROM uid_identity() WHERE source = 'lease'});
}

# 1. Worker 1 alone leases.
lease_on($w1);
my $id1 = lease_id($w1);
is($id1, '0', 'worker 1 holds the pool\'s first lease id, 0: the coordinator\'s group');
for my $type (id_types())
{
	my $carried = carried_lease_id($type);
	is( $w1->safe_psql('postgres',
			"SELECT $carried FROM (SELECT " . generator_of($type) . " AS id) g"),
		$id1,
		"$type: worker 1's IDs carry its lease id, not its group (1)");
}
is( $w2->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT source, ',') FROM uid_identity()}),
	'citus', 'worker 2 keeps its group');
my ($rc, $out, $err) = $coord->psql('postgres', 'SELECT uid_citus_check()');
isnt($rc, 0, 'uid_citus_check() fails when a lease equals another node\'s group');
like($err, qr/do not agree/, '... saying the nodes do not agree');
like($err, qr/identity: snowflake_si on 127\.0\.0\.1:\d+: machine id 0 \(lease\)/,
	'... naming worker 1\'s leased identity')
  or diag $err;

# 2. Every node leases.
lease_on($coord);
lease_on($w2);
my %ids = ($coord->name => lease_id($coord), $w1->name => $id1, $w2->name => lease_id($w2));
note 'lease ids: ' . join ', ', map { "$_ $ids{$_}" } sort keys %ids;
my %seen;
$seen{$_}++ for values %ids;
is(scalar keys %seen, 3, 'the three nodes hold three lease ids');

create_writer($coord);
for my $type (id_types())
{
	my $n = $type eq 'uid60' ? 200 : 20000;
	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE src_$type (k bigint PRIMARY KEY, v int);
		SELECT create_distributed_table('src_$type', 'k');
		INSERT INTO src_$type SELECT g, g FROM generate_series(1, $n) g;
	});
	create_id_table($coord, "dst_$type", $type, 'v int', unique => 0);
	$coord->safe_psql('postgres', "INSERT INTO dst_$type (v) SELECT v FROM src_$type");
	create_id_table($coord, "mx_$type", $type, 'w int, b int', unique => 0);
	my $per = $type eq 'uid60' ? 5 : 100;
	my @writers = map { start_writer($_->[0], ["mx_$type"], $_->[1], $per) }
	  ([ $coord, 0 ], [ $w1, 1 ], [ $w2, 2 ]);
	ok(wait_for_batches($coord, \@writers, 5), "$type: three leased writers wrote at once");
	stop_writers($coord, \@writers, $type);
	check_no_duplicates($coord, "dst_$type", $type);
	check_no_duplicates($coord, "mx_$type", $type);
	my $carried = carried_lease_id($type);
	my $lease_ids = join ',', sort { $a <=> $b } values %ids;
	is( $coord->safe_psql(
			'postgres', qq{
			SELECT string_agg(DISTINCT c::text, ',' ORDER BY c::text)
			FROM (SELECT $carried AS c FROM dst_$type UNION ALL SELECT $carried FROM mx_$type) x}),
		join(',', sort values %ids),
		"$type: every ID carries a node's lease id ($lease_ids)");
}
like($coord->safe_psql('postgres', 'SELECT uid_citus_check()'),
	qr/^3 nodes agree/, 'uid_citus_check() passes when every node leases');

done_testing();
