# A distributed table partitioned by ID time, for each type: a table
# PARTITION BY RANGE (id) with id T PRIMARY KEY DEFAULT T_new(), distributed
# by its ID, then uid_create_partitions() on the coordinator makes three
# monthly partitions (last month, this month, next month), which Citus
# distributes as partitions of the table; a second call makes none.  A row
# with last month's first ID (T_boundary) is inserted by hand; writer
# sessions on worker 1 and worker 2 insert committed batches at once
# (CitusTest's writer procedure).  Then: no writer failed, every row is
# there, no duplicate, and each partition holds exactly the rows whose ID
# time falls in its month (rows land in the right partitions).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my $per = 50;
my $per_uid60 = 10;
my $batches = 10;

my ($coord, $w1, $w2) = citus_cluster();
create_writer($coord);

for my $type (id_types())
{
	my $t = "ev_$type";
	my $gen = generator_of($type);

	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE $t (id $type NOT NULL DEFAULT $gen, w int, b int, PRIMARY KEY (id))
			PARTITION BY RANGE (id);
		SELECT create_distributed_table('$t', 'id');
	});
	my @parts = map { [ split /\|/ ] } split /\n/,
	  $coord->safe_psql('postgres',
		"SELECT partition, from_time, to_time FROM uid_create_partitions('$t', 3, now() - interval '1 month')"
	  );
	is(scalar @parts, 3, "$type: uid_create_partitions() made three partitions")
	  or diag explain \@parts;
	is( $coord->safe_psql('postgres',
			"SELECT count(*) FROM uid_create_partitions('$t', 3, now() - interval '1 month')"),
		0,
		"$type: a second call makes none");
	is( $coord->safe_psql(
			'postgres', qq{
			SELECT count(*) FROM pg_dist_partition
			WHERE logicalrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = '$t'::regclass)}
		),
		3,
		"$type: Citus distributed the partitions");

	$coord->safe_psql('postgres',
		"INSERT INTO $t (id, w, b) VALUES (${type}_boundary('$parts[0][1]'), -1, 0)");
	my $n = $type eq 'uid60' ? $per_uid60 : $per;
	my @writers = (start_writer($w1, [$t], 1, $n), start_writer($w2, [$t], 2, $n));
	ok(wait_for_batches($coord, \@writers, $batches),
		"$type: the writers on worker 1 and worker 2 wrote at once");
	my $rows = stop_writers($coord, \@writers, $type);

	check_no_duplicates($coord, $t, $type);
	my $total = 1 + $rows->{1} + $rows->{2};
	my $in_parts = 0;
	for my $p (@parts)
	{
		my ($part, $from, $to) = @$p;
		my ($count, $outside) = split /\|/,
		  $coord->safe_psql(
			'postgres', qq{
			SELECT count(*), count(*) FILTER (WHERE NOT (${type}_timestamp(id) >= '$from'
				AND ${type}_timestamp(id) < '$to'))
			FROM $part});
		note "$type: $part ($from to $to) holds $count rows";
		is($outside, 0, "$type: every row of $part is of its month");
		$in_parts += $count;
	}
	is($in_parts, $total, "$type: the partitions hold all $total rows");
	is( $coord->safe_psql('postgres',
			"SELECT count(*) FROM $parts[0][0] WHERE w = -1"),
		1,
		"$type: last month's first ID is in last month's partition");
}

done_testing();
