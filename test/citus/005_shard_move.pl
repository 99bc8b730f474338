# Shard moves while writers write.  A table keyed by each type (id T PRIMARY
# KEY DEFAULT T_new()), each type's tables their own colocation group;
# writer sessions on the coordinator, worker 1 and worker 2 insert committed
# batches into all five at once (CitusTest's writer procedure).  While they
# write, a shard of every table moves from worker 1 to worker 2 by logical
# replication (citus_move_shard_placement, 'force_logical': writes go on
# during the copy), then another from worker 2 to worker 1 with
# 'block_writes'.  The writers must go on after the moves; then: no writer
# failed (a duplicate would have failed its batch), every committed row is
# there (none lost in a move), no duplicate, and the shards are where they
# were moved to.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use UidTest qw(id_types);
use CitusTest;

my $per = 10;    # rows a batch in each table (uid60: 1,024 IDs a second per server)
my $batches = 10;

my ($coord, $w1, $w2) = citus_cluster();
my @types = id_types();
my @tables = map { "mv_$_" } @types;

create_writer($coord);
create_id_table($coord, "mv_$_", $_, 'w int, b int') for @types;

my @writers = (
	start_writer($coord, \@tables, 0, $per),
	start_writer($w1, \@tables, 1, $per),
	start_writer($w2, \@tables, 2, $per));
ok(wait_for_batches($coord, \@writers, $batches), 'the three writers write at once');

# Moves a shard of each table from $from to $to with $mode, none of the
# shards @$not; returns the shards moved.
sub move
{
	my ($from, $to, $mode, $not) = @_;
	my @moved;
	my $other = join ', ', 0, @{ $not // [] };
	my $t0 = time();
	for my $t (@tables)
	{
		my $shard = $coord->safe_psql(
			'postgres', qq{
			SELECT min(shardid) FROM citus_shards
			WHERE table_name = '$t'::regclass AND shardid NOT IN ($other)
			AND nodeport = } . $from->port);
		$coord->safe_psql('postgres',
			"SELECT citus_move_shard_placement($shard, '127.0.0.1', "
			  . $from->port
			  . ", '127.0.0.1', "
			  . $to->port
			  . ", '$mode')");
		push @moved, $shard;
	}
	note sprintf("%s: moved shards %s from %s to %s in %.1f s",
		$mode, join(', ', @moved), $from->name, $to->name, time() - $t0);
	return @moved;
}

my @logical = move($w1, $w2, 'force_logical');
my @blocking = move($w2, $w1, 'block_writes', \@logical);
ok(wait_for_batches($coord, \@writers, $batches), 'the writers write on after the moves');
stop_writers($coord, \@writers, 'during the moves');

# The node that holds shard $shard.
sub node_of
{
	my ($shard) = @_;
	return $coord->safe_psql('postgres',
		"SELECT nodeport FROM citus_shards WHERE shardid = $shard");
}

for my $i (0 .. $#types)
{
	check_no_duplicates($coord, $tables[$i], $types[$i]);
	is(node_of($logical[$i]), $w2->port, "$types[$i]: the shard moved by logical replication is on worker 2");
	is(node_of($blocking[$i]), $w1->port, "$types[$i]: the shard moved with block_writes is on worker 1");
}

done_testing();
