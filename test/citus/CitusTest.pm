# Helpers of the Citus tests (test/citus/*.pl, run by test/citus/run.sh):
# a Citus cluster on loopback (a coordinator and workers, metadata synced to
# every node, so clients may write through any of them: Citus's MX), writer
# sessions, and the checks every test makes of the IDs its nodes generated.
# No uid setting is touched: what a Citus user gets out of the box is what
# is tested.
#
# Ports: node slot N (the coordinator 0, worker i slot i, nodes added later
# 3, 4, ...) listens on UID_CITUS_PORT + N (default 29330).  Citus reaches
# each node over TCP at 127.0.0.1, so the ports must be out of the kernel's
# range of ephemeral ports (Linux: 32768-60999), where any connection's
# local end may hold one: test/lib.sh's ports (UID_PORT, 54329 and up) are
# there, but its servers listen on a socket only.  The TAP tests of the
# other stages, side by side, pick their ports in 10200-32767 and take none
# that a server listens on; their servers listen on a socket only too (030's
# on TCP, at a port it found free).  The test files run one after the
# other, and each stops its nodes at its end, so they use the same ports.
# The tests' own sessions use the socket.

package CitusTest;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types generator_calls poll_until poll_while_running start_worker finish_worker
  set_clock start_faked);

our @EXPORT = qw(citus_node citus_cluster add_node node_group
  generator_of create_id_table wait_past_ids
  duplicates check_no_duplicates out_of_order
  create_writer committed_batches start_writer wait_for_batches stop_writers
  identity_field identity_of expected_identity check_identity identity_sources
  reload_setting standby_of);

my $host = '127.0.0.1';

