# citus_add_node while every node generates.  A table keyed by each type
# (id T PRIMARY KEY DEFAULT T_new()); writer sessions on the coordinator,
# worker 1 and worker 2 insert committed batches into all five at once
# (CitusTest's writer procedure).  While they write:
#   - a third worker is started with uid created, and a session on it
#     generates into local tables of its own in committed batches (each
#     batch a transaction) before, during and after the add;
#   - the worker is added (citus_add_node): a new node group;
#   - a writer session on it joins the others (MX: it makes the IDs), and
#     a shard of each table moves to it from worker 1 (block_writes: the
#     writes to that shard wait for the move; 005 moves by logical
#     replication), so that it takes the others' rows too.
# Checked: no writer failed (a duplicate would have failed its batch),
# every committed row is there, no duplicate ID, each writer's IDs carry
# its node's group (the new worker's its new group), the moved shards are
# on the new worker with rows in them; and the local session's IDs carry
# group 0 (the group of a node on its own, the coordinator's: no cluster
# yet) until the add and the new group from then on, never 0 again, each
# batch that began after the add returned with the new group.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use UidTest qw(id_types poll_while_running start_worker finish_worker);
use CitusTest;

my $per = 10;    # rows a batch in each table (uid60: 1,024 IDs a second per server)
my $batches = 3;

my ($coord, $w1, $w2) = citus_cluster();
my @types = id_types();
my @tables = map { "ad_$_" } @types;

create_writer($coord);
create_id_table($coord, "ad_$_", $_, 'w int, b int') for @types;

my @writers = (
	start_writer($coord, \@tables, 0, $per),
	start_writer($w1, \@tables, 1, $per),
	start_writer($w2, \@tables, 2, $per));
ok(wait_for_batches($coord, \@writers, $batches), 'the three writers write at once');

# The new worker, and its local session: lctl says stop; loc_T holds the
# IDs of type T it made, batch b.
my $w3 = citus_node('worker3', 3);
$w3->safe_psql('postgres',
	'CREATE EXTENSION uid; CREATE TABLE lctl (stop bool NOT NULL); INSERT INTO lctl VALUES (false);'
	  . join('', map { "CREATE TABLE loc_$_ (id $_ DEFAULT " . generator_of($_) . ', b int);' } @types)
	  . q{
	CREATE PROCEDURE local_writer(per int, INOUT batches int DEFAULT 0) LANGUAGE plpgsql AS $$
	DECLARE
		t text;
	BEGIN
		WHILE NOT (SELECT stop FROM lctl) LOOP
			FOREACH t IN ARRAY ARRAY['} . join("', '", @types) . q{'] LOOP
				EXECUTE format('INSERT INTO %I (b) SELECT $1 FROM generate_series(1, $2)', 'loc_' || t)
					USING batches, per;
			END LOOP;
			batches := batches + 1;
			COMMIT;
		END LOOP;
	END $$;
});
my $local = start_worker($w3, "CALL local_writer($per)");
my $batch_now = sub { $w3->safe_psql('postgres', 'SELECT coalesce(max(b), -1) FROM loc_uid60') };
ok(poll_while_running($w3, 'SELECT count(DISTINCT b) >= 3 FROM loc_uid60', [$local]),
	'worker3, not yet added: its local session generates');

my $g3 = add_node($coord, $w3);
my $at_add = $batch_now->();
note "worker3 is node group $g3; its local session was at batch $at_add when the add returned";
ok( poll_while_running($w3, 'SELECT count(DISTINCT b) >= ' . ($at_add + 5) . ' FROM loc_uid60', [$local]),
	'worker3: its local session generates on after the add');
$w3->safe_psql('postgres', 'UPDATE lctl SET stop = true');
my ($rc, $out, $err) = finish_worker($local);
is($rc, 0, 'worker3: the local session ended without an error') or diag $err;

push @writers, start_writer($w3, \@tables, 3, $per);
ok(wait_for_batches($coord, \@writers, $batches), 'the four writers write at once');

# A shard of each table from worker 1 to worker 3 while the writers write
# (the reference table ctl copied there first, as a move needs).
my $t0 = time();
$coord->safe_psql('postgres', 'SELECT replicate_reference_tables()');
note sprintf('reference tables copied in %.1f s', time() - $t0);
my @moved;
for my $t (@tables)
{
	my $shard = $coord->safe_psql('postgres',
		"SELECT min(shardid) FROM citus_shards WHERE table_name = '$t'::regclass AND nodeport = "
		  . $w1->port);
	$coord->safe_psql('postgres',
		"SELECT citus_move_shard_placement($shard, '127.0.0.1', "
		  . $w1->port
		  . ", '127.0.0.1', "
		  . $w3->port
		  . ", 'block_writes')");
	push @moved, $shard;
	note sprintf('%s: shard %d moved at %.1f s', $t, $shard, time() - $t0);
}
ok(wait_for_batches($coord, \@writers, $batches), 'the writers write on after the moves');
note sprintf('then %d batches more at %.1f s', $batches, time() - $t0);
stop_writers($coord, \@writers, 'while worker3 was added');

my %group = (0 => 0, 1 => node_group($w1), 2 => node_group($w2), 3 => $g3);
for my $i (0 .. $#types)
{
	my ($type, $t) = ($types[$i], $tables[$i]);
	my $f = identity_field($type);
	check_no_duplicates($coord, $t, $type);
	is( $coord->safe_psql('postgres',
			"SELECT string_agg(DISTINCT w || ':' || $f, ',' ORDER BY w || ':' || $f) FROM $t"),
		join(',', map { "$_:" . expected_identity($group{$_})->{$type} } sort keys %group),
		"$type: each writer's IDs carry its node's group (worker3: $g3)");
	is( $coord->safe_psql('postgres', "SELECT nodeport FROM citus_shards WHERE shardid = $moved[$i]"),
		$w3->port, "$type: the moved shard is on worker3");
	cmp_ok(
		$w3->safe_psql(
			'postgres', "SELECT count(*) FROM ${t}_$moved[$i]"),
		'>',
		0,
		"$type: worker3's shard holds rows");

	# The local session: group 0, then $g3 for good; from two batches
	# after the one seen when the add returned (the next may have begun
	# before), $g3 only.
	my ($old, $new) = map { expected_identity($_)->{$type} } 0, $g3;
	my ($first_new, $last_old, $late_old, $other) = split /\|/,
	  $w3->safe_psql(
		'postgres', qq{
		SELECT min(b) FILTER (WHERE g = '$new'), max(b) FILTER (WHERE g = '$old'),
			   count(*) FILTER (WHERE g = '$old' AND b > $at_add + 1),
			   count(*) FILTER (WHERE g NOT IN ('$old', '$new'))
		FROM (SELECT b, $f AS g FROM loc_$type) x});
	note "$type, worker3's local session: group 0 up to batch $last_old, $g3 from batch $first_new";
	is($other, 0, "$type, worker3's local session: IDs of group 0 or $g3 only");
	ok(defined $last_old && $last_old ne '' && $first_new > $last_old,
		"$type, worker3's local session: group 0 before the add, $g3 after, never back");
	is($late_old, 0, "$type, worker3's local session: the batches begun after the add returned carry $g3");
}

done_testing();
