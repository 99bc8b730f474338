# A worker's streaming standby promoted in its place (issue 37: the same
# node group, so uid's failover fence must keep the new primary's IDs
# after the old one's, as test/t/018 checks without Citus).
#   1. Writers insert committed batches into a table keyed by each type
#      (id T PRIMARY KEY DEFAULT T_new()): on worker 1 (MX: it makes the
#      IDs, node group 1), on the coordinator and on worker 2 (their rows
#      in shards on worker 1 too).  Each says, after each COMMIT, how many
#      batches it has committed.
#   2. A standby of worker 1 is made from a base backup taken while they
#      write (the state file it copies is behind), its clock 30 s behind
#      real time (libfaketime, if installed: then only the fence keeps its
#      IDs after the old primary's), and made synchronous
#      (synchronous_standby_names on worker 1, synchronous_commit on by
#      default): every transaction worker 1 reports committed has reached
#      the standby, so what the old primary made and committed is what the
#      new one must sort after.
#   3. Worker 1 stops at once (-m immediate) under the writers, which fail
#      (with no duplicate key), the standby is promoted, and
#      citus_update_node() points worker 1's node at it; Citus's prepared
#      transactions are recovered.  uid_citus_check() fails while worker
#      1 is down (not reached), and passes with the standby in its place.
#   4. Every batch each writer reported committed is there, whole.
#   5. Writers again, on the coordinator, the new worker 1 and worker 2,
#      stopped cleanly.
# Checked: no duplicate ID, before and after; the new primary's IDs carry
# group 1 and sort after every ID the old primary made (uid60: its second
# is not earlier), though its clock is behind them.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types order_key faketime_lib poll_until finish_worker wait_for_primary attempt);
use CitusTest;

my $per = 10;    # rows a batch in each table (uid60: 1,024 IDs a second per server)
my $batches = 5;
my $behind = 30;    # the standby's clock, seconds behind real time

my ($coord, $w1, $w2) = citus_cluster();
my @types = id_types();
my @tables = map { "fo_$_" } @types;
my $g1 = node_group($w1);

create_writer($coord);
create_id_table($coord, "fo_$_", $_, 'w int, b int') for @types;

# 1.
my %before = (1 => $w1, 0 => $coord, 2 => $w2);
my @writers = map { start_writer($before{$_}, \@tables, $_, $per) } sort keys %before;
ok(wait_for_batches($coord, \@writers, $batches), 'the writers write, worker1 among them');

# 2.
my $clock = faketime_lib() ? "-$behind" : undef;
note $clock
  ? "the standby's clock: $clock s"
  : 'libfaketime is not installed: the standby runs at real time';
my $standby = standby_of($w1, 'w1standby', 3, defined $clock ? (clock => $clock) : ());
$w1->safe_psql('postgres',
	"ALTER SYSTEM SET synchronous_standby_names = 'w1standby'; SELECT pg_reload_conf()");
ok( poll_until(
		'the standby to be synchronous',
		sub {
			$w1->safe_psql('postgres',
				q{SELECT sync_state FROM pg_stat_replication WHERE application_name = 'w1standby'})
			  eq 'sync';
		}),
	'worker1: its standby is synchronous');
ok(wait_for_batches($coord, \@writers, $batches), 'the writers write on, worker1 replicating synchronously');

# 3.
$w1->stop('immediate');
my %said;
for my $h (@writers)
{
	my ($rc, $out, $err) = finish_worker($h);
	$said{ $h->{w} } = committed_batches($err);
	my @errors = grep { /ERROR/ } split /\n/, $err;
	note "writer $h->{w} (on $h->{name}): exit $rc after $said{ $h->{w} } batches"
	  . (@errors ? ": $errors[0]" : '');
	unlike($err, qr/duplicate key/, "writer $h->{w} (on $h->{name}): no duplicate key");
}