sub port_of
{
	my ($slot) = @_;
	return ($ENV{UID_CITUS_PORT} // 29330) + $slot;
}

# The kernel's range of ephemeral ports, if it says.
sub ephemeral_ports
{
	open my $fh, '<', '/proc/sys/net/ipv4/ip_local_port_range' or return ();
	my @range = split ' ', <$fh>;
	close $fh;
	return @range;
}

# A started node with Citus loaded and its extension created (every node of
# a Citus cluster needs CREATE EXTENSION citus; uid comes from the
# coordinator, which creates it on each node it adds).  $slot picks its
# port.  wal_level = logical: shard
# moves copy by logical replication.  citus.shard_count = 8 instead of 32:
# a statement through a worker that writes to every shard opens a connection
# per shard, and fewer shards keep the stage short (both workers still hold
# shards of every table).
sub citus_node
{
	my ($name, $slot) = @_;
	my $port = port_of($slot);

	my ($lo, $hi) = ephemeral_ports();
	diag "port $port is among the ephemeral ports ($lo-$hi): a connection may hold it"
	  if defined $hi && $port >= $lo && $port <= $hi;
	PostgreSQL::Test::Cluster::can_bind($host, $port)
	  or BAIL_OUT("port $port on $host is taken (UID_CITUS_PORT moves the Citus nodes' ports)");
	my $node = PostgreSQL::Test::Cluster->new($name, port => $port);
	$node->init;
	$node->append_conf(
		'postgresql.conf', qq{
listen_addresses = '$host'
shared_preload_libraries = 'citus'
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
max_worker_processes = 20
citus.shard_count = 8
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
	note "$name: port $port, "
	  . $node->safe_psql('postgres', q{SELECT split_part(citus_version(), ' on ', 1)});
	return $node;
}

# A streaming standby of the node $primary, named $name, on node slot
# $slot's port: a base backup (pg_basebackup) restored with
# PostgreSQL::Test::Cluster's init_from_backup, so its configuration is
# the node's (Citus preloaded, listen_addresses) and its uid installation
# the same; started, under libfaketime with its clock $o{clock} off real
# time (UidTest's set_clock: "-30") when that is given.  Its walreceiver's
# application_name is $name (the test harness starts each node with
# --cluster-name), which synchronous_standby_names on $primary may name.
sub standby_of
{
	my ($primary, $name, $slot, %o) = @_;
	my $port = port_of($slot);

	PostgreSQL::Test::Cluster::can_bind($host, $port)
	  or BAIL_OUT("port $port on $host is taken (UID_CITUS_PORT moves the Citus nodes' ports)");
	$primary->backup("$name.backup");
	my $node = PostgreSQL::Test::Cluster->new($name, port => $port);
	$node->init_from_backup($primary, "$name.backup", has_streaming => 1);
	if (defined $o{clock})
	{
		set_clock($node, $o{clock});
		start_faked($node);
	}
	else
	{
		$node->start;
	}
	$primary->wait_for_catchup($node, 'replay', $primary->lsn('insert'));
	note "$name: a standby of " . $primary->name . " on port $port";
	return $node;
}

# Adds $node to the cluster of $coord (citus_add_node: its metadata is synced,
# so it takes writes); returns its node group id.
sub add_node
{
	my ($coord, $node) = @_;
	my $port = $node->port;

	$coord->safe_psql('postgres', "SELECT citus_add_node('$host', $port)");
	poll_until(
		"the metadata of the node on port $port to be synced",
		sub {
			$coord->safe_psql('postgres',
				"SELECT hasmetadata AND metadatasynced FROM pg_dist_node WHERE nodeport = $port"
			) eq 't';
		}) or BAIL_OUT("node on port $port: metadata not synced");
	return $coord->safe_psql('postgres',
		"SELECT groupid FROM pg_dist_node WHERE nodeport = $port");
}

# The node group id a node says it has.
sub node_group
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group');
}

# A coordinator and $o{workers} (default 2) workers, added with
# citus_add_node; uid created on the coordinator (at $o{uid_version}, or
# the default version), and so on every worker.  Returns the coordinator
# and the workers.
sub citus_cluster
{
	my (%o) = @_;
	my $coord = citus_node('coordinator', 0);
	my @workers = map { citus_node("worker$_", $_) } 1 .. ($o{workers} // 2);
	my $version = defined $o{uid_version} ? " VERSION '$o{uid_version}'" : '';

	$coord->safe_psql('postgres', "CREATE EXTENSION uid$version");
	$coord->safe_psql('postgres',
		"SELECT citus_set_coordinator_host('$host', " . $coord->port . ')');
	add_node($coord, $_) for @workers;
	note 'nodes: '
	  . join ', ',
	  split /\n/,
	  $coord->safe_psql('postgres',
		q{SELECT format('group %s on port %s', groupid, nodeport) FROM pg_dist_node ORDER BY groupid});
	return ($coord, @workers);
}

# A type's tick, as an interval: two IDs made in different ticks sort by time.
my %tick = (
	sno => '4 ms',
	muid => '1 microsecond',
	snowflake_si => '1 ms',
	revts8 => '1 ms',
	uid60 => '1 s');

my %generator = generator_calls();
sub generator_of { return $generator{ $_[0] }; }

# A distributed table $name keyed by an ID of $type made by its generator
# (id $type DEFAULT <type>_new(), PRIMARY KEY unless unique => 0), with the
# columns $cols (SQL, e.g. "w int, b int").
sub create_id_table
{
	my ($node, $name, $type, $cols, %o) = @_;
	my $pk = ($o{unique} // 1) ? ' PRIMARY KEY' : '';

	$node->safe_psql(
		'postgres', qq{
		CREATE TABLE $name (id $type$pk DEFAULT $generator{$type}, $cols);
		SELECT create_distributed_table('$name', 'id');
	});
	return;
}

# Waits until the clock of $node is past the tick of every ID of $type in
# the table $table: IDs made from then on sort above all of them, on any
# node (one machine, one clock).
sub wait_past_ids
{
	my ($node, $table, $type) = @_;
	return poll_until(
		"the clock past the IDs of $table",
		sub {
			$node->safe_psql('postgres',
				"SELECT coalesce(clock_timestamp() > max(${type}_timestamp(id)) + interval '$tick{$type}', true) FROM $table"
			) eq 't';
		});
}

# How many rows of $table hold an ID that another row holds too (count(*) -
# count(DISTINCT id)), and how many rows there are.  In a table distributed
# by its ID, rows with one ID are in one shard and count(DISTINCT id) runs
# on the shards; otherwise Citus gathers the IDs.
sub duplicates
{
	my ($node, $table, $where) = @_;
	my ($rows, $distinct) = split /\|/,
	  $node->safe_psql('postgres',
		"SELECT count(*), count(DISTINCT id) FROM $table" . ($where ? " WHERE $where" : ''));
	return ($rows - $distinct, $rows);
}

# Checks that $table has no duplicate ID; returns the number of duplicates.
sub check_no_duplicates
{
	my ($node, $table, $what) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($dups, $rows) = duplicates($node, $table);
	is($dups, 0, "$what: no duplicate among $rows IDs");
	return $dups;
}

# How many rows of $table, in ID order, have a smaller $group (an SQL
# expression over its columns: the round or statement that made the row)
# than the row before: 0 when the IDs of each group sort above those of
# every earlier group.  The rows are gathered first (a MATERIALIZED CTE):
# Citus runs a window over a whole distributed table only on the
# coordinator's copy of the rows.
sub out_of_order
{
	my ($node, $table, $group) = @_;
	return $node->safe_psql(
		'postgres', qq{
		WITH r AS MATERIALIZED (SELECT id, $group AS g FROM $table)
		SELECT count(*) FROM (SELECT g < lag(g) OVER (ORDER BY id) AS bad FROM r) x WHERE bad});
}

# A reference table ctl that tells the writers when to stop, and a procedure
# writer(tabs, w, per) that inserts committed batches of per rows into each
# table of tabs (columns w int, b int: the writer and the batch), a batch
# into all of them in one transaction, until ctl says stop, and returns how
# many batches it committed; after each COMMIT it says (a NOTICE) how many
# it has committed, which is what a writer that fails had committed
# (committed_batches).  The IDs come from the tables' DEFAULT, made on the
# node the writer is connected to.
sub create_writer
{
	my ($coord) = @_;
	$coord->safe_psql(
		'postgres', q{
		CREATE TABLE ctl (k int PRIMARY KEY, stop bool NOT NULL);
		SELECT create_reference_table('ctl');
		INSERT INTO ctl VALUES (1, false);
		CREATE PROCEDURE writer(tabs text[], w int, per int, INOUT batches int DEFAULT 0)
		LANGUAGE plpgsql AS $$
		DECLARE
			tab text;
		BEGIN
			LOOP
				EXIT WHEN (SELECT stop FROM ctl WHERE k = 1);
				FOREACH tab IN ARRAY tabs LOOP
					EXECUTE format('INSERT INTO %I (w, b) SELECT $1, $2 FROM generate_series(1, $3)', tab)
						USING w, batches, per;
				END LOOP;
				batches := batches + 1;
				COMMIT;
				RAISE NOTICE 'committed % batches', batches;
			END LOOP;
		END $$;
	});
	return;
}

# How many batches a writer had committed, as it said on stderr ($err, of
# finish_worker) after each COMMIT: all of them when it ended in an error.
sub committed_batches
{
	my ($err) = @_;
	my @said = $err =~ /NOTICE:  committed (\d+) batches/g;
	return @said ? $said[-1] : 0;
}

# Starts a writer on $node into the tables @$tables as writer $w, $per rows a
# batch; returns its handle (UidTest's start_worker) with what
# stop_writers needs.
sub start_writer
{
	my ($node, $tables, $w, $per) = @_;
	my $h = start_worker($node,
		"CALL writer(ARRAY[" . join(', ', map { "'$_'" } @$tables) . "], $w, $per)");
	@$h{qw(tables w per name)} = ($tables, $w, $per, $node->name);
	return $h;
}

# Waits until every writer of @$writers has committed $n more batches than
# it had when all of them had committed one: from then on all of them were
# writing at once.  Gives up as soon as one writer has exited.
sub wait_for_batches
{
	my ($coord, $writers, $n) = @_;
	my $count = sub {
		my ($h) = @_;
		return "(SELECT count(DISTINCT b) FROM $h->{tables}[0] WHERE w = $h->{w})";
	};
	my $all = sub {
		my ($min) = @_;
		return join(' AND ', map { $count->($_) . ' >= ' . $min->($_) } @$writers);
	};

	poll_while_running($coord, 'SELECT ' . $all->(sub { 1 }), $writers) or return 0;
	my %had = map {
		$_->{w} => $coord->safe_psql('postgres', 'SELECT ' . $count->($_))
	} @$writers;
	return poll_while_running($coord, 'SELECT ' . $all->(sub { $had{ $_[0]{w} } + $n }),
		$writers);
}

# Tells the writers to stop and waits for them; checks that each ended
# without an error and that its rows are all there (batches x per in each
# of its tables).  Returns each writer's rows a table, by writer number.
sub stop_writers
{
	my ($coord, $writers, $what) = @_;
	my %rows;
	local $Test::Builder::Level = $Test::Builder::Level + 1;

	$coord->safe_psql('postgres', 'UPDATE ctl SET stop = true');
	for my $h (@$writers)
	{
		my ($rc, $out, $err) = finish_worker($h);
		my $name = "$what: writer $h->{w} (on $h->{name})";
		if (!is($rc, 0, "$name ended without an error"))
		{
			# how many batches it committed is not known
			diag join("\n", grep { !/NOTICE:  committed \d+ batches/ } split /\n/, $err);
			next;
		}
		my $batches = $out =~ /^(\d+)$/m ? $1 : 0;
		$rows{ $h->{w} } = $batches * $h->{per};
		for my $t (@{ $h->{tables} })
		{
			is($coord->safe_psql('postgres', "SELECT count(*) FROM $t WHERE w = $h->{w}"),
				$rows{ $h->{w} }, "$name: all its $batches committed batches are in $t");
		}
	}
	$coord->safe_psql('postgres', 'UPDATE ctl SET stop = false');
	return \%rows;
}

# The identity fields of an ID id of $type, as an SQL expression of text
# (revts8: generator|cluster).
my %identity_field = (
	sno => 'sno_partition(id)::text',
	muid => 'muid_medallion(id)::text',
	snowflake_si =>
	  q{snowflake_si_machine(id, current_setting('uid.snowflake_si_index_bits')::int)::text},
	revts8 => q{revts8_generator(id) || '|' || revts8_cluster(id)},
	uid60 => 'uid60_worker(id)::text');
sub identity_field { return $identity_field{ $_[0] }; }

# Runs $sql in $session: a node (in a new session) or a BackgroundPsql
# session (made with on_error_stop => 0).  Returns its output, or "error:
# <the message>".
sub run_sql
{
	my ($session, $sql) = @_;

	if ($session->isa('PostgreSQL::Test::Cluster'))
	{
		my ($rc, $out, $err) = $session->psql('postgres', $sql);
		return $rc == 0 ? $out : 'error: ' . ($err =~ s/\s+$//r);
	}
	my $out = $session->query($sql);
	my $err = $session->{stderr};
	$session->{stderr} = '';
	return $err ne '' ? "error: $err" : $out;
}

# The identity fields of an ID of each type made by $session (run_sql):
# type => the fields, or "error: <the message>" where the type refused.
sub identity_of
{
	my ($session) = @_;
	return {
		map {
			$_ => run_sql($session,
				"SELECT $identity_field{$_} FROM (SELECT $generator{$_} AS id) s")
		} id_types()
	};
}

# What identity_of gives on a node of node group $group whose identity comes
# from its group: revts8 splits it into its generator (6 bits) and cluster.
sub expected_identity
{
	my ($group) = @_;
	my %id = map { $_ => "$group" } id_types();
	$id{revts8} = ($group % 64) . '|' . int($group / 64);
	return \%id;
}

# Checks that IDs made in $session (run_sql) carry node group $group in
# every type's identity fields, and that uid_identity() there says each
# comes from Citus, with the group's values.
sub check_identity
{
	my ($session, $group, $what) = @_;
	my $got = identity_of($session);
	my $want = expected_identity($group);
	local $Test::Builder::Level = $Test::Builder::Level + 1;

	for my $type (id_types())
	{
		is($got->{$type}, $want->{$type},
			"$what: a $type ID carries node group $group ($want->{$type})");
	}
	my %source = identity_sources($session);
	my %field = (
		'sno partition' => $group,
		'muid medallion' => $group,
		'snowflake_si machine id' => $group,
		'revts8 generator' => $group % 64,
		'revts8 cluster' => int($group / 64),
		'uid60 worker' => $group);
	for my $k (sort keys %field)
	{
		is($source{$k} // 'no row', "$field{$k}|citus",
			"$what: uid_identity() shows $k $field{$k} from citus");
	}
	return;
}

# uid_identity() in $session (run_sql): "type field" => "value|source".
sub identity_sources
{
	my ($session) = @_;
	my $out = run_sql($session,
		q{SELECT type || ' ' || field, value, source FROM uid_identity()});
	return (error => $out) if $out =~ /^error: /;
	return map { my ($k, $v, $s) = split /\|/; ($k => ($v // '') . '|' . ($s // '')) }
	  split /\n/, $out;
}

# Sets $setting to $value on $node by ALTER SYSTEM (with $value undef:
# RESET) and reloads; polls until $check, a sub, says a new session has it
# (the postmaster takes a reload when it gets to it).  Returns what
# poll_until returns.
sub reload_setting
{
	my ($node, $setting, $value, $check) = @_;
	$node->safe_psql('postgres',
		defined $value
		? "ALTER SYSTEM SET $setting = $value"
		: "ALTER SYSTEM RESET $setting");
	$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
	return poll_until("$setting on " . $node->name . ' after the reload', $check);
}

1;
