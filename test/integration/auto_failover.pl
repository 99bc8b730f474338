#!/usr/bin/perl
# test/integration/auto_failover.pl: the pg_auto_failover part of the
# integration suite (issue 27).  Run by test/integration/auto_failover.sh,
# which installs what it needs and passes the installation in the
# environment; see that file for the settings and what it counts.
#
# Per scenario (hand, leased): a pg_auto_failover monitor and two data nodes
# on loopback (pg_autoctl 2.0, its defaults: synchronous replication with
# the secondary), every data node's postgres under libfaketime with a clock
# file of its own; one writer per type inserting through libpq's
# target_session_attrs=read-write, and a probe per node that generates
# outside any INSERT (SELECT sno_new(1), ...) and writes, ten times a
# second, so that the suite sees when each node first made an ID and when it
# first took a write; then the seeded events, `pg_autoctl perform failover`
# and a crash of the primary (kill -9 of its pg_autoctl and its whole
# postmaster tree; its pg_autoctl started again once the other node took
# writes), each with the secondary's clock set behind first.

use strict;
use warnings;

use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);

our ($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT);
BEGIN
{
	($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT) = ('auto_failover', '/tmp/uid-int', 9350);
	require(dirname(__FILE__) . '/common.pl');
}
our (%gen, @types, @writers, $PG_BIN, $FAKETIME, $SEED, $RATE, $SCRATCH, $BASE_PORT, $WAIT, $T0, @children, $COORD_PORT,
	%writer_pid, @PIDFILE_GLOBS, $TL_SQL);

