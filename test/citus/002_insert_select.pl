# INSERT .. SELECT between distributed tables, which Citus runs as a task
# per shard of the source on the node that holds it: the generator runs
# inside those tasks, on both workers at once (with no uid setting, every
# node had the same identity: issue 37 counted 189,981 duplicate
# snowflake_si IDs in 400,000 rows).  For each type, four statements
# from a source table of $rows rows (uid60: $rows_uid60, its 1,024 IDs a
# second per server), one after the other, each once the clock has passed
# the tick of every ID made before:
#   1. INSERT INTO dst (id, v) SELECT T_new(), v FROM src   (repartitioned
#      by the ID: the SELECT's tasks make the IDs);
#   2. INSERT INTO dst (v) SELECT v FROM src                 (the DEFAULT);
#   3. INSERT INTO dstk (k, v) SELECT k, v FROM src          (into a table
#      distributed by k and colocated with src, the ID a DEFAULT column that
#      is not the distribution key: Citus 14 repartitions this one too,
#      for the volatile DEFAULT);
#   4. INSERT INTO dst (v) SELECT v FROM src LIMIT n       (a LIMIT: Citus
#      pulls the SELECT's rows to the coordinator and sends them on to
#      dst's shards, but the DEFAULT runs in the SELECT's tasks on the
#      workers, each shard's rows under the LIMIT pushed down to it).
# Checked: both workers generated in each statement (their uid_stats()
# counters), no duplicate among all the IDs, every row there, and each
# statement's IDs sort above the earlier statements' (time order across
# nodes).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my $rows = 100_000;
my $rows_uid60 = 4_000;

my ($coord, @workers) = citus_cluster();
my @types = id_types();

$coord->safe_psql(
	'postgres', qq{
	CREATE TABLE src (k int, v int);
	SELECT create_distributed_table('src', 'k');
	INSERT INTO src SELECT g, g FROM generate_series(1, $rows) g;
});

# IDs of $type issued by each worker so far.
sub issued
{
	my ($type) = @_;
	return map {
		$_->safe_psql('postgres', "SELECT issued FROM uid_stats() WHERE type = '$type'")
	} @workers;
}

# Runs statement $s (its SQL) and checks that both workers generated in it;
# notes Citus's plan and what each worker made.
sub statement
{
	my ($type, $s, $sql) = @_;
	my ($method) = $coord->safe_psql('postgres', "EXPLAIN (COSTS OFF) $sql") =~
	  /INSERT\/SELECT method: (.*)/;
	my @before = issued($type);
	$coord->safe_psql('postgres', $sql);
	my @made = map { $_ - shift @before } issued($type);
	note "$type, statement $s (INSERT/SELECT method: "
	  . ($method // 'pushdown') . "): $sql; "
	  . join(', ', map { "worker" . ($_ + 1) . " made $made[$_] IDs" } 0 .. $#made);
	ok($made[0] > 0 && $made[1] > 0, "$type, statement $s: both workers generated")
	  or diag "made: @made";
	return;
}

for my $type (@types)
{
	my $n = $type eq 'uid60' ? $rows_uid60 : $rows;
	my $gen = generator_of($type);
	my $where = "WHERE k <= $n";
	my ($dst, $dstk) = ("dst_$type", "dstk_$type");

	$coord->safe_psql(
		'postgres', qq{
		CREATE TABLE $dst (id $type DEFAULT $gen, v int, s int);
		SELECT create_distributed_table('$dst', 'id');
		CREATE TABLE $dstk (k int, id $type DEFAULT $gen, v int, s int);
		SELECT create_distributed_table('$dstk', 'k', colocate_with => 'src');
	});
	my $all = "(SELECT id, s FROM $dst UNION ALL SELECT id, s FROM $dstk) u";

	statement($type, 1, "INSERT INTO $dst (id, v, s) SELECT $gen, v, 1 FROM src $where");
	wait_past_ids($coord, $all, $type);
	statement($type, 2, "INSERT INTO $dst (v, s) SELECT v, 2 FROM src $where");
	wait_past_ids($coord, $all, $type);
	statement($type, 3, "INSERT INTO $dstk (k, v, s) SELECT k, v, 3 FROM src $where");
	wait_past_ids($coord, $all, $type);
	statement($type, 4, "INSERT INTO $dst (v, s) SELECT v, 4 FROM src $where LIMIT $n");

	my ($d12) = duplicates($coord, $dst);
	my ($d3) = duplicates($coord, $dstk);
	my ($dups, $count) = duplicates($coord, $all);
	note "$type: duplicate IDs: $d12 in statements 1, 2 and 4 (of "
	  . 3 * $n
	  . " IDs), $d3 in statement 3 (of $n), $dups in all four";
	is($dups, 0, "$type: no duplicate among the $count IDs the workers made");
	is($count, 4 * $n, "$type: every row is there");
	is(out_of_order($coord, $all, 's'), 0,
		"$type: each statement's IDs sort above the earlier statements'");
}

done_testing();
