# A server that takes over from another one's WAL with its clock behind:
# a base backup plus archived WAL restored (point-in-time recovery to the
# end of the archive), and an old primary rewound with pg_rewind, made a
# standby of the new primary and promoted.  In both the state file the
# server starts from is older than the WAL it replays: the backup's copy
# was taken early, and pg_rewind copies the new primary's file before that
# server has made its last IDs.  The generator fences each type past the
# lease replayed from WAL on its first generation after the start or the
# promotion, so every new ID of every type sorts after every ID in the
# tables it took over, whatever the clock says, and none repeats one
# (issue 12).  uid60 keeps its order to the second only: its new IDs are
# dated no earlier than the latest one there.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Copy;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my @types = id_types();

# New IDs made of each type after each takeover, each in its own
# transaction: muid takes one timestamp a transaction, so each is a fresh
# timestamp that may meet one made before.  (uid60 makes 1024 a second.)
my $new_ids = 1000;

# Rows a committed batch of the generating workers: uid60's 1024 a second
# bound its worker, the others make many more.
my %per_batch = (uid60 => 100);
$per_batch{$_} //= 200 for @types;

# Every server gets its settings written out, so that an ID that repeats
# comes from a lost high-water mark, not from a drawn partition or
# medallion that happens to differ (a restored copy carries the settings
# of the server it was taken from, as a replacement would).
my $settings = q{
uid.partition = 31
uid.generator = 31
uid.cluster = 3
uid.medallion = '1f3c'
};

# The extension, one table with a primary key per type, the generator
# procedure and the procedure that makes the new IDs after a takeover
# (create_id_tables).
sub setup_schema
{
	my ($node) = @_;

	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	create_id_tables($node);
	return;
}

# One worker a type, running gen until ctl says stop, or for $batches
# batches, with $pause seconds between batches.
sub start_gen
{
	my ($node, $batches, $pause) = @_;
	$batches //= 'NULL';
	$pause //= 0;
	return [
		map {
			start_worker($node,
				"CALL gen('$_', $per_batch{$_}, $batches, $pause)")
		} @types
	];
}

