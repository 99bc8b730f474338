# test/integration/common.pl: what the integration suite's parts (Patroni,
# pgBackRest, pg_auto_failover) share (issue 27).  Loaded with `require` by
# patroni.pl, pgbackrest.pl and auto_failover.pl, into their package (main),
# after they set $PART, $SCRATCH_DEFAULT and $PORT_DEFAULT.  Its first half
# (spawn_pg, reap, wait_for, run_as_pg, pg_dir, write_file, children_of, db,
# the coordinator, the writer, stop_writers, ack_count, wait_writing,
# read_lines) came from patroni.pl; where a part needs it a little
# otherwise, a parameter or a setting says how.

use strict;
use warnings;

use DBI;
use File::Path qw(make_path remove_tree);
use POSIX qw(setsid :sys_wait_h);
use Time::HiRes qw(time sleep);

our ($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT);

our %gen = (
	sno => 'sno_new(1)',
	muid => 'muid_new()',
	snowflake_si => 'snowflake_si_new()',
	revts8 => 'revts8_new()',
	uid60 => 'uid60_new()');
our @types = sort keys %gen;
# What the writer inserts into, in this order each round: a bigserial, then
# every type.  The bigserial's row is what the event costs any table, and a
# type's time beyond it, on the same connection, is what uid costs.
our @writers = ('bigserial', @types);

our $PG_BIN = $ENV{UID_INT_PG_BIN} or die "UID_INT_PG_BIN is not set\n";
our $FAKETIME = $ENV{UID_INT_FAKETIME} or die "UID_INT_FAKETIME is not set\n";
our $SEED = $ENV{UID_INT_SEED} // int(time() * 1000) % 1_000_000;
our $RATE = $ENV{UID_INT_RATE} // 25;           # inserts per second per writer
our $SCRATCH = $ENV{UID_INT_SCRATCH} // $SCRATCH_DEFAULT;
our $BASE_PORT = $ENV{UID_INT_PORT} // $PORT_DEFAULT;
our $WAIT = $ENV{UID_INT_WAIT} // 240;          # seconds any one state may take to come
our $PROBE_RATE = 10;                           # probe rounds per second (one per type and a write)
our $DEADLINE;    # seconds the whole run may take, if a part sets it (patroni.pl's UID_INT_DEADLINE)

die "UID_INT_SEED is not a number\n" unless $SEED =~ /^\d+$/;

our ($pg_uid, $pg_gid) = (getpwnam('postgres'))[ 2, 3 ];
defined $pg_uid or die "no postgres OS user\n";

our $T0 = time();
our @children;    # pids we started and must end: [pid, what]

sub say { printf "[%6.1f] %s\n", time() - $T0, join('', @_); }
sub fail { die "integration $PART: $_[0]\n"; }

sub shuffle { my @a = @_; for (my $i = @a; --$i;) { my $j = int rand($i + 1); @a[ $i, $j ] = @a[ $j, $i ]; } @a }

# --- processes -------------------------------------------------------------

# Starts a command as the postgres OS user in a session of its own, its
# output to $log; returns its pid (the command's own: fork and exec).
sub spawn_pg
{
	my ($log, $env, @cmd) = @_;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		setsid();
		open STDIN, '<', '/dev/null';
		open STDOUT, '>>', $log or die "$log: $!";
		open STDERR, '>&', \*STDOUT;
		$( = $) = "$pg_gid $pg_gid";
		$< = $> = $pg_uid;
		$ENV{HOME} = '/var/lib/postgresql';
		$ENV{$_} = $env->{$_} for keys %$env;
		exec @cmd or die "exec $cmd[0]: $!";
	}
	push @children, [ $pid, "$cmd[0] (log $log)" ];
	return $pid;
}

sub reap { 1 while waitpid(-1, WNOHANG) > 0; }

