#!/usr/bin/perl
# test/integration/patroni.pl: the Patroni part of the integration suite
# (issue 27).  Run by test/integration/patroni.sh, which installs what it
# needs and passes the installation in the environment; see that file for
# the settings and doc/testing.md for what it counts.
#
# Per scenario (async, sync, leased): an etcd cluster (shared by the
# scenarios, each its own Patroni scope), three PostgreSQL nodes under
# Patroni with use_pg_rewind, every postgres under libfaketime with a clock
# file of its own; one writer per type inserting through libpq's
# target_session_attrs=read-write (whoever leads) and recording every
# acknowledged ID; then the seeded events: a crash (the leader's
# walsenders stopped for a few seconds, a partition in which an async leader
# still acknowledges, then kill -9 of its Patroni and its whole postmaster
# tree; the node rejoins by pg_rewind), `patronictl failover` and
# `patronictl switchover`, each with the next leader's clock set behind
# first.  Then it counts, from the writers' records and the final leader's
# tables.

use strict;
use warnings;

use File::Basename qw(dirname);
use File::Path qw(remove_tree);
use HTTP::Tiny;
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);

our ($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT);
BEGIN
{
	($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT) = ('patroni', '/tmp/uid-int-patroni', 9200);
	require(dirname(__FILE__) . '/common.pl');
}
our (%gen, @types, @writers, $PG_BIN, $FAKETIME, $SEED, $SCRATCH, $BASE_PORT, $DEADLINE, $T0, $COORD_PORT,
	@PIDFILE_GLOBS, $TIMELINE);

