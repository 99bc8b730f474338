# EXPLAIN of an INSERT into a distributed table keyed by each type (id T
# PRIMARY KEY DEFAULT T_new()), through the coordinator and through a
# worker.  Citus plans an INSERT .. VALUES by evaluating the DEFAULT on the
# node that plans it, to find the shard: a plain EXPLAIN calls the generator
# too (issue 37), and EXPLAIN VERBOSE shows the ID in the shard's query.
# That is recorded (how many IDs each EXPLAIN used up, from uid_stats(), and
# the ID it shows), not asserted: what is asserted is that the INSERT after
# it still works and that its ID is not the one the EXPLAIN used up, and at
# the end that the table holds no duplicate.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my ($coord, $w1) = citus_cluster();

sub issued
{
	my ($node, $type) = @_;
	return $node->safe_psql('postgres',
		"SELECT issued FROM uid_stats() WHERE type = '$type'");
}

for my $type (id_types())
{
	my $t = "ex_$type";
	create_id_table($coord, $t, $type, 'v int');
	for my $node ($coord, $w1)
	{
		my $what = "$type, through " . $node->name;
		my $before = issued($node, $type);
		my $plain = $node->safe_psql('postgres',
			"EXPLAIN (COSTS OFF) INSERT INTO $t (v) VALUES (1)");
		my $mid = issued($node, $type);
		my $verbose = $node->safe_psql('postgres',
			"EXPLAIN (COSTS OFF, VERBOSE) INSERT INTO $t (v) VALUES (2)");
		my $after = issued($node, $type);
		my ($shown) = $verbose =~ /VALUES \('([^']*)'::(?:public\.)?$type\b/;
		note "$what: EXPLAIN used up "
		  . ($mid - $before)
		  . ' IDs, EXPLAIN VERBOSE '
		  . ($after - $mid)
		  . (defined $shown ? " and shows the ID $shown" : ' and shows no ID')
		  . ":\n$verbose";

		my $r = $node->safe_psql('postgres',
			"INSERT INTO $t (v) VALUES (3) RETURNING id");
		isnt($r, '', "$what: the INSERT after the EXPLAINs works");
		isnt($r, $shown, "$what: and its ID is not the one EXPLAIN VERBOSE showed")
		  if defined $shown;
		is( $coord->safe_psql('postgres',
				"SELECT count(*) FROM $t WHERE id = '$shown'"),
			0,
			"$what: the ID EXPLAIN VERBOSE showed is in no row")
		  if defined $shown;
	}
	check_no_duplicates($coord, $t, $type);
}

done_testing();
