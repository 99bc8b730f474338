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
#
# Then uid_maintain_partitions() on a distributed table whose rows the
# writers put in its DEFAULT partition (it had no other): it makes this
# month's partition and the next and moves the rows there, none lost, none
# twice.  (0.7.0 before this test: "a column definition list is required
# for functions returning record", from the check for rows in the default;
# its batches picked rows by ctid, which names no row of a distributed table.)

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

for my $type (qw(sno snowflake_si))
{
	my $t = "mt_$type";
	my $gen = generator_of($type);

	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE $t (id $type NOT NULL DEFAULT $gen, w int, b int) PARTITION BY RANGE (id);
		CREATE TABLE ${t}_default PARTITION OF $t DEFAULT;
		SELECT create_distributed_table('$t', 'id');
	});
	my @writers = (start_writer($w1, [$t], 1, $per), start_writer($w2, [$t], 2, $per));
	ok(wait_for_batches($coord, \@writers, $batches),
		"$type: the writers filled the default partition of $t");
	my $rows = stop_writers($coord, \@writers, $type);
	my $total = $rows->{1} + $rows->{2};
	my $before = $coord->safe_psql('postgres', "SELECT count(*), sum(w::bigint * 1000000 + b) FROM $t");

	my $done = $coord->safe_psql('postgres',
		"SELECT string_agg(action, ',' ORDER BY action) FROM uid_maintain_partitions('$t', premake => 1, width => '1 month')");
	like($done, qr/move/, "$type: uid_maintain_partitions() moved the default's rows ($done)");
	is($coord->safe_psql('postgres', "SELECT count(*) FROM ONLY ${t}_default"),
		0, "$type: the default partition of a distributed table is empty after it");
	is($coord->safe_psql('postgres', "SELECT count(*), sum(w::bigint * 1000000 + b) FROM $t"),
		$before, "$type: all $total rows are still there, the same ones");
	check_no_duplicates($coord, $t, $type);
	# (a range partition holds only rows within its bounds)
	is( $coord->safe_psql('postgres',
			"SELECT count(*) FROM $t WHERE tableoid = '${t}_default'::regclass"),
		0,
		"$type: every row is in a partition of its period");
}

# The same maintenance of a distributed table owned by a plain role, called
# by a superuser: it runs as the owner (Citus then reaches the workers as
# that role), moves the rows, and the new partitions are the owner's.
{
	my $t = 'mt_owned';
	$coord->safe_psql(
		'postgres', qq{
		CREATE ROLE citus_app LOGIN;
		GRANT CREATE ON SCHEMA public TO citus_app;
		CREATE TABLE $t (id sno NOT NULL, w int) PARTITION BY RANGE (id);
		CREATE TABLE ${t}_default PARTITION OF $t DEFAULT;
		SELECT create_distributed_table('$t', 'id');
		ALTER TABLE $t OWNER TO citus_app;
		INSERT INTO $t SELECT sno_from_parts(now() - i * interval '1 second', 0, 1, i), i
		FROM generate_series(1, 100) i;
	});
	# (ALTER TABLE ... OWNER TO left the default partition the superuser's)
	my ($rc, $out, $err) = $coord->psql('postgres',
		"SELECT * FROM uid_maintain_partitions('$t', premake => 1, width => '1 month')");
	like($err, qr/permission denied for table public\.${t}_default.*HINT:  Give the partition to the table's owner: ALTER TABLE public\.${t}_default OWNER TO citus_app;/s,
		"owned: a default partition of another role is refused, saying how to give it to the owner");
	$coord->safe_psql('postgres', "ALTER TABLE ${t}_default OWNER TO citus_app");
	my $done = $coord->safe_psql('postgres',
		"SELECT string_agg(action, ',' ORDER BY action) FROM uid_maintain_partitions('$t', premake => 1, width => '1 month')");
	like($done, qr/move/, "owned: a superuser's uid_maintain_partitions() moved the rows ($done)");
	is( $coord->safe_psql('postgres',
			"SELECT count(*), count(*) FILTER (WHERE tableoid = '${t}_default'::regclass) FROM $t"),
		'100|0', 'owned: all 100 rows are in partitions of their period');
	is( $coord->safe_psql(
			'postgres', qq{
			SELECT string_agg(DISTINCT pg_get_userbyid(c.relowner), ',')
			FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			WHERE i.inhparent = '$t'::regclass}),
		'citus_app', "owned: the partitions are the table's owner's");
}

done_testing();