my @SCENARIOS = split ' ', ($ENV{UID_INT_SCENARIOS} // 'hand leased');
for my $s (@SCENARIOS)
{
	die "unknown scenario '$s': hand or leased\n" unless $s =~ /^(hand|leased)$/;
}
my $EVENTS = $ENV{UID_INT_EVENTS} // 2;

# Ports: the monitor 9351, the nodes 9352 and 9353, the coordinator 9360.
my $MON_PORT = $BASE_PORT + 1;
my %pg_port = (n1 => $BASE_PORT + 2, n2 => $BASE_PORT + 3);
my @names = sort keys %pg_port;

# The plan, drawn from the seed: the events' order (a failover and a crash,
# then more drawn), the secondary's clock behind real time before each.
srand($SEED);
my @kinds = shuffle(qw(failover crash));
push @kinds, (qw(failover crash))[ int rand 2 ] while @kinds < $EVENTS;
@kinds = @kinds[ 0 .. $EVENTS - 1 ];
my @plan = map { { kind => $_, behind => 20 + int rand 101 } } @kinds;

@PIDFILE_GLOBS = map { ("$SCRATCH-paf-$_/*/postmaster.pid", "$SCRATCH-paf-$_/coordinator/data/postmaster.pid") } @SCENARIOS;

my %autoctl_pid;

sub autoctl_env
{
	my ($dir) = @_;
	# pg_autoctl keeps its configuration and state under these
	$ENV{XDG_CONFIG_HOME} = "$dir/config";
	$ENV{XDG_DATA_HOME} = "$dir/share";
}

# A node's bin directory: the installation's programs, but postgres started
# under libfaketime with the node's clock file (patroni.pl's node_config;
# pg_autoctl runs the postgres beside the pg_ctl it is given).
sub node_bin
{
	my ($dir, $name) = @_;
	faked_bin("$dir/$name.bin", "$dir/$name.faketime");
}

sub monitor_uri
{
	my ($dir) = @_;
	my $uri = `runuser -u postgres -- env XDG_CONFIG_HOME='$dir/config' XDG_DATA_HOME='$dir/share' pg_autoctl show uri --pgdata '$dir/mon' --formation monitor 2>/dev/null`;
	chomp $uri;
	return $uri =~ /^postgres:/ ? $uri : undef;
}

# The monitor's view: node name => [reported state, goal state].
sub states
{
	my $dbh = DBI->connect("dbi:Pg:host=127.0.0.1;port=$MON_PORT;dbname=pg_auto_failover;connect_timeout=5",
		'postgres', '', { RaiseError => 1, PrintError => 0, AutoCommit => 1 });
	my $rows = $dbh->selectall_arrayref('SELECT nodename, reportedstate, goalstate FROM pgautofailover.node');
	$dbh->disconnect;
	return { map { $_->[0] => [ $_->[1], $_->[2] ] } @$rows };
}

sub states_text
{
	my $s = eval { states() } or return '?';
	return join(', ', map { "$_ $s->{$_}[0]" . ($s->{$_}[0] eq $s->{$_}[1] ? '' : "->$s->{$_}[1]") } sort keys %$s);
}

sub settled
{
	my ($primary) = @_;
	my $s = states();
	my ($other) = grep { $_ ne $primary } @names;
	return $s->{$primary} && $s->{$primary}[0] eq 'primary' && $s->{$primary}[1] eq 'primary'
	  && $s->{$other} && $s->{$other}[0] eq 'secondary' && $s->{$other}[1] eq 'secondary';
}

# The node takes a write (in a default transaction: not read-only), and
# returns its timeline (patroni.pl's writable).
sub writable
{
	my ($n) = @_;
	my $dbh = db($pg_port{$n});
	my ($ro) = $dbh->selectrow_array('SELECT pg_is_in_recovery()');
	return 0 if $ro;
	$dbh->do('CREATE TEMP TABLE probe (x int)');
	my ($tl) = $dbh->selectrow_array(q{SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int});
	$dbh->disconnect;
	return $tl;
}

sub start_node
{
	my ($dir, $name, @create) = @_;
	$autoctl_pid{$name} = spawn_pg("$dir/$name.log", {}, 'pg_autoctl', @create ? @create : ('run', '--pgdata', "$dir/$name"));
}

sub create_node
{
	my ($dir, $name, $uri) = @_;
	start_node($dir, $name, 'create', 'postgres', '--pgdata', "$dir/$name", '--pgport', $pg_port{$name},
		'--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--name', $name, '--auth', 'trust', '--no-ssl',
		'--pgctl', "$dir/$name.bin/pg_ctl", '--monitor', $uri, '--run');
}

sub crash_node
{
	my ($dir, $n) = @_;
	# the postmaster first (stopped, so that it forks no more), then the
	# whole process group pg_autoctl leads (spawn_pg's setsid): its
	# supervisor's services too, or an orphaned "start/stop postgres"
	# service starts postgres again at once, which no host crash does
	my $kids = crash_postmaster("$dir/$n");
	kill 'KILL', -$autoctl_pid{$n};
	waitpid($autoctl_pid{$n}, 0);
	return $kids;
}

sub stop_nodes
{
	my ($dir) = @_;
	for my $n (@names, 'mon')
	{
		my $pid = $autoctl_pid{$n} or next;
		kill 'TERM', $pid;
	}
	for my $n (@names, 'mon')
	{
		my $pid = delete $autoctl_pid{$n} or next;
		my $end = time() + 90;
		while (waitpid($pid, WNOHANG) == 0)
		{
			if (time() > $end) { crash_postmaster("$dir/$n") if -e "$dir/$n/postmaster.pid"; kill 'KILL', $pid; }
			sleep 0.3;
		}
	}
	# a postgres that outlived its pg_autoctl (seen once: the next scenario's
	# node found its port taken)
	for my $n (@names, 'mon')
	{
		next unless -e "$dir/$n/postmaster.pid";
		run_as_pg(\"$dir/$n.stop.log", "$PG_BIN/pg_ctl", '-D', "$dir/$n", '-m', 'fast', '-w', '-t', 60, 'stop')
		  or crash_postmaster("$dir/$n");
	}
}

# What the probe on $name saw from $from on: the first ID, the first write,
# the first and last refusal because the transaction was read-only though
# the node was out of recovery, and IDs made read-only or in recovery.
sub probe_view
{
	my ($dir, $name, $from, $to) = @_;
	my %v = (ro_refused => 0, ro_ids => 0);
	for my $l (probe_lines($dir, $name))
	{
		next if $l->[0] < $from || (defined $to && $l->[0] > $to);
		if ($l->[2] eq 'ok' && $l->[1] eq 'write') { $v{write} //= $l->[0]; next }
		if ($l->[2] eq 'ok')
		{
			$v{id} //= $l->[0];
			my ($ro, $rec) = @{$l}[ 4, 5 ];
			$v{ro_ids}++ if $ro eq 'on' || $rec;
			next;
		}
		if ($l->[1] ne 'write' && $l->[3] eq '25006' && ($l->[4] // '') =~ /read-only transaction/)
		{
			$v{ro_first} //= $l->[0];
			$v{ro_last} = $l->[0];
			$v{ro_refused}++;
		}
	}
	return \%v;
}

sub scenario
{
	my ($sc) = @_;
	my $dir = "$SCRATCH-paf-$sc";
	fresh_scratch($dir, '*/postmaster.pid');
	autoctl_env($dir);
	say "$sc: scratch $dir";
	start_coordinator("$dir/coordinator") if $sc eq 'leased';
	node_bin($dir, $_) for @names;

	$autoctl_pid{mon} = spawn_pg("$dir/mon.log", {}, 'pg_autoctl', 'create', 'monitor', '--pgdata', "$dir/mon",
		'--pgport', $MON_PORT, '--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'trust', '--no-ssl',
		'--pgctl', "$PG_BIN/pg_ctl", '--run');
	my $uri = wait_for('the monitor', sub { monitor_uri($dir) && states() && monitor_uri($dir) });
	create_node($dir, 'n1', $uri);
	wait_for('n1 to be single', sub { (states()->{n1}[0] // '') eq 'single' && writable('n1') });
	my $dbh = db($pg_port{n1});
	$dbh->do('CREATE EXTENSION uid');
	create_tables($dbh);
	# the identity, in postgresql.auto.conf: the secondary's base backup
	# carries it
	$dbh->do("LOAD 'uid'");
	for (split /\n/, identity_conf($sc))
	{
		my ($k, $v) = /^(\S+) = (.*)$/ or die;
		$dbh->do("ALTER SYSTEM SET $k = $v");
	}
	$dbh->do('SELECT pg_reload_conf()');
	$dbh->disconnect;
	create_node($dir, 'n2', $uri);
	wait_for('n1 primary, n2 secondary', sub { settled('n1') });
	say "$sc: monitor on $MON_PORT, n1 primary on $pg_port{n1}, n2 secondary on $pg_port{n2} (" . states_text() . ')';

	my $hosts = join ',', ('127.0.0.1') x @names;
	my $ports = join ',', map { $pg_port{$_} } @names;
	start_writers($dir, "dbi:Pg:host=$hosts;port=$ports;dbname=postgres;target_session_attrs=read-write;"
		  . 'connect_timeout=3;keepalives_idle=5;keepalives_interval=2;keepalives_count=3');
	start_probe($dir, $_, $pg_port{$_}) for @names;
	my $lead = 'n1';
	my $tl = writable($lead);
	wait_writing($dir, $tl, 50, 'start');

	my @events;
	for my $i (0 .. $#plan)
	{
		my $p = $plan[$i];
		my ($cand) = grep { $_ ne $lead } @names;
		my $ev = { kind => $p->{kind}, old => $lead, new => $cand, old_tl => $tl };
		set_clock("$dir/$cand.faketime", $pg_port{$cand}, -$p->{behind});
		$ev->{start} = time();
		if ($p->{kind} eq 'failover')
		{
			run_as_pg(\"$dir/perform.log", 'pg_autoctl', 'perform', 'failover', '--pgdata', "$dir/$lead", '--wait', $WAIT)
			  or say "$sc: pg_autoctl perform failover returned an error (see $dir/perform.log)";
		}
		else
		{
			crash_node($dir, $lead);
		}
		wait_for("$cand to take writes", sub { writable($cand) });
		$ev->{ready} = time();
		start_node($dir, $lead) if $p->{kind} eq 'crash';
		$ev->{tl} = writable($cand);
		wait_writing($dir, $ev->{tl}, 20, 'after event ' . ($i + 1));
		wait_for("$cand primary, $lead secondary again", sub { settled($cand) });
		$ev->{settled} = time();
		$ev->{view} = probe_view($dir, $cand, $ev->{start}, $ev->{settled});
		$ev->{old_view} = probe_view($dir, $lead, $ev->{start}, $ev->{settled});
		$ev->{behind} = -clock_offset($pg_port{$cand});
		my $v = $ev->{view};
		say sprintf('%s: event %d, %s: %s -> %s (timeline %d, clock %.0f s behind), writes after %.1f s, both back after %.1f s; '
			  . 'on %s the first write %.2f s and the first ID %.2f s after the event; %d refusals read-only out of recovery '
			  . '(%s), %d IDs made read-only or in recovery',
			$sc, $i + 1, $p->{kind}, $lead, $cand, $ev->{tl}, $ev->{behind}, $ev->{ready} - $ev->{start},
			$ev->{settled} - $ev->{start}, $cand, ($v->{write} // 0) - $ev->{start}, ($v->{id} // 0) - $ev->{start},
			$v->{ro_refused}, defined $v->{ro_first} ? sprintf('for %.2f s', $v->{ro_last} - $v->{ro_first}) : 'none',
			$v->{ro_ids} + $ev->{old_view}{ro_ids});
		$lead = $cand;
		$tl = $ev->{tl};
		push @events, $ev;
	}
	stop_writers();
	stop_probes();

	# the counts
	my %r = (events => scalar @events);
	my $held = held_ids($dir);
	my ($n, $per) = reissued($held);
	$r{reissued} = $n;
	$r{ids} = 0;
	$r{ids} += @{ $held->{$_} } for @types;
	$r{below} = 0;
	$r{lost} = 0;
	my $dbh2 = db($pg_port{$lead});
	for my $type (@types)
	{
		my ($below) = $dbh2->selectrow_array(qq{
			SELECT count(*) FROM t_$type a
			WHERE a.id <= (SELECT max(b.id) FROM t_$type b WHERE b.tl < a.tl)});
		$r{below} += $below;
		my %kept = map { $_ => 1 } @{ $dbh2->selectcol_arrayref("SELECT id::text FROM t_$type") };
		$r{lost} += grep { !$kept{ $_->[1] } } acks($dir, $type);
	}
	$dbh2->disconnect;
	my $e = error_counts($dir);
	@r{qw(dup_key other other_detail)} = @{$e}{qw(dup_key other detail)};
	# per event: the bigserial's time without a row, each type's beyond it,
	# uid's refusals (from the event to the next)
	for my $i (0 .. $#events)
	{
		my $ev = $events[$i];
		my $av = availability($dir, $ev->{start}, $i < $#events ? $events[ $i + 1 ]{start} : $ev->{settled},
			sub { $_[0][2] == $ev->{old_tl} }, sub { $_[0][2] == $ev->{tl} });
		report_availability($sc, 'event ' . ($i + 1) . ", $ev->{kind}", $av);
	}
	# the bigserial's rows: lost (not in the final primary's table), given twice
	my %kept = map { $_ => 1 } @{ sql_col($pg_port{$lead}, 'SELECT id::text FROM t_bigserial') };
	my %seen;
	my @bs = acks($dir, 'bigserial');
	$r{bigserial_lost} = grep { !$kept{ $_->[1] } } @bs;
	$r{bigserial_reissued} = grep { $seen{ $_->[1] }++ } @bs;
	print join('|', 'ids', $PART, $sc, $r{ids}, $r{lost}, '-', $r{reissued}, $r{bigserial_lost}, '-', $r{bigserial_reissued}), "\n";
	# whole run: IDs made read-only or in recovery, on either node
	$r{ro_ids} = 0;
	$r{ro_ids} += probe_view($dir, $_, 0)->{ro_ids} for @names;
	$r{kinds} = join '/', map { $_->{kind} } @events;
	$r{window} = join '/', map {
		defined $_->{view}{ro_first} ? sprintf('%.1f', $_->{view}{ro_last} - $_->{view}{ro_first}) : '0'
	} @events;
	$r{id_vs_write} = join '/', map {
		defined $_->{view}{id} && defined $_->{view}{write} ? sprintf('%+.2f', $_->{view}{id} - $_->{view}{write}) : '?'
	} @events;
	$r{refused} = join '/', map { sprintf '%.1f', ($_->{view}{id} // $_->{settled}) - $_->{start} } @events;
	stop_nodes($dir);
	stop_coordinator("$dir/coordinator") if $sc eq 'leased';
	return \%r;
}

# --- main --------------------------------------------------------------------------

$ENV{UID_INT_MAIN_PID} = $$;
$SIG{INT} = $SIG{TERM} = sub { die "interrupted\n" };

say "integration auto_failover: seed $SEED; events "
  . join(', ', map { sprintf '%s (the secondary\'s clock %d s behind)', $_->{kind}, $_->{behind} } @plan);
my @line;
my $bad = 0;
for my $sc (@SCENARIOS)
{
	my $r = run_scenario($sc, "$SCRATCH-paf-$sc", \&scenario);
	say sprintf('integration auto_failover: %s: %d events (%s), %d ids, %d of them lost, %d reissued, %d at or below the replicated, '
		  . '%d 23505, %d other errors (refusals of uid\'s), %d made read-only or in recovery; read-only out of recovery for %s s, '
		  . 'first ID minus first write %s s, no ID for %s s after the event',
		$sc, $r->{events}, $r->{kinds}, $r->{ids}, $r->{lost}, $r->{reissued}, $r->{below}, $r->{dup_key}, $r->{other},
		$r->{ro_ids}, $r->{window}, $r->{id_vs_write}, $r->{refused});
	say "  other error: $_ (x$r->{other_detail}{$_})" for sort keys %{ $r->{other_detail} };
	push @line, sprintf('%s: %d events, %d ids, %d reissued, %d made read-only', $sc, $r->{events}, $r->{ids}, $r->{reissued},
		$r->{ro_ids});
	$bad = 1 if $r->{dup_key} || $r->{below} || $r->{other} || $r->{ro_ids} || $r->{reissued};
}
printf "integration auto_failover: seed %d, %s; %d s%s\n", $SEED, join('; ', @line), time() - $T0, $bad ? '; FAILED' : '';
exit $bad;