my @SCENARIOS = split ' ', ($ENV{UID_INT_SCENARIOS} // 'async sync leased coordinator');
my $EVENTS = $ENV{UID_INT_EVENTS} // 3;
my $ETCD_MEMBERS = $ENV{UID_INT_ETCD} // 3;
$DEADLINE = $ENV{UID_INT_DEADLINE} // 2400;    # seconds the whole run may take
my $NODES = 3;

for my $s (@SCENARIOS)
{
	die "unknown scenario '$s': async, sync, leased or coordinator\n"
	  unless $s =~ /^(async|sync|leased|coordinator)$/;
}

# Ports: etcd clients 9200.., etcd peers 9205.., the coordinator 9210,
# PostgreSQL 9221.., Patroni's REST API 9231.., the coordinator scenario's
# leasing servers 9240 and 9241 (below 10200: PostgreSQL's TAP tests, which
# may run beside, take ports from 10200 to 32767).
my @etcd_client = map { $BASE_PORT + $_ } 0 .. $ETCD_MEMBERS - 1;
my @etcd_peer = map { $BASE_PORT + 5 + $_ } 0 .. $ETCD_MEMBERS - 1;
my %pg_port = map { ("n$_" => $BASE_PORT + 20 + $_) } 1 .. $NODES;
my %rest_port = map { ("n$_" => $BASE_PORT + 30 + $_) } 1 .. $NODES;
my @names = sort keys %pg_port;

@PIDFILE_GLOBS = map { "$SCRATCH-$_/*/data/postmaster.pid" } @SCENARIOS;

my $http = HTTP::Tiny->new(timeout => 3);

# --- the plan: drawn once from the seed, the same for every scenario -----

srand($SEED);
my @kinds = shuffle(qw(crash failover switchover));
push @kinds, (qw(crash failover switchover))[ int rand 3 ] while @kinds < $EVENTS;
@kinds = @kinds[ 0 .. $EVENTS - 1 ];
# Each event: its kind, which standby (in name order) is the candidate, how far
# behind real time each standby's clock goes (the next leader's), and for a
# crash the seconds the leader's walsenders stay stopped before it.
my @plan = map {
	{
		kind => $_,
		pick => int rand 2,
		behind => [ map { 20 + int rand 101 } 1 .. $NODES - 1 ],
		partition => 3 + int rand 4,
		land => rand,
	}
} @kinds;

# --- etcd --------------------------------------------------------------------

my $ETCD_DIR = "$SCRATCH-etcd";
my @etcd_pids;

sub start_etcd
{
	remove_tree($ETCD_DIR);
	pg_dir($ETCD_DIR);
	my $cluster = join ',', map { "e$_=http://127.0.0.1:$etcd_peer[$_]" } 0 .. $ETCD_MEMBERS - 1;
	for my $i (0 .. $ETCD_MEMBERS - 1)
	{
		push @etcd_pids, spawn_pg(
			"$ETCD_DIR/e$i.log", {}, 'etcd',
			'--name' => "e$i",
			'--data-dir' => "$ETCD_DIR/e$i",
			'--listen-client-urls' => "http://127.0.0.1:$etcd_client[$i]",
			'--advertise-client-urls' => "http://127.0.0.1:$etcd_client[$i]",
			'--listen-peer-urls' => "http://127.0.0.1:$etcd_peer[$i]",
			'--initial-advertise-peer-urls' => "http://127.0.0.1:$etcd_peer[$i]",
			'--initial-cluster' => $cluster,
			'--initial-cluster-state' => 'new',
			'--initial-cluster-token' => "uid-int-$SEED",
			# a busy machine: generous heartbeats, no election per hiccup
			'--heartbeat-interval' => 500,
			'--election-timeout' => 5000);
	}
	wait_for('etcd to be healthy', sub {
		my $r = $http->get("http://127.0.0.1:$etcd_client[0]/health");
		$r->{success} && $r->{content} =~ /"health":\s*"true"/;
	});
	say "etcd: $ETCD_MEMBERS members up (client ports @etcd_client)";
}

# --- Patroni -------------------------------------------------------------------

sub yaml_params
{
	my (%p) = @_;
	return join '', map { "        $_: $p{$_}\n" } sort keys %p;
}

# The node's Patroni configuration, and its bin directory: the installation's
# programs, but postgres started under libfaketime with the node's clock file.
sub node_config
{
	my ($sc, $dir, $name) = @_;
	pg_dir("$dir/$name");
	faked_bin("$dir/$name/bin", "$dir/$name/faketime.rc");

	# the coordinator scenario's nodes make no IDs: the pool's tables only
	my %identity =
	  $sc eq 'coordinator' ? ()
	  : $sc eq 'leased'
	  ? (session_preload_libraries => 'uid',
		'uid.coordinator' => "'host=127.0.0.1 port=$COORD_PORT dbname=postgres user=postgres'",
		'uid.pool' => 'int',
		'uid.pool_size' => 32)
	  : ('uid.partition' => 7, 'uid.generator' => 5, 'uid.cluster' => 3,
		'uid.medallion' => "'5ea4c0ffee'");
	my $sync = $sc =~ /^(sync|coordinator)$/ ? 'true' : 'false';
	# The coordinator commits asynchronously, as many servers do: the pool
	# makes its claims and renewals durable itself (doc/several-servers.md,
	# "What the coordinator needs"); 0.7.0's lost them in a crash.
	my $commit = $sc eq 'coordinator' ? 'off' : 'on';
	my $hosts = join ',', map { "127.0.0.1:$_" } @etcd_client;
	write_file("$dir/$name/patroni.yml", <<"EOF" . yaml_params(%identity) . <<"EOF2");
scope: uid-int-$sc
name: $name
restapi:
  listen: 127.0.0.1:$rest_port{$name}
  connect_address: 127.0.0.1:$rest_port{$name}
etcd3:
  hosts: $hosts
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    # an async standby that lags may still take over: the point of the test
    maximum_lag_on_failover: 1073741824
    synchronous_mode: $sync
    postgresql:
      use_pg_rewind: true
      remove_data_directory_on_rewind_failure: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: '$commit'
EOF
  initdb:
    - encoding: UTF8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$pg_port{$name}
  connect_address: 127.0.0.1:$pg_port{$name}
  data_dir: $dir/$name/data
  bin_dir: $dir/$name/bin
  pgpass: $dir/$name/pgpass
  authentication:
    superuser:
      username: postgres
      password: unused
    replication:
      username: replicator
      password: unused
  parameters:
    unix_socket_directories: '$dir/$name'
    shared_buffers: 64MB
    max_connections: 40
EOF2
	# sync: pg_cron on every node, as doc/operations.md says, running the
	# partition maintenance recipe as the table's owner in a background
	# worker of the node's own: a job row keeps the host and port of the
	# node it was scheduled on (cron.host, port), and with connections every
	# node's scheduler would run it there, the nodes' ports differing here
	# (on a standby then, where the maintenance does nothing)
	open my $fh, '>>', "$dir/$name/patroni.yml" or die;
	print $fh "    shared_preload_libraries: pg_cron\n    cron.database_name: postgres\n    cron.use_background_workers: 'on'\n"
	  if $sc eq 'sync';
	close $fh;
}

# --- pg_cron (the sync scenario) ----------------------------------------------------

# doc/operations.md's recipe: a table of a plain role's, rows in its DEFAULT
# partition, and the maintenance job scheduled as the owner on the leader
# (pg_cron's job table replicates; its scheduler runs on the primary only).
sub cron_setup
{
	my ($dbh) = @_;
	$dbh->do($_) for split /;\n/, q{CREATE EXTENSION pg_cron;
CREATE ROLE app LOGIN;
CREATE SCHEMA app AUTHORIZATION app;
SET ROLE app;
CREATE TABLE app.ev (id sno NOT NULL DEFAULT sno_new(1), PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE app.ev_default PARTITION OF app.ev DEFAULT;
INSERT INTO app.ev SELECT FROM generate_series(1, 100);
RESET ROLE;
SELECT cron.schedule_in_database('uid-partitions', '* * * * *', $$SELECT * FROM uid_maintain_partitions('app.ev', premake => 3, width => '1 month', retention => '6 months')$$, database => 'postgres', username => 'app')};
}

# The greatest runid of the job's runs on the leader $lead so far.
sub cron_runid { my ($lead) = @_; return sql1($pg_port{$lead}, 'SELECT coalesce(max(runid), 0) FROM cron.job_run_details') }

# After the events, on the final leader $lead: 100 more rows three months
# old go into the DEFAULT partition (no partition has their period), so
# that only a run on the final leader can move them, whatever the runs
# before the events did; then a run of the job after runid $after (the
# first event's new leader's greatest when it took writes: a later run is
# that leader's or a later one's; its start_time is on the node's clock,
# which the events set behind) succeeded (waits for the next minute's if
# none has yet), no run failed (but one a crash cut short, which pg_cron
# marks "server restarted"), the DEFAULT partition is empty, every
# partition is app's and no row was lost.  Returns a line, and whether it
# is a failure.
sub cron_check
{
	my ($lead, $after) = @_;
	db($pg_port{$lead})->do(q{INSERT INTO app.ev SELECT sno_boundary(now() - interval '3 months' + g * interval '1 minute') FROM generate_series(1, 100) g});
	my $q = "SELECT count(*) FILTER (WHERE status = 'succeeded' AND runid > $after) FROM cron.job_run_details";
	# A failure, not a run that did not go as planned: pg_cron runs every
	# minute.  Seeds 443637, 876003, 170813 and 244986 failed here while
	# the job connected to the node it was scheduled on (above): its runs
	# on a standby did nothing and succeeded.
	my $ran = eval {
		wait_for('a run of the maintenance job on a later leader that empties the DEFAULT partition',
			sub { sql1($pg_port{$lead}, $q) > 0 && sql1($pg_port{$lead}, 'SELECT count(*) FROM app.ev_default') == 0 },
			150, 2)
	};
	my ($ok, $failed, $left, $parts, $others, $rows) = sql1($pg_port{$lead}, q{
		SELECT count(*) FILTER (WHERE status = 'succeeded'),
			count(*) FILTER (WHERE status = 'failed' AND return_message IS DISTINCT FROM 'server restarted'),
			(SELECT count(*) FROM app.ev_default),
			(SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			 WHERE i.inhparent = 'app.ev'::regclass AND c.relname <> 'ev_default'),
			(SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			 WHERE i.inhparent = 'app.ev'::regclass AND c.relowner <> 'app'::regrole),
			(SELECT count(*) FROM app.ev)
		FROM cron.job_run_details});
	my $bad = !$ran || $failed || $left || !$parts || $others || $rows != 200;
	return (sprintf('pg_cron: %s; %d runs succeeded, %d failed; the maintenance made %d partitions (%d not app\'s), '
		  . '%d rows left in the DEFAULT partition, %d of 200 rows in all', $ran ? 'a run on a later leader emptied the DEFAULT partition'
		  : 'no run on a later leader emptied the DEFAULT partition within 150 s', $ok, $failed, $parts, $others, $left, $rows), $bad);
}

my %patroni_pid;

sub start_patroni
{
	my ($dir, $name) = @_;
	write_file("$dir/$name/faketime.rc", "+0\n");
	$patroni_pid{$name} = spawn_pg("$dir/$name/patroni.log", {}, 'patroni', "$dir/$name/patroni.yml");
}

# The REST API's view: the name of the node that leads and runs as primary, or
# undef.
sub leader
{
	for my $n (@names)
	{
		my $r = $http->get("http://127.0.0.1:$rest_port{$n}/leader");
		return $n if $r->{status} == 200;
	}
	return undef;
}

# The leader takes a write, and returns its timeline.
sub writable
{
	my ($n) = @_;
	my $dbh = db($pg_port{$n});
	my ($ro) = $dbh->selectrow_array('SELECT pg_is_in_recovery()');
	return 0 if $ro;
	$dbh->do('CREATE TEMP TABLE probe (x int)');
	my ($tl) = $dbh->selectrow_array("SELECT $TIMELINE");
	$dbh->disconnect;
	return $tl;
}

# The standbys streaming from leader $n (application_name is the node name).
sub streaming
{
	my ($n) = @_;
	my $dbh = db($pg_port{$n});
	my $r = $dbh->selectcol_arrayref(q{SELECT application_name FROM pg_stat_replication WHERE state = 'streaming'});
	$dbh->disconnect;
	return @$r;
}

sub wait_all_streaming
{
	my ($lead) = @_;
	wait_for("every standby to stream from $lead", sub { (() = streaming($lead)) == $NODES - 1 });
}

# Sets node $n's clock $behind s behind real time and waits until its
# backends read it.
sub set_behind
{
	my ($dir, $n, $behind) = @_;
	set_clock("$dir/$n/faketime.rc", $pg_port{$n}, -$behind, "$n\'s clock to go $behind s behind");
}

sub patronictl
{
	my ($dir, @args) = @_;
	my $out = `patronictl -c '$dir/n1/patroni.yml' @args 2>&1`;
	fail("patronictl @args: $out") if $?;
	return $out;
}

# kill -9 of the node: its Patroni, then its postmaster and every child
# (stopped first, so that it forks no more), as a crash of its host.
sub crash_node
{
	my ($dir, $n) = @_;
	kill 'KILL', $patroni_pid{$n};
	waitpid($patroni_pid{$n}, 0);
	return crash_postmaster("$dir/$n/data", $n);
}

# --- the analysis ----------------------------------------------------------------

# Counts, for the scenario in $dir: acknowledged IDs; those the final
# leader's table lacks (lost), and of those, the ones at or past the first
# ID the next leader made (in a range made again); reissued ones (an ID
# acknowledged again after an earlier acknowledgement), by type; 23505s;
# other errors (beyond the lost connections, read-only nodes and shutdowns
# an event brings); IDs on a timeline at or below the greatest ID that
# earlier timelines left in the final leader's table (that is, replicated
# before the promotion); the warnings the writers got; and the same counts
# of lost, reissued and made again for the bigserial beside them.
sub analyse
{
	my ($dir, $lead, $events) = @_;
	my %r = (ids => 0, lost => 0, again => 0, reissued => 0, below => 0, bigserial_lost => 0, bigserial_again => 0);
	my %warning;
	my $dbh = db($pg_port{$lead});
	for my $w (@writers)
	{
		my $uid = $w ne 'bigserial';
		my %seen;
		my @acks = acks($dir, $w);
		for my $a (@acks)
		{
			my ($at, $id, $tl) = @$a;
			$r{ids}++ if $uid;
			$r{$uid ? 'by_type' : 'bigserial_by'}{$w}++ if $seen{$id}++;
		}
		my ($below) = $dbh->selectrow_array(qq{
			WITH top AS (SELECT tl, max(id) AS id FROM t_$w GROUP BY tl)
			SELECT count(*) FROM t_$w a
			WHERE a.id <= (SELECT max(b.id) FROM top b WHERE b.tl < a.tl)});
		$r{below} += $below if $uid;
		my %kept = map { $_ => 1 } @{ $dbh->selectcol_arrayref("SELECT id::text FROM t_$w") };
		$r{$uid ? 'lost' : 'bigserial_lost'} += grep { !$kept{ $_->[1] } } @acks;
		# lost IDs at or past the first ID the next leader made: the range
		# it made IDs in again, with the same identity or another
		my $cast = $uid ? $w : 'bigint';
		for my $ev (@$events)
		{
			my @lost = map { $_->[1] } grep { $_->[2] == $ev->{old_tl} && !$kept{ $_->[1] } } @acks;
			next unless @lost;
			my ($n) = $dbh->selectrow_array(qq{
				SELECT count(*) FROM unnest(?::text[]) l
				WHERE l::$cast >= (SELECT min(id) FROM t_$w WHERE tl = ?)}, undef, \@lost, $ev->{tl});
			$r{$uid ? 'again' : 'bigserial_again'} += $n;
		}
	}
	($r{identities}) = $dbh->selectrow_array('SELECT count(DISTINCT sno_partition(id)) FROM t_sno');
	$dbh->disconnect;
	if (open my $fh, '<', "$dir/notices")
	{
		while (my $l = <$fh>) { $warning{$1}++ if $l =~ /^WARNING:\s+(.*)/ }
	}
	$r{reissued} += $_ for values %{ $r{by_type} };
	$r{bigserial_reissued} = 0;
	$r{bigserial_reissued} += $_ for values %{ $r{bigserial_by} };
	my $e = error_counts($dir);
	@r{qw(dup_key other other_detail)} = @{$e}{qw(dup_key other detail)};
	$r{warnings} = \%warning;
	return \%r;
}

# --- a scenario ------------------------------------------------------------------

sub scenario
{
	my ($sc) = @_;
	my $dir = "$SCRATCH-$sc";
	fresh_scratch($dir, 'n*/data/postmaster.pid');
	say "$sc: scratch $dir";
	my $coord = "$dir/coordinator";
	start_coordinator($coord, "$coord/commands.log") if $sc eq 'leased';

	node_config($sc, $dir, $_) for @names;
	start_patroni($dir, 'n1');
	wait_for('n1 to bootstrap and lead', sub { (leader() // '') eq 'n1' && writable('n1') });
	my $dbh = db($pg_port{n1});
	$dbh->do('CREATE EXTENSION uid');
	create_tables($dbh);
	cron_setup($dbh) if $sc eq 'sync';
	$dbh->disconnect;
	start_patroni($dir, $_) for @names[ 1 .. $#names ];
	wait_all_streaming('n1');
	if ($sc eq 'sync')
	{
		wait_for('a synchronous standby', sub {
			grep { $http->get("http://127.0.0.1:$rest_port{$_}/sync")->{status} == 200 } @names;
		});
	}
	say "$sc: n1 leads, n2 and n3 stream";

	# the writers: through whichever node takes writes
	my $hosts = join ',', ('127.0.0.1') x $NODES;
	my $ports = join ',', map { $pg_port{$_} } @names;
	start_writers($dir, "dbi:Pg:host=$hosts;port=$ports;dbname=postgres;target_session_attrs=read-write;"
		  . 'connect_timeout=3;keepalives_idle=5;keepalives_interval=2;keepalives_count=3',
		{ primary_only => 1, notices => 1, jitter => 1 });
	my $lead = 'n1';
	my $tl = writable($lead);
	wait_writing($dir, $tl, 50, 'start');

	my @events;
	for my $i (0 .. $#plan)
	{
		my $p = $plan[$i];
		my @standbys = grep { $_ ne $lead } @names;
		my $cand = $standbys[ $p->{pick} ];
		# synchronous_mode: Patroni fails over to the synchronous standby only
		$cand = wait_for('a synchronous standby', sub {
			(grep { $http->get("http://127.0.0.1:$rest_port{$_}/sync")->{status} == 200 } @standbys)[0];
		}) if $sc eq 'sync';
		my $ev = { kind => $p->{kind}, old => $lead, old_tl => $tl, rewinds => rewinds("$dir/$lead/patroni.log") };
		if ($p->{kind} eq 'crash')
		{
			# The leader's clock right, so that its IDs follow the clock and
			# renew the lease (one promoted with its clock behind makes its
			# IDs in the fence's tick, and WAL already holds their lease).
			set_behind($dir, $lead, 0);
			wait_writing($dir, $tl, ack_count($dir, 'uid60', $tl) + 10, 'before the partition');
			# Every standby's walsender stopped (one that a standby's
			# reconnection replaced too): the standbys get no more WAL.
			my %stopped;
			wait_for('the walsenders to stop', sub {
				my $lh = db($pg_port{$lead});
				my $ws = $lh->selectcol_arrayref('SELECT pid FROM pg_stat_replication');
				$lh->disconnect;
				$stopped{$_} ||= kill 'STOP', $_ for @$ws;
				return @$ws == $NODES - 1;
			}, 60, 0.2);
			my $tp = time();
			$ev->{stopped} = scalar grep { (`ps -o stat= -p $_` // '') =~ /^T/ } keys %stopped;
			my $before = ack_count($dir, 'sno');
			sleep $p->{partition};    # the partition: the leader writes on alone
			$ev->{during} = ack_count($dir, 'sno') - $before;
			$ev->{start} = time();
			crash_node($dir, $lead);
			# Until one of them leads, the standbys' clocks are kept at a time
			# in the partition (drawn): the next leader's clock is behind by
			# the partition's rest and the outage, and passes again through
			# the times of the IDs the lost WAL held.
			my $land = $tp + $p->{land} * $p->{partition};
			wait_for('a new leader', sub {
				my $l = leader();
				return $ev->{new} = $l if $l && $l ne $lead && writable($l);
				write_file("$dir/$_/faketime.rc", sprintf("%d\n", $land - time())) for @standbys;
				return 0;
			});
		}
		else
		{
			# the standbys' clocks behind real time: the next leader's
			set_behind($dir, $standbys[$_], $p->{behind}[$_]) for 0 .. $#standbys;
			$ev->{start} = time();
		}
		if ($p->{kind} eq 'failover')
		{
			patronictl($dir, 'failover', '--candidate', $cand, '--force');
			wait_for("$cand to lead", sub { (leader() // '') eq $cand && writable($cand) });
			$ev->{new} = $cand;
		}
		elsif ($p->{kind} eq 'switchover')
		{
			patronictl($dir, 'switchover', '--leader', $lead, '--candidate', $cand, '--force');
			wait_for("$cand to lead", sub { (leader() // '') eq $cand && writable($cand) });
			$ev->{new} = $cand;
		}
		$ev->{ready} = time();
		$ev->{cron_runid} = cron_runid($ev->{new}) if $sc eq 'sync';
		$ev->{tl} = writable($ev->{new});
		$ev->{behind} = -clock_offset($pg_port{ $ev->{new} });
		say sprintf('%s: event %d, %s: %s -> %s (timeline %d, clock %.0f s behind), a writer after %.1f s%s',
			$sc, $i + 1, $p->{kind}, $lead, $ev->{new}, $ev->{tl}, $ev->{behind}, $ev->{ready} - $ev->{start},
			$p->{kind} eq 'crash' ? ", $p->{partition} s of partition ($ev->{stopped} walsenders stopped, $ev->{during} sno IDs in it)" : '');
		start_patroni($dir, $lead) if $p->{kind} eq 'crash';
		$lead = $ev->{new};
		$tl = $ev->{tl};
		wait_writing($dir, $ev->{tl}, 20, "after event " . ($i + 1));
		wait_all_streaming($lead);
		my $rewinds = rewinds("$dir/$ev->{old}/patroni.log");
		say "$sc: $ev->{old} streams again" . ($rewinds > $ev->{rewinds} ? ', after pg_rewind' : '');
		push @events, $ev;
	}
	stop_writers();
	wait_all_streaming($lead);
	my $r = analyse($dir, $lead, \@events);
	# per event: the bigserial's time without a row, each type's beyond it,
	# uid's refusals (from the event to the next)
	$r->{uid_refusals} = 0;
	for my $i (0 .. $#events)
	{
		my $ev = $events[$i];
		my $av = availability($dir, $ev->{start}, $i < $#events ? $events[ $i + 1 ]{start} : time(),
			sub { $_[0][2] == $ev->{old_tl} }, sub { $_[0][2] == $ev->{tl} });
		$r->{uid_refusals} += report_availability($sc, "event " . ($i + 1) . ", $ev->{kind}", $av);
		my ($gap) = sort { $b <=> $a } grep { defined } @{ $av->{out} }{@types};
		my ($refused) = sort { $b <=> $a } map { defined $_ ? $_ - $ev->{ready} : 1e9 } @{ $av->{first} }{@types};
		push @{ $r->{gaps} }, sprintf('%.1f', $gap // 0);
		push @{ $r->{refused_s} }, sprintf('%.1f', $refused < 0 ? 0 : $refused);
	}
	$r->{failovers} = scalar @events;
	$r->{refused} = join('/', @{ $r->{refused_s} // [] });
	$r->{gap} = join('/', @{ $r->{gaps} // [] });
	$r->{kinds} = join('/', map { $_->{kind} } @events);
	if ($sc eq 'sync' && @events)
	{
		# The job was scheduled on n1.  A final leader that is not n1 is
		# where a job that connects to the node it was scheduled on would
		# run on a standby (node_config): after the ID checks, a switchover
		# to the synchronous standby makes one where the events ended on n1.
		if ($lead eq 'n1')
		{
			my $cand;
			wait_for('a synchronous standby for the pg_cron check', sub {
				($cand) = grep { $http->get("http://127.0.0.1:$rest_port{$_}/sync")->{status} == 200 } @names;
				defined $cand;
			});
			patronictl($dir, 'switchover', '--leader', $lead, '--candidate', $cand, '--force');
			wait_for("$cand to lead", sub { (leader() // '') eq $cand && writable($cand) });
			wait_all_streaming($cand);
			say "$sc: switchover $lead -> $cand for the pg_cron check";
			$lead = $cand;
		}
		($r->{cron}, $r->{cron_bad}) = cron_check($lead, $events[0]{cron_runid});
	}

	stop_cluster($dir);
	stop_coordinator($coord, "$coord/commands.log") if $sc eq 'leased';
	return $r;
}

# --- the coordinator's failover ----------------------------------------------------

# Scenario "coordinator": the coordinator is the Patroni cluster (three nodes,
# synchronous_mode; the pool is in its tables), and two servers, w1 and w2,
# lease their identities from it through the connection string
# doc/several-servers.md gives (every node's host and port,
# target_session_attrs=read-write), with uid.pool_ttl $LEASE_TTL s (renewed
# from half of it left on), a writer on each.  The events are the plan's
# crashes, failovers and switchovers of the coordinator's leader, the clocks
# right (the bound of uid.pool_grace is TAP's).  Counts: IDs held twice,
# within a server and across both (must be 0); per event and server uid's
# refusals, of which only "this server's lease of id N ... expired" is the
# design's (the lease ran out while no coordinator answered; any other fails
# the run), the time from the first to the last, and beside it the bound the
# lease's rules give (the coordinator's outage less the half TTL a renewal
# leaves at least, plus the second a failed renewal refuses for); and the
# longest each type went without a row beside the bigserial's.
my $LEASE_TTL = $ENV{UID_INT_LEASE_TTL} // 20;
my %w_port = (w1 => $BASE_PORT + 40, w2 => $BASE_PORT + 41);

sub start_leasing_server
{
	my ($dir, $name, $coordinator) = @_;
	init_server("$dir/$name", $w_port{$name}, "shared_buffers = 32MB\nmax_connections = 20\nlc_messages = 'C'\n"
		  . "session_preload_libraries = 'uid'\nuid.coordinator = '$coordinator'\n"
		  . "uid.pool = 'int'\nuid.pool_size = 32\nuid.pool_ttl = ${LEASE_TTL}\n",
		$name, "$dir/$name/initdb.log");
	run_as_pg(\"$dir/$name/pg_ctl.log", "$PG_BIN/pg_ctl", '-D', "$dir/$name/data", '-w', '-l', "$dir/$name/server.log", 'start')
	  or fail("start of $name");
	my $dbh = wait_for($name, sub { db($w_port{$name}) });
	$dbh->do('CREATE EXTENSION uid');
	create_tables($dbh);
	$dbh->disconnect;
}

# Rows of every writer on server $w acknowledged after $t: at least $min?
sub rows_after
{
	my ($wdir, $t, $min) = @_;
	for my $w (@writers)
	{
		return 0 if (grep { $_->[0] > $t } acks($wdir, $w)) < $min;
	}
	return 1;
}

sub coordinator_scenario
{
	my ($sc) = @_;
	my $dir = "$SCRATCH-$sc";
	fresh_scratch($dir, '*/data/postmaster.pid');
	say "$sc: scratch $dir";
	node_config($sc, $dir, $_) for @names;
	start_patroni($dir, 'n1');
	wait_for('n1 to bootstrap and lead', sub { (leader() // '') eq 'n1' && writable('n1') });
	my $dbh = db($pg_port{n1});
	$dbh->do('CREATE EXTENSION uid');
	$dbh->disconnect;
	start_patroni($dir, $_) for @names[ 1 .. $#names ];
	wait_all_streaming('n1');
	my $sync_standby = sub {
		my @standbys = @_;
		wait_for('a synchronous standby', sub {
			(grep { $http->get("http://127.0.0.1:$rest_port{$_}/sync")->{status} == 200 } @standbys)[0];
		});
	};
	$sync_standby->(@names[ 1 .. $#names ]);
	# doc/several-servers.md's recipe: every node, the one that takes writes
	my $conninfo = sprintf('host=%s port=%s dbname=postgres user=postgres target_session_attrs=read-write',
		join(',', ('127.0.0.1') x $NODES), join(',', map { $pg_port{$_} } @names));
	my @servers = sort keys %w_port;
	start_leasing_server($dir, $_, $conninfo) for @servers;
	say "$sc: the coordinator's n1 leads, n2 and n3 stream; $servers[0] and $servers[1] lease from it "
	  . "(uid.pool_ttl $LEASE_TTL s) through '$conninfo'";
	for my $w (@servers)
	{
		start_writers("$dir/$w", "dbi:Pg:host=127.0.0.1;port=$w_port{$w};dbname=postgres;connect_timeout=3", { notices => 1 });
	}
	wait_writing("$dir/$_", 1, 50, "start on $_") for @servers;

	my $lead = 'n1';
	my @events;
	for my $i (0 .. $#plan)
	{
		my $p = $plan[$i];
		my @standbys = grep { $_ ne $lead } @names;
		my $cand = $sync_standby->(@standbys);
		my $ev = { kind => $p->{kind}, old => $lead };
		$ev->{start} = time();
		if ($p->{kind} eq 'crash')
		{
			crash_node($dir, $lead);
			wait_for('a new leader', sub {
				my $l = leader();
				return $ev->{new} = $l if $l && $l ne $lead && writable($l);
				return 0;
			});
		}
		else
		{
			patronictl($dir, $p->{kind}, $p->{kind} eq 'switchover' ? ('--leader', $lead) : (), '--candidate', $cand, '--force');
			wait_for("$cand to lead", sub { (leader() // '') eq $cand && writable($cand) });
			$ev->{new} = $cand;
		}
		$ev->{ready} = time();
		start_patroni($dir, $lead) if $p->{kind} eq 'crash';
		# rows again on both servers after the coordinator came back and after
		# the lease's time from the event: a lease that ran out was renewed
		my $after = $ev->{start} + $LEASE_TTL > $ev->{ready} ? $ev->{start} + $LEASE_TTL : $ev->{ready};
		for my $w (@servers)
		{
			my $wdir = "$dir/$w";
			wait_for("rows of every writer on $w after event " . ($i + 1), sub { rows_after($wdir, $after, 20) });
		}
		wait_all_streaming($ev->{new});
		$ev->{end} = time();
		say sprintf('%s: event %d, %s of the coordinator: %s -> %s, writes after %.1f s', $sc, $i + 1, $p->{kind}, $lead,
			$ev->{new}, $ev->{ready} - $ev->{start});
		$lead = $ev->{new};
		push @events, $ev;
	}
	stop_writers();

	my %r = (failovers => scalar @events, kinds => join('/', map { $_->{kind} } @events), uid_refusals => 0, other => 0,
		dup_key => 0, ids => 0, other_detail => {});
	# every ID the two servers' clients held, together
	my (%held, %per_server);
	for my $w (@servers)
	{
		my $h = held_ids("$dir/$w");
		push @{ $held{$_} }, @{ $h->{$_} } for @types;
		$per_server{$w} = (reissued($h))[0];
		$r{ids} += @{ $h->{$_} } for @types;
		my $e = error_counts("$dir/$w");
		$r{dup_key} += $e->{dup_key};
		for my $k (keys %{ $e->{detail} })
		{
			# the lease ran out (uid60: it ends inside the second being made)
			next if $k =~ /^(08006|53400|55000) .*lease of id \d+ in pool "int" (expired at|ends at .* before the tick)/;
			$r{other} += $e->{detail}{$k};
			$r{other_detail}{$k} += $e->{detail}{$k};
		}
	}
	($r{reissued}, $r{by_type}) = reissued(\%held);
	$r{within} = join(', ', map { "$_ $per_server{$_}" } @servers);
	my $all = sub { 1 };
	for my $i (0 .. $#events)
	{
		my $ev = $events[$i];
		my $to = $i < $#events ? $events[ $i + 1 ]{start} : $ev->{end};
		for my $w (@servers)
		{
			my $av = availability("$dir/$w", $ev->{start}, $to, $all, $all);
			# on a server the coordinator's event breaks no connection: the
			# longest each writer went without a row, the bigserial's beside
			$av->{out}{$_} = no_row_for("$dir/$w", $_, $ev->{start}, $to, $all) for @writers;
			$av->{beyond}{$_} = $av->{out}{$_} - $av->{out}{bigserial} for @types;
			$r{uid_refusals} += report_availability($sc, "event " . ($i + 1) . ", $ev->{kind} of the coordinator, on $w", $av);
			my @t = sort { $a <=> $b } map { $_->[0] } grep { $_->[0] >= $ev->{start} && $_->[0] <= $to && uid_refusal($_->[1], $_->[2]) }
			  map { read_lines("$dir/$w/errors-$_") } @types;
			my $outage = $ev->{ready} - $ev->{start};
			my $bound = $outage - $LEASE_TTL / 2 + 1;
			say sprintf('%s: event %d on %s: the coordinator took no writes for %.1f s; %s; the lease\'s rules allow %.1f s',
				$sc, $i + 1, $w, $outage,
				@t ? sprintf('refusals for %.1f s, from %.1f s after the event', $t[-1] - $t[0], $t[0] - $ev->{start}) : 'no refusal',
				$bound < 0 ? 0 : $bound);
		}
	}
	$r{refused} = join('/', map { sprintf '%.1f', $_->{ready} - $_->{start} } @events);
	$r{gap} = '-';
	$r{lost} = $r{again} = $r{below} = 0;
	$r{$_} = 0 for qw(bigserial_lost bigserial_again bigserial_reissued);
	my $dbh2 = db($pg_port{$lead});
	$r{leases} = $dbh2->selectrow_array(q{SELECT string_agg(id || ' ' || state, ', ' ORDER BY id) FROM uid_pool_leases('int')});
	$dbh2->disconnect;
	my %partitions;
	$partitions{$_}++ for map { @{ sql_col($w_port{$_}, 'SELECT DISTINCT sno_partition(id) FROM t_sno') } } @servers;
	$r{identities} = join(' ', sort { $a <=> $b } keys %partitions) . ' (' . keys(%partitions) . ' for 2 servers)';
	say "$sc: the pool's leases at the end: $r{leases}; IDs reissued within a server: $r{within}";
	for my $w (@servers)
	{
		run_as_pg(\"$dir/$w/pg_ctl.log", "$PG_BIN/pg_ctl", '-D', "$dir/$w/data", '-m', 'fast', '-w', 'stop');
	}
	stop_cluster($dir);
	return \%r;
}

# How many times Patroni ran pg_rewind, by its log.
sub rewinds
{
	my ($log) = @_;
	open my $fh, '<', $log or return 0;
	return scalar grep { /running pg_rewind from/ } <$fh>;
}

sub stop_cluster
{
	my ($dir) = @_;
	for my $n (@names)
	{
		my $pid = $patroni_pid{$n} or next;
		kill 'TERM', $pid;
	}
	for my $n (@names)
	{
		my $pid = delete $patroni_pid{$n} or next;
		my $end = time() + 90;
		while (waitpid($pid, WNOHANG) == 0)
		{
			if (time() > $end) { crash_node($dir, $n) if -e "$dir/$n/data/postmaster.pid"; kill 'KILL', $pid; }
			sleep 0.3;
		}
	}
}

# --- main --------------------------------------------------------------------------

$ENV{UID_INT_MAIN_PID} = $$;
$SIG{INT} = $SIG{TERM} = sub { die "interrupted\n" };

say "integration patroni: seed $SEED; events " . join(', ', map {
	$_->{kind} eq 'crash'
	  ? sprintf('crash (%d s partition, the next leader\'s clock then at %.0f%% of it)', $_->{partition}, 100 * $_->{land})
	  : sprintf('%s (standby %d, clocks %s s)', $_->{kind}, $_->{pick} + 1, join(' ', map { "-$_" } @{ $_->{behind} }))
} @plan);
my (%res, @line);
my $bad = 0;
eval { start_etcd(); 1 } or do { print $@; exit 2 };
for my $sc (@SCENARIOS)
{
	my $r = run_scenario($sc, "$SCRATCH-$sc", $sc eq 'coordinator' ? \&coordinator_scenario : \&scenario);
	$res{$sc} = $r;
	my $line = sprintf '%s: %d failovers (%s), %d ids, %d of them lost (%d in a range made again), %d reissued, %d at or below the replicated, %d 23505, %d other errors, no ID for %s s, after the leader took writes %s s; the bigserial beside them: %d lost (%d in a range made again), %d reissued',
	  $sc, $r->{failovers}, $r->{kinds}, $r->{ids}, $r->{lost}, $r->{again}, $r->{reissued}, $r->{below}, $r->{dup_key}, $r->{other}, $r->{gap}, $r->{refused},
	  $r->{bigserial_lost}, $r->{bigserial_again}, $r->{bigserial_reissued};
	say "integration patroni: $line";
	print join('|', 'ids', $PART, $sc, $r->{ids}, $r->{lost}, $r->{again}, $r->{reissued}, $r->{bigserial_lost}, $r->{bigserial_again},
		$r->{bigserial_reissued}), "\n";
	say "  other error: $_ (x$r->{other_detail}{$_})" for sort keys %{ $r->{other_detail} };
	say "  warning to a writer: $_ (x$r->{warnings}{$_})" for sort keys %{ $r->{warnings} };
	say "  sno partitions in the final table: $r->{identities}";
	say "  $r->{cron}" if $r->{cron};
	$bad = 1 if $r->{cron_bad};
	say "  reissued: " . join(', ', map { "$_ $r->{by_type}{$_}" } sort keys %{ $r->{by_type} }) if $r->{reissued};
	push @line, sprintf('%s: %d failovers, %d ids, %d reissued', $sc, $r->{failovers}, $r->{ids}, $r->{reissued});
	$bad = 1 if $r->{dup_key} || $r->{below} || $r->{other};
	$bad = 1 if $sc ne 'async' && $r->{reissued};
}
printf "integration patroni: seed %d, %s; %d s%s\n", $SEED, join('; ', @line), time() - $T0, $bad ? '; FAILED' : '';
exit $bad;