# Waits until $cond returns true, polling every $step s, for at most $limit s
# ($WAIT by default); returns its value, or dies naming $what.
sub wait_for
{
	my ($what, $cond, $limit, $step) = @_;
	my $end = time() + ($limit // $WAIT);
	while (1)
	{
		reap();
		my $v = eval { $cond->() };
		return $v if $v;
		fail("waited " . ($limit // $WAIT) . " s for $what") if time() > $end;
		fail("the run's deadline of $DEADLINE s passed, waiting for $what") if defined $DEADLINE && time() > $T0 + $DEADLINE;
		sleep($step // 0.5);
	}
}

# Runs a command as the postgres OS user; true if it succeeded.  Its output
# goes to a log when the first argument is a reference to the log's name
# (appended to), else where ours goes.
sub run_as_pg
{
	my (@cmd) = @_;
	my $log = ref $cmd[0] eq 'SCALAR' ? ${ shift @cmd } : undef;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		open STDIN, '<', '/dev/null';
		if (defined $log)
		{
			open STDOUT, '>>', $log or die "$log: $!";
			open STDERR, '>&', \*STDOUT;
		}
		$( = $) = "$pg_gid $pg_gid";
		$< = $> = $pg_uid;
		$ENV{HOME} = '/var/lib/postgresql';
		exec @cmd or die "exec $cmd[0]: $!";
	}
	waitpid($pid, 0);
	return $? == 0;
}

sub pg_dir
{
	my ($dir) = @_;
	make_path($dir);
	chown $pg_uid, $pg_gid, $dir;
	chmod 0700, $dir;
}

sub write_file
{
	my ($file, $text) = @_;
	open my $fh, '>', "$file.tmp" or die "$file.tmp: $!";
	print $fh $text;
	close $fh or die "$file.tmp: $!";
	chown $pg_uid, $pg_gid, "$file.tmp";
	rename "$file.tmp", $file or die "rename to $file: $!";
}

# The children of $pid (from /proc).
sub children_of
{
	my ($pid) = @_;
	my @kids;
	for my $stat (glob '/proc/[0-9]*/stat')
	{
		open my $fh, '<', $stat or next;
		my $line = <$fh> // next;
		push @kids, $1 if $line =~ /^(\d+) \(.*\) \S+ (\d+) / && $2 == $pid;
	}
	return @kids;
}

# kill -9 of a postmaster and every child (stopped first, so that it forks
# no more), as a crash of its host; $name (default: $data) names it if it
# has no pid file.
sub crash_postmaster
{
	my ($data, $name) = @_;
	open my $fh, '<', "$data/postmaster.pid" or fail(($name // $data) . " has no postmaster.pid");
	my $pm = <$fh>;
	chomp $pm;
	close $fh;
	kill 'STOP', $pm;
	my @kids = children_of($pm);
	kill 'KILL', $pm, @kids;
	return scalar @kids;
}

# --- servers -----------------------------------------------------------------

# faked_bin(BIN_DIR, CLOCK_FILE): a bin directory for a tool that starts
# postgres itself (Patroni, pg_autoctl): links to every program of $PG_BIN
# but postgres, a wrapper that runs it under libfaketime with CLOCK_FILE
# (written "+0": no offset until set_clock) as its clock.
sub faked_bin
{
	my ($bin, $clock) = @_;
	pg_dir($bin);
	for my $prog (glob "$PG_BIN/*")
	{
		my $link = "$bin/" . ($prog =~ s{.*/}{}r);
		symlink $prog, $link unless $link =~ m{/postgres$};
	}
	write_file($clock, "+0\n");
	write_file("$bin/postgres", <<"EOF");
#!/bin/sh
exec env LD_PRELOAD='$FAKETIME' FAKETIME_TIMESTAMP_FILE='$clock' \\
	FAKETIME_CACHE_DURATION=1 FAKETIME_DONT_FAKE_MONOTONIC=1 '$PG_BIN/postgres' "\$@"
EOF
	chmod 0755, "$bin/postgres";
	return;
}

sub db
{
	my ($port, %o) = @_;
	return DBI->connect("dbi:Pg:host=127.0.0.1;port=$port;dbname=postgres;connect_timeout=5",
		'postgres', '', { RaiseError => 1, PrintError => 0, AutoCommit => 1, %o });
}

sub sql1
{
	my ($port, $q) = @_;
	my $dbh = db($port);
	my @r = $dbh->selectrow_array($q);
	$dbh->disconnect;
	return wantarray ? @r : $r[0];
}

# The first column of every row of $q on the server on $port.
sub sql_col
{
	my ($port, $q) = @_;
	my $dbh = db($port);
	my $r = $dbh->selectcol_arrayref($q);
	$dbh->disconnect;
	return $r;
}

# The environment that runs a postgres under libfaketime with clock file $rc
# (patroni.pl's node bin/postgres wrapper, as a list for env).
sub faked_env
{
	my ($rc) = @_;
	return ("LD_PRELOAD=$FAKETIME", "FAKETIME_TIMESTAMP_FILE=$rc", 'FAKETIME_CACHE_DURATION=1',
		'FAKETIME_DONT_FAKE_MONOTONIC=1');
}

# The server's clock minus real time, in seconds.
sub clock_offset
{
	my ($port) = @_;
	my $dbh = db($port);
	my $before = time();
	my ($t) = $dbh->selectrow_array('SELECT extract(epoch FROM clock_timestamp())');
	my $after = time();
	$dbh->disconnect;
	return $t - ($before + $after) / 2;
}

# Sets the clock of the server on $port (clock file $rc) $offset s from real
# time and waits until its backends read it (libfaketime re-reads the file
# about once a second); $what names the wait (default: by port and offset).
sub set_clock
{
	my ($rc, $port, $offset, $what) = @_;
	write_file($rc, sprintf("%+d\n", $offset));
	wait_for($what // "port $port\'s clock to go to $offset s", sub { abs(clock_offset($port) - $offset) < 1.5 }, 60);
}

# The timeline a primary writes on, in SQL (an error in recovery).
our $TIMELINE = q{('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int};

# The timeline of the server on $port as a writer sees it, or 0 in recovery.
our $TL_SQL = "SELECT CASE WHEN pg_is_in_recovery() THEN 0\n\tELSE $TIMELINE END, inet_server_port()";

# --- the coordinator of the leased scenario ------------------------------------

our $COORD_PORT = $BASE_PORT + 10;

# A new server in $dir/data (initdb as postgres), on 127.0.0.1:$port with
# its socket in $dir and $conf added to its postgresql.conf, not started;
# $what names it in a failure, initdb's output goes to $log (a file to
# append to; default: where ours goes).
sub init_server
{
	my ($dir, $port, $conf, $what, $log) = @_;
	pg_dir($dir);
	run_as_pg(defined $log ? \$log : (), "$PG_BIN/initdb", '-D', "$dir/data", '-A', 'trust', '-U', 'postgres', '--no-sync')
	  or fail("initdb of $what");
	open my $fh, '>>', "$dir/data/postgresql.conf" or die;
	print $fh "listen_addresses = '127.0.0.1'\nport = $port\nunix_socket_directories = '$dir'\n$conf";
	close $fh;
}

# $log: where initdb's and pg_ctl's output goes (a file to append to;
# default: where ours goes), for start and stop alike.
sub start_coordinator
{
	my ($dir, $log) = @_;
	# A pool_grace of 600 s: the writers' clocks go up to 120 s behind,
	# inside the bound of half of it.
	init_server($dir, $COORD_PORT, "uid.pool_grace = 600\n", 'the coordinator', $log);
	run_as_pg(defined $log ? \$log : (), "$PG_BIN/pg_ctl", '-D', "$dir/data", '-w', '-l', "$dir/coordinator.log", 'start')
	  or fail('start of the coordinator');
	my $dbh = wait_for('the coordinator', sub { db($COORD_PORT) });
	$dbh->do('CREATE EXTENSION uid');
	$dbh->disconnect;
	say "coordinator: port $COORD_PORT, uid.pool_grace 600 s";
}

sub stop_coordinator
{
	my ($dir, $log) = @_;
	run_as_pg(defined $log ? \$log : (), "$PG_BIN/pg_ctl", '-D', "$dir/data", '-m', 'fast', '-w', 'stop')
	  if -e "$dir/data/postmaster.pid";
}

# The identity settings of a writer: hand-set (the same on every server that
# shares the data: a copy, a standby) or leased from the coordinator.
sub identity_conf
{
	my ($sc) = @_;
	return $sc eq 'leased'
	  ? "session_preload_libraries = 'uid'\n"
	  . "uid.coordinator = 'host=127.0.0.1 port=$COORD_PORT dbname=postgres user=postgres'\n"
	  . "uid.pool = 'int'\nuid.pool_size = 32\n"
	  : "uid.partition = 7\nuid.generator = 5\nuid.cluster = 3\nuid.medallion = '5ea4c0ffee'\n";
}

# A scenario's scratch directory, new; refuses while a server of an earlier
# run still runs there (by the pid files $glob finds).
sub fresh_scratch
{
	my ($dir, $glob) = @_;
	for my $pidfile (glob "$dir/$glob")
	{
		fail("$pidfile exists: a server of an earlier run still runs? stop it first")
		  if grep { kill 0, $_ } (split /\n/, `head -n 1 $pidfile`);
	}
	remove_tree($dir);
	pg_dir($dir);
}

# --- the writers ---------------------------------------------------------------

# The writers' tables (t_TYPE, t_bigserial) and the probes' (probe_w, a
# bigserial too), on the server $dbh is connected to.
sub create_tables
{
	my ($dbh) = @_;
	$dbh->do("CREATE TABLE t_$_ (id $_ PRIMARY KEY DEFAULT $gen{$_}, tl int NOT NULL)") for @types;
	$dbh->do('CREATE TABLE t_bigserial (id bigserial PRIMARY KEY, tl int NOT NULL)');
	$dbh->do('CREATE TABLE probe_w (id bigserial PRIMARY KEY, at timestamptz DEFAULT clock_timestamp())');
}

our %writer_pid;

# A writer: one connection through $dsn that inserts, round after round,
# into t_bigserial and then into every t_TYPE (@writers), $RATE rounds a
# second, and appends each acknowledged row to acks-WRITER (real time, ID,
# timeline, port) and each error to errors-WRITER (real time, SQLSTATE,
# message).  On one connection, the bigserial's first row after an event and
# a type's first row are a round apart at most when uid refuses nothing: a
# type's time beyond the bigserial's is uid's own (availability()).  A
# refusal of one table does not stop the round; a lost or read-only
# connection does (the writer connects again).  It reads the timeline as 0
# on a server in recovery, and records that as an error "recovery" of every
# writer.  Options (%$o):
#   primary_only  the DSN reaches only a primary (target_session_attrs):
#                 the timeline read with $TIMELINE, and when that fails (a
#                 server in recovery, a lost connection), its SQLSTATE and
#                 message recorded
#   notices       libpq's notices (the server's warnings) to notices
#   jitter        rounds spaced at random around the mean
sub writer
{
	my ($dir, $dsn, $o) = @_;
	$o //= {};
	my (%acks, %errs);
	for my $w (@writers)
	{
		open $acks{$w}, '>>', "$dir/acks-$w" or die;
		open $errs{$w}, '>>', "$dir/errors-$w" or die;
		$acks{$w}->autoflush(1);
		$errs{$w}->autoflush(1);
	}
	my $err_all = sub { my $line = sprintf "%.3f %s\n", time(), $_[0]; print { $errs{$_} } $line for @writers };
	# libpq's notices (the server's warnings) go to stderr
	if ($o->{notices}) { open STDERR, '>>', "$dir/notices" or die; }
	my $stop = 0;
	$SIG{TERM} = sub { $stop = 1 };
	my ($dbh, %sth, $tl, $port);
	my $pace = 1 / $RATE;
	my $next = time();
	while (!$stop)
	{
		if (!$dbh)
		{
			$dbh = DBI->connect($dsn, 'postgres', '', { RaiseError => 0, PrintError => 0, AutoCommit => 1 });
			if (!$dbh)
			{
				$err_all->('connect ' . ((split /\n/, $DBI::errstr // '')[0] // ''));
				sleep 0.3;
				next;
			}
			($tl, $port) = $dbh->selectrow_array($o->{primary_only} ? "SELECT $TIMELINE, inet_server_port()" : $TL_SQL);
			if (!defined $port || !$tl)
			{
				# in recovery: no timeline to record yet (a row written after a
				# promotion would carry 0); the probes show the refusal
				# (primary_only: the query failed, in recovery or on a lost
				# connection)
				$err_all->($o->{primary_only}
					? ($dbh->state || '?????') . ' ' . ((split /\n/, $dbh->errstr // '')[0] // '')
					: 'recovery ' . (defined $port ? 'in recovery' : 'no answer'));
				$dbh->disconnect;
				undef $dbh;
				sleep 0.3;
				next;
			}
			$sth{$_} = $dbh->prepare("INSERT INTO t_$_ (tl) VALUES (?) RETURNING id::text") for @writers;
		}
		for my $w (@writers)
		{
			my $ok = $sth{$w}->execute($tl);
			my $at = time();
			if ($ok)
			{
				my ($id) = $sth{$w}->fetchrow_array;
				printf { $acks{$w} } "%.3f %s %d %d\n", $at, $id, $tl, $port;
				next;
			}
			my $state = $dbh->state || '?????';
			my $msg = (split /\n/, $dbh->errstr // '')[0] // '';
			printf { $errs{$w} } "%.3f %s %s\n", $at, $state, $msg;
			# a lost or read-only connection: find the leader again (a
			# refusal of uid's may carry 08006 too: a coordinator it could
			# not reach; the connection is still there)
			if (!$dbh->ping || $state =~ /^(57P|25006)/)
			{
				%sth = ();
				$dbh->disconnect;
				undef $dbh;
				last;
			}
		}
		# jitter: a writer on a fixed grid, and a next leader's clock a whole
		# number of seconds off, would put its IDs in the same phase of
		# every tick as the lost ones
		$next += $o->{jitter} ? $pace * (0.5 + rand) : $pace;
		my $nap = $next - time();
		if ($nap > 0) { sleep $nap } else { $next = time() }
	}
	exit 0;
}

# The writer into $dir, with writer's options $o.
sub start_writers
{
	my ($dir, $dsn, $o) = @_;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		@children = ();
		srand() if $o && $o->{jitter};    # a seed of its own, not the plan's
		writer($dir, $dsn, $o);
	}
	$writer_pid{$dir} = $pid;
	push @children, [ $pid, "writer into $dir" ];
}

# SIGTERM to forked children, and SIGKILL to those still there after 30 s
# (patroni.pl's stop_writers, for any of them).
sub end_pids
{
	my (@pids) = @_;
	kill 'TERM', @pids;
	for my $pid (@pids)
	{
		my $end = time() + 30;
		while (waitpid($pid, WNOHANG) == 0)
		{
			if (time() > $end) { kill 'KILL', $pid; waitpid($pid, 0); last }
			sleep 0.2;
		}
	}
}

sub stop_writers
{
	end_pids(values %writer_pid);
	%writer_pid = ();
}

# Acknowledged IDs of each type so far, and on timeline $tl.
sub ack_count
{
	my ($dir, $type, $tl) = @_;
	open my $fh, '<', "$dir/acks-$type" or return 0;
	my $n = 0;
	# a lexical, not $_: a caller's for or map over @types aliases $_
	while (my $l = <$fh>) { $n++ if !defined $tl || (split ' ', $l)[2] == $tl }
	return $n;
}

sub wait_writing
{
	my ($dir, $tl, $min, $what) = @_;
	for my $type (@writers)
	{
		wait_for("$type to be acknowledged $min times on timeline $tl ($what)",
			sub { ack_count($dir, $type, $tl) >= $min });
	}
}

sub read_lines
{
	my ($file) = @_;
	open my $fh, '<', $file or return ();
	return map { chomp; [ split / /, $_, 3 ] } <$fh>;
}

# --- the probes (new: not in patroni.pl) -----------------------------------------

our %probe_pid;

# One probe per server: $PROBE_RATE rounds a second, each a generation of
# every type outside any INSERT (SELECT TYPE_new(), with the transaction's
# read-only flag and whether the server is in recovery read in the same
# statement) and a write (an INSERT into probe_w, no ID in it).  Appends to
# probes-NAME: real time, what (a type or "write"), then "ok ID RO REC" or
# "err SQLSTATE message".  An ID a probe was given counts as held by a client.
sub probe
{
	my ($dir, $name, $port) = @_;
	open my $out, '>>', "$dir/probes-$name" or die;
	$out->autoflush(1);
	my $stop = 0;
	$SIG{TERM} = sub { $stop = 1 };
	my $dsn = "dbi:Pg:host=127.0.0.1;port=$port;dbname=postgres;connect_timeout=3";
	my ($dbh, %sth);
	my $pace = 1 / $PROBE_RATE;
	my $next = time();
	while (!$stop)
	{
		if (!$dbh)
		{
			$dbh = DBI->connect($dsn, 'postgres', '', { RaiseError => 0, PrintError => 0, AutoCommit => 1 });
			if (!$dbh)
			{
				printf $out "%.3f connect err connect %s\n", time(), (split /\n/, $DBI::errstr // '')[0] // '';
				sleep 0.3;
				next;
			}
			$sth{$_} = $dbh->prepare("SELECT $gen{$_}::text, current_setting('transaction_read_only'), pg_is_in_recovery()")
			  for @types;
			$sth{write} = $dbh->prepare('INSERT INTO probe_w DEFAULT VALUES');
		}
		for my $what (@types, 'write')
		{
			my $ok = $sth{$what}->execute;
			my $at = time();
			if ($ok && $what eq 'write')
			{
				printf $out "%.3f write ok\n", $at;
			}
			elsif ($ok)
			{
				my ($id, $ro, $rec) = $sth{$what}->fetchrow_array;
				printf $out "%.3f %s ok %s %s %d\n", $at, $what, $id, $ro, $rec ? 1 : 0;
			}
			else
			{
				my $state = $dbh->state || '?????';
				my $msg = (split /\n/, $dbh->errstr // '')[0] // '';
				printf $out "%.3f %s err %s %s\n", $at, $what, $state, $msg;
				if (!$dbh->ping)
				{
					%sth = ();
					undef $dbh;
					last;
				}
			}
		}
		$next += $pace;
		my $nap = $next - time();
		if ($nap > 0) { sleep $nap } else { $next = time() }
	}
	exit 0;
}

sub start_probe
{
	my ($dir, $name, $port) = @_;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		@children = ();
		probe($dir, $name, $port);
	}
	$probe_pid{$name} = $pid;
	push @children, [ $pid, "probe $name" ];
}

sub stop_probes
{
	end_pids(values %probe_pid);
	%probe_pid = ();
}

# A probe's records: [time, what, 'ok', ID, RO, REC], [time, 'write', 'ok']
# or [time, what, 'err', SQLSTATE, message].
sub probe_lines
{
	my ($dir, $name) = @_;
	open my $fh, '<', "$dir/probes-$name" or return ();
	return map { chomp; / ok / ? [ split / / ] : [ split / /, $_, 5 ] } <$fh>;
}

# The longest any type waited, from $from, for the first ID probe $name got
# (undef if some type got none).
sub first_probe_wait
{
	my ($dir, $name, $from) = @_;
	my %first;
	for my $l (probe_lines($dir, $name))
	{
		next unless $l->[2] eq 'ok' && $l->[1] ne 'write' && $l->[0] >= $from;
		$first{ $l->[1] } //= $l->[0];
	}
	my $worst = 0;
	for my $type (@types)
	{
		return undef unless defined $first{$type};
		$worst = $first{$type} - $from if $first{$type} - $from > $worst;
	}
	return $worst;
}

# Every ID a client held, per type: the writers' acknowledgements and the
# probes' IDs, each [time, ID, where].
sub held_ids
{
	my ($dir) = @_;
	my %held;
	for my $type (@types)
	{
		push @{ $held{$type} }, map { [ $_->[0], $_->[1], "port $_->[3]" ] } acks($dir, $type);
	}
	for my $file (glob "$dir/probes-*")
	{
		my ($name) = $file =~ /probes-(.*)$/;
		for my $l (probe_lines($dir, $name))
		{
			push @{ $held{ $l->[1] } }, [ $l->[0], $l->[3], "probe $name" ]
			  if $l->[2] eq 'ok' && $l->[1] ne 'write';
		}
	}
	return \%held;
}

# IDs held twice: per type, and the total.
sub reissued
{
	my ($held) = @_;
	my (%per, $n);
	for my $type (@types)
	{
		my %seen;
		for (@{ $held->{$type} // [] }) { if ($seen{ $_->[1] }++) { $per{$type}++; $n++ } }
	}
	return ($n // 0, \%per);
}

# What an error a writer or probe got says about uid: '' for what an event
# brings any table, the bigserial's too (no connection, a server shutting
# down, in recovery or read-only: connect, recovery, 08..., 57P01-57P03,
# 25006), else its SQLSTATE and message: a refusal of uid's (or a 23505).
sub uid_refusal
{
	my ($state, $msg) = @_;
	# a lease that expired while its coordinator could not be reached: 08006
	# too, from a server that answers
	return "$state $msg" if ($msg // '') =~ /lease of id/;
	return '' if $state =~ /^(connect|recovery|08...|57P0[123]|25006|\?\?\?\?\?)$/;
	return "$state " . ($msg // '');
}

# Errors beyond those an event brings: 23505s counted apart, the others
# (refusals of uid's) by SQLSTATE and message in detail.  Since 0.7.0 that
# includes sno's 55000 while a configuration file changed and no reload came
# yet ("cannot tell which sequence ranges the server's last reload
# delivered"), which pg_autoctl's edits brought before: IDs carry the
# server's settings record, and no such refusal is left.  The bigserial's
# are counted too: the sequence's own, not uid's, but none is expected.
sub error_counts
{
	my ($dir) = @_;
	my %r = (dup_key => 0, other => 0, detail => {});
	my $count = sub {
		my ($what) = @_;
		return unless $what;
		if ($what =~ /^23505 /) { $r{dup_key}++; return }
		$r{other}++;
		$r{detail}{$what}++;
	};
	for my $w (@writers)
	{
		$count->(uid_refusal($_->[1], $_->[2])) for read_lines("$dir/errors-$w");
	}
	for my $file (glob "$dir/probes-*")
	{
		my ($name) = $file =~ /probes-(.*)$/;
		for my $l (probe_lines($dir, $name))
		{
			$count->(uid_refusal($l->[3], $l->[4])) if $l->[2] eq 'err';
		}
	}
	return \%r;
}

# --- availability ------------------------------------------------------------------

# The acknowledged rows of writer $w: [time, ID, timeline, port].
sub acks
{
	my ($dir, $w) = @_;
	return map { [ split / /, "@$_" ] } read_lines("$dir/acks-$w");
}

# An event's cost, from the writer's records in $dir: per writer (@writers)
# the last row acknowledged before $from that $old accepts (a row of the old
# primary's) and the first at or after $from that $new accepts (one of the
# new primary's), and the refusals of uid's (uid_refusal) from $from to $to.
# Returns { out => {W => seconds from the last row to the first},
# beyond => {TYPE => seconds from the bigserial's first row to the type's},
# refusals => {W => {"SQLSTATE message" => count}}, first => {W => time} };
# a time is undef where the writer had no such row.
sub availability
{
	my ($dir, $from, $to, $old, $new) = @_;
	my %a;
	for my $w (@writers)
	{
		my @acks = acks($dir, $w);
		my ($last) = grep { $_->[0] < $from && $old->($_) } reverse @acks;
		my ($first) = grep { $_->[0] >= $from && $new->($_) } @acks;
		$a{first}{$w} = $first ? $first->[0] : undef;
		$a{out}{$w} = $first && $last ? $first->[0] - $last->[0] : undef;
		for my $e (read_lines("$dir/errors-$w"))
		{
			next if $e->[0] < $from || $e->[0] > $to;
			my $k = uid_refusal($e->[1], $e->[2]) or next;
			$a{refusals}{$w}{$k}++;
		}
	}
	for my $type (@types)
	{
		$a{beyond}{$type} = defined $a{first}{$type} && defined $a{first}{bigserial}
		  ? $a{first}{$type} - $a{first}{bigserial} : undef;
	}
	return \%a;
}

# The longest writer $w went without an acknowledged row that $accept
# accepts between $from and $to.
sub no_row_for
{
	my ($dir, $w, $from, $to, $accept) = @_;
	my ($worst, $last) = (0, $from);
	for my $t ((map { $_->[0] } grep { $_->[0] >= $from && $_->[0] <= $to && $accept->($_) } acks($dir, $w)), $to)
	{
		$worst = $t - $last if $t - $last > $worst;
		$last = $t;
	}
	return $worst;
}

# The goal for a type's time beyond the bigserial's: one of the writer's
# rounds (a tick of the bigserial's) and, for uid60, the second its fence may
# wait for (the first tick that begins after a claim).  Shown, never asserted:
# a busy machine can stretch any time.
sub beyond_goal { my ($type) = @_; return 1 / $RATE + ($type eq 'uid60' ? 1 : 0) }

# Prints an event's availability ($a from availability()): a line for people
# and one for the table test/integration/run.sh makes of every part's,
#   availability|PART|SCENARIO|EVENT|bigserial's time without a row|
#     the worst type's time beyond it but uid60's|uid60's|uid's refusals
# and returns the count of uid's refusals (every type's, not the bigserial's).
sub report_availability
{
	my ($sc, $event, $a) = @_;
	my $f = sub { defined $_[0] ? sprintf('%.2f', $_[0]) : '-' };
	my ($worst, $n, @kinds) = (undef, 0);
	for my $type (@types)
	{
		next if $type eq 'uid60';
		my $b = $a->{beyond}{$type};
		$worst = $b if defined $b && (!defined $worst || $b > $worst);
	}
	for my $w (@types)
	{
		for my $k (sort keys %{ $a->{refusals}{$w} // {} })
		{
			$n += $a->{refusals}{$w}{$k};
			push @kinds, "$w $k (x$a->{refusals}{$w}{$k})";
		}
	}
	my @bs = map { "$_ x$a->{refusals}{bigserial}{$_}" } sort keys %{ $a->{refusals}{bigserial} // {} };
	my @past = grep { defined $a->{beyond}{$_} && $a->{beyond}{$_} > beyond_goal($_) } @types;
	say sprintf('%s: %s: the bigserial had no row for %s s; beyond its first row: %s; %s; %d refusals of uid\'s%s%s',
		$sc, $event, $f->($a->{out}{bigserial}),
		join(', ', map { "$_ " . $f->($a->{beyond}{$_}) } @types),
		@past ? 'past the goal (a round, uid60 a second more): ' . join(', ', @past) : 'within the goal',
		$n, @kinds ? ': ' . join('; ', @kinds) : '', @bs ? "; the bigserial's own errors: @bs" : '');
	print join('|', 'availability', $PART, $sc, $event, $f->($a->{out}{bigserial}), $f->($worst),
		$f->($a->{beyond}{uid60}), $n), "\n";
	return $n;
}

# Runs scenario $sc with $fn and returns its results; when it did not run as
# planned, prints why and exits 2 (patroni.pl's main loop does the same).
sub run_scenario
{
	my ($sc, $dir, $fn) = @_;
	my $r = eval { $fn->($sc) };
	return $r if $r;
	print $@;
	printf "integration %s: seed %d, %s: did not run as planned (logs in %s); %d s\n", $PART, $SEED, $sc, $dir, time() - $T0;
	exit 2;
}

# The end: everything still running that we started (writers, probes, servers
# by their pid files in @PIDFILE_GLOBS).
our @PIDFILE_GLOBS;
END
{
	my $rc = $?;
	if ($$ == ($ENV{UID_INT_MAIN_PID} // $$) && @children)
	{
		kill 'TERM', $_->[0] for reverse @children;
		sleep 2;
		for my $c (@children) { kill 'KILL', $c->[0] if waitpid($c->[0], WNOHANG) == 0 }
	}
	if ($$ == ($ENV{UID_INT_MAIN_PID} // $$))
	{
		for my $pidfile (map { glob } @PIDFILE_GLOBS)
		{
			open my $fh, '<', $pidfile or next;
			my $pm = <$fh>;
			chomp $pm if defined $pm;
			if ($pm && kill 0, $pm) { my @k = children_of($pm); kill 'KILL', $pm, @k }
		}
	}
	$? = $rc;
}

1;