sub finish_gen
{
	my ($what, $w) = @_;
	for my $i (0 .. $#types)
	{
		my ($rc, $out, $err) = finish_worker($w->[$i]);
		is($rc, 0, "$what: the $types[$i] worker generated") or diag $err;
	}
	return;
}

# Runs the workers for $batches batches each, in phase $phase.
sub generate
{
	my ($node, $what, $phase, $batches) = @_;
	$node->safe_psql('postgres', "UPDATE ctl SET phase = $phase");
	finish_gen($what, start_gen($node, $batches));
	return;
}

# Waits until every type has at least $batches batches in phase $phase.
sub wait_batches
{
	my ($node, $phase, $batches, $w) = @_;
	my $cond = join ' AND ',
	  map {
		"(SELECT count(*) FROM t_$_ WHERE ph = $phase) >= $batches * $per_batch{$_}"
	  } @types;
	return poll_while_running($node, "SELECT $cond", $w);
}

#
# Part 1: point-in-time recovery of an early base backup plus archived WAL.
#
my $primary = PostgreSQL::Test::Cluster->new('pitr_primary');
$primary->init(has_archiving => 1, allows_streaming => 1);
$primary->append_conf('postgresql.conf', $settings);
$primary->start;
setup_schema($primary);

# The workers generate before, during and after the base backup, so that
# the backup's copy of the state file is early: the WAL after it holds
# many more IDs of every type.  A pause between batches keeps the WAL
# (archived, then replayed twice) to some tens of MB.
my $w = start_gen($primary, undef, 0.01);
ok(wait_batches($primary, 0, 2, $w), 'pitr: every type generates before the backup');
$primary->backup('early');
$primary->safe_psql('postgres', 'UPDATE ctl SET phase = 1');
# Many more IDs after the backup (uid60's 20 batches take about 2 s): a
# restored server whose clock, or stale state, is behind them runs into
# their time.
ok(wait_batches($primary, 1, 20, $w), 'pitr: every type generates after the backup');
$primary->safe_psql('postgres', 'UPDATE ctl SET stop = true');
finish_gen('pitr', $w);
my $original = row_counts($primary);
note "pitr: the primary has $original";

# Everything committed is in the archive once the segment holding the last
# commit is archived.
my $walfile = $primary->safe_psql('postgres',
	'SELECT pg_walfile_name(pg_current_wal_lsn())');
$primary->safe_psql('postgres', 'SELECT pg_switch_wal()');
ok( $primary->poll_query_until(
		'postgres',
		"SELECT last_archived_wal >= '$walfile' FROM pg_stat_archiver"),
	'pitr: the WAL of the last commit is archived');
$primary->stop('immediate');

# Restores the backup and every archived WAL segment (no target: to the
# end of the archive, then promotes) under a clock $offset s behind.
sub restore
{
	my ($name, $offset) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	# standby => 0: recovery.signal, not standby.signal, so that the end of
	# the archive ends recovery.
	$node->init_from_backup($primary, 'early', has_restoring => 1, standby => 0);
	# The copy must not archive into the primary's archive: a second
	# restore would follow its new timeline.
	$node->append_conf('postgresql.conf', 'archive_mode = off');
	set_clock($node, $offset);
	start_faked($node);
	ok(wait_for_primary($node),
		"$name: recovery ended and the server was promoted");
	is(row_counts($node), $original, "$name: every committed row was restored");
	return $node;
}

my $pitr30 = restore('pitr30', -30);
check_clock_behind($pitr30, 'pitr30', -30);
check_new_ids($pitr30, 'pitr30', 2, n => $new_ids);
$pitr30->stop;

# An hour behind: behind the backup's own copy of the state too.
my $pitr3600 = restore('pitr3600', -3600);
check_clock_behind($pitr3600, 'pitr3600', -3600);
check_new_ids($pitr3600, 'pitr3600', 2, n => $new_ids);
$pitr3600->stop;

#
# Part 2: pg_rewind of the old primary, then its promotion.
#
my $node_a = PostgreSQL::Test::Cluster->new('rw_a');
# allows_streaming sets wal_log_hints = on, which pg_rewind needs.
$node_a->init(allows_streaming => 1);
# pg_rewind reads A's WAL back to its last checkpoint before the
# divergence: A's shutdown checkpoint must not recycle it.
$node_a->append_conf('postgresql.conf', "$settings\nwal_keep_size = 256MB");
start_faked($node_a);
setup_schema($node_a);
$node_a->backup('a');

# B, a streaming standby of A, with A's settings: it replaces A.
my $node_b = PostgreSQL::Test::Cluster->new('rw_b');
$node_b->init_from_backup($node_a, 'a', has_streaming => 1);
$node_b->start;

generate($node_a, 'rewind: A', 0, 10);
$node_a->wait_for_catchup($node_b);

$node_b->promote;
ok(wait_for_primary($node_b),
	'rewind: B was promoted');
# pg_rewind reads the source's timeline from its control file, which the
# end-of-recovery checkpoint may not have written yet.
$node_b->safe_psql('postgres', 'CHECKPOINT');

# A goes on for a moment: committed rows B never sees, the divergence.
generate($node_a, 'rewind: A after the divergence', 1, 2);
$node_a->stop('fast');

# B, the new primary, makes IDs on its new timeline.
generate($node_b, 'rewind: B', 2, 10);

# pg_rewind brings A back to B's timeline; B runs, as the source.  It
# copies every non-relation file from B, the state file and B's
# postgresql.conf (its port) among them: A keeps its own configuration.
my $a_conf = $node_a->data_dir . '/postgresql.conf';
copy($a_conf, $node_a->basedir . '/postgresql.conf.a')
  or die "could not save A's postgresql.conf: $!";
command_ok(
	[
		'pg_rewind', '--target-pgdata', $node_a->data_dir,
		'--source-server', $node_b->connstr('postgres'), '--no-sync'
	],
	'rewind: pg_rewind of A from B');
copy($node_a->basedir . '/postgresql.conf.a', $a_conf)
  or die "could not restore A's postgresql.conf: $!";
$node_a->enable_streaming($node_b);
start_faked($node_a);

# B makes more IDs after the rewind: A's copy of the state file misses
# them, the WAL it streams has them.
generate($node_b, 'rewind: B after the rewind', 3, 10);
$node_b->wait_for_catchup($node_a);
my $b_rows = row_counts($node_b);
note "rewind: B has $b_rows";

# B fails; A takes over with its clock behind.
set_clock($node_a, -30);
$node_b->stop('immediate');
$node_a->promote;
ok(wait_for_primary($node_a),
	'rewind: A was promoted');
is(row_counts($node_a), $b_rows, 'rewind: A has every row of B');
is( $node_a->safe_psql(
		'postgres',
		'SELECT '
		  . join(' + ', map { "(SELECT count(*) FROM t_$_ WHERE ph = 1)" } @types)),
	'0',
	'rewind: the rows A made after the divergence are gone');
check_clock_behind($node_a, 'rewind', -30);
check_new_ids($node_a, 'rewind', 9, n => $new_ids);

$node_a->stop;

done_testing();