my $r = attempt($coord, 'SELECT uid_citus_check()');
like("$r->{sqlstate}|$r->{msg}|$r->{detail}",
	qr/^08006\|uid_citus_check\(\) could not reach every node of this Citus cluster\|127\.0\.0\.1:@{[ $w1->port ]}: /,
	'worker1 down: uid_citus_check() fails, naming it as not reached');

$standby->promote;
ok(wait_for_primary($standby), 'the standby is promoted');
$coord->safe_psql('postgres',
	"SELECT citus_update_node(nodeid, '127.0.0.1', "
	  . $standby->port
	  . ") FROM pg_dist_node WHERE nodeport = "
	  . $w1->port);
ok( poll_until(
		'the metadata to be synced',
		sub {
			$coord->safe_psql('postgres',
				'SELECT bool_and(metadatasynced) FROM pg_dist_node WHERE hasmetadata') eq 't';
		}),
	"citus_update_node(): worker1's node is the promoted standby, metadata synced");
is(node_group($standby), $g1, "the promoted standby is node group $g1");
# the transactions over two workers' shards that a node prepared and
# committed: each node recovers its own (the new worker 1 the old one's)
$_->safe_psql('postgres', 'SELECT recover_prepared_transactions()') for $coord, $w2, $standby;

like(attempt($coord, 'SELECT uid_citus_check()')->{out}, qr/^3 nodes agree/,
	'uid_citus_check() passes with the promoted standby');

# 4.
for my $w (sort keys %said)
{
	for my $t (@tables)
	{
		is( $coord->safe_psql('postgres',
				"SELECT count(*) FROM $t WHERE w = $w AND b < $said{$w}"),
			$said{$w} * $per,
			"writer $w: the $said{$w} batches it said it committed are all in $t");
	}
}

# The old primary's last IDs: the new primary's clock is behind them.
my $newest_old = $coord->safe_psql('postgres',
	"SELECT max(sno_timestamp(id)) FROM fo_sno WHERE w = 1");
my $ahead = $standby->safe_psql('postgres',
	"SELECT extract(epoch FROM '$newest_old'::timestamptz - clock_timestamp())");
note "the old primary's last sno is $ahead s ahead of the new primary's clock";
cmp_ok($ahead, '>', 0, "the new primary's clock is behind the old primary's last IDs")
  if defined $clock;

# 5.
my %after = (11 => $standby, 10 => $coord, 12 => $w2);
my @again = map { start_writer($after{$_}, \@tables, $_, $per) } sort keys %after;
ok(wait_for_batches($coord, \@again, $batches), 'the writers write again, through the new worker1 too');
stop_writers($coord, \@again, 'after the failover');

for my $i (0 .. $#types)
{
	my ($type, $t) = ($types[$i], $tables[$i]);
	my $f = identity_field($type);
	my $want = expected_identity($g1)->{$type};
	check_no_duplicates($coord, $t, "$type, before and after the failover");
	is( $coord->safe_psql('postgres',
			"SELECT string_agg(DISTINCT $f, ',') FROM $t WHERE w IN (1, 11)"),
		$want, "$type: the old and the new primary's IDs carry group $g1");
	my ($key, $cmp) = order_key($type);
	my ($bad, $new_min, $old_max) = split /\|/,
	  $coord->safe_psql(
		'postgres', qq{
		WITH o AS MATERIALIZED (SELECT max($key) AS hi, max(id) AS top FROM $t WHERE w = 1),
			 n AS MATERIALIZED (SELECT id, $key AS k FROM $t WHERE w = 11)
		SELECT count(*) FILTER (WHERE n.k $cmp o.hi), ${type}_timestamp(min(n.id)), ${type}_timestamp(o.top)
		FROM n, o GROUP BY o.hi, o.top});
	note "$type: the new primary's first ID dated $new_min, the old primary's last $old_max";
	is($bad, 0, "$type: every ID of the new primary sorts after every ID of the old one");
}

done_testing();
