# Writes through every node at once (Citus's MX: the metadata is on every
# node, so a client may write through a worker; the worker evaluates the
# DEFAULT itself).  For each type, a table mx_T (id T DEFAULT T_new(),
# w int, b int) distributed by its ID, with no unique constraint so that
# every duplicate is counted; writer sessions on worker 1, worker 2 and the
# coordinator insert committed batches into it at the same time
# (CitusTest's writer procedure: $per rows a batch, uid60 $per_uid60), until
# each has committed $batches batches since all of them were writing.
# Checked: no writer failed, every committed row is there, no node repeated
# its own IDs, and no duplicate ID among all of them.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my $per = 200;
my $per_uid60 = 20;
my $batches = 50;

my ($coord, $w1, $w2) = citus_cluster();
create_writer($coord);

for my $type (id_types())
{
	my $t = "mx_$type";
	my $n = $type eq 'uid60' ? $per_uid60 : $per;

	create_id_table($coord, $t, $type, 'w int, b int', unique => 0);
	my @writers = (
		start_writer($w1, [$t], 1, $n),
		start_writer($w2, [$t], 2, $n),
		start_writer($coord, [$t], 0, $n));
	ok(wait_for_batches($coord, \@writers, $batches),
		"$type: the writers on worker 1, worker 2 and the coordinator wrote at once");
	my $rows = stop_writers($coord, \@writers, $type);
	my ($dups, $count) = duplicates($coord, $t);
	note "$type: "
	  . join(', ', map { "writer $_ made $rows->{$_} rows" } sort keys %$rows)
	  . "; $dups duplicate IDs among $count";
	for my $w (sort keys %$rows)
	{
		my ($d) = duplicates($coord, $t, "w = $w");
		is($d, 0, "$type: writer $w repeated none of its own node's IDs");
	}
	is($dups, 0, "$type: no duplicate among the $count IDs of the three writers");
}

done_testing();
