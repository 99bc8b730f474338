# Every type distributed by Citus: a table keyed by each type (id T PRIMARY
# KEY DEFAULT T_new()), distributed by its ID (uid's hash opclasses), written
# through the coordinator and through each worker (Citus evaluates the
# DEFAULT on the node the client is connected to: INSERT .. VALUES, INSERT ..
# SELECT from a local source and COPY alike), in rounds: each round on one
# node, the next once the clock has passed the tick of every ID made before.
# No uid setting is touched.  Then: no duplicate ID, every row there, the
# IDs of each round sort above those of every earlier round whatever node
# made them (time order across nodes), and the three nodes' IDs carry three
# different identities.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my @types = id_types();
my $per = 100;

create_id_table($coord, "d_$_", $_, 'node text NOT NULL, round int NOT NULL') for @types;

# Round $r on $node, of one kind of statement: insert (INSERT .. SELECT from
# generate_series), values (a multi-row INSERT .. VALUES) or copy (COPY
# FROM STDIN).
sub round
{
	my ($node, $r, $kind) = @_;
	my $name = $node->name;
	for my $type (@types)
	{
		my $sql =
		    $kind eq 'insert'
		  ? "INSERT INTO d_$type (node, round) SELECT '$name', $r FROM generate_series(1, $per)"
		  : $kind eq 'values'
		  ? "INSERT INTO d_$type (node, round) VALUES "
		  . join(', ', map { "('$name', $r)" } 1 .. $per)
		  : "COPY d_$type (node, round) FROM STDIN;\n"
		  . join('', map { "$name\t$r\n" } 1 .. $per) . "\\.\n";
		$node->safe_psql('postgres', $sql);
	}
	return;
}

my @rounds = (
	[ $coord, 'insert' ], [ $w1, 'insert' ], [ $w2, 'values' ],
	[ $coord, 'copy' ], [ $w2, 'copy' ], [ $w1, 'values' ],
	[ $coord, 'values' ], [ $w2, 'insert' ], [ $w1, 'copy' ]);
for my $r (0 .. $#rounds)
{
	my ($node, $kind) = @{ $rounds[$r] };
	wait_past_ids($coord, "d_$_", $_) for @types;
	round($node, $r, $kind);
}
note 'rounds: ' . join ', ', map { $_->[0]->name . " $_->[1]" } @rounds;

for my $type (@types)
{
	my $t = "d_$type";
	my $f = identity_field($type);
	check_no_duplicates($coord, $t, "$type, every node");
	is($coord->safe_psql('postgres', "SELECT count(*) FROM $t"),
		$per * @rounds, "$type: every row is there");
	is(out_of_order($coord, $t, 'round'), 0,
		"$type: each round's IDs sort above every earlier round's, whatever node made them");
	is( $coord->safe_psql(
			'postgres', qq{
			SELECT count(DISTINCT node) || ' nodes, ' || count(DISTINCT ident) || ' identities'
			FROM (SELECT DISTINCT node, $f AS ident FROM $t) x}),
		'3 nodes, 3 identities',
		"$type: the IDs of the three nodes carry three identities");
	# each node's IDs carry one
	is( $coord->safe_psql(
			'postgres',
			"SELECT count(DISTINCT $f) FROM $t GROUP BY node ORDER BY 1 DESC LIMIT 1"),
		1,
		"$type: all the IDs one node made carry the same identity");
}

done_testing();
