# How the seams test (TAP 033) does what its driver draws: the servers'
# tables and procedures, the reloads of a server's sno live range and of
# D's identity (and the edits prepared for them), back-fill, clock steps,
# immediate stops and starts, the password written into uid.coordinator,
# what a plain role may do, the writers kept going and the kinds of fresh
# session (startup options, the role's and the database's settings), idle
# pooled sessions, parallel queries, edits of settings that are not uid's;
# and which errors are the expected refusals (error_seen).  The servers,
# the mix of actions and the checks are test/t/033_seams.pl's, whose
# header says what the test does and why.
#
# A server is a hash (name, node, leased, base, bf, slots, gen, ident,
# file, pending, workers, pool, plain: see run_seed in 033); an action
# takes it and the run's %count (actions and outcomes, errors by SQLSTATE,
# the unexpected ones kept for the check).

package UidSeams;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(time usleep);
use UidTest;

our @EXPORT = qw(q1 setup_server set_force_parallel par_settings par_select
  take_slot ident_conf record_delivery is_up deliver
  reload_range reload_ident prepare_range prepare_ident backfill step_clock
  restart restart_coordinator password_mistake plain_role pooled parallel
  other_edit rogue_settings keep_writers collect_worker close_pooled);

my @types = id_types();
my %generator = generator_calls(1);
my $slot = 1024;    # live ranges are slots of 1024 sequences

# Errors a writer may meet, by SQLSTATE: refusals that say why (55000: a
# lease expired or not yet held, a clock off the coordinator's, a refused
# uid.coordinator), a full pool, the coordinator out of reach, the
# server shutting down under it.  Any other error fails the run.
# 54000: IDs dated ahead of the clock (a fence after a start, borrowing
# after a step back) would run past a lease this short; a refusal too.
my %expected_state = map { $_ => 1 } qw(55000 54000 53400 08006 08001 57P01 57P02 57P03);
# A 55000 is expected only as one of these refusals (its message): a
# lease not held or expired, a clock off the coordinator's, a session's
# uid.coordinator (the password mistake) not yet the server's; back-fill's
# own refusals; and no settings record of this server life to be had (no
# settings worker could start).  Any other 55000 fails the run.
my @expected_55000 = (
	qr/^this server holds no lease in pool /,
	qr/^this server's lease of id \d+ in pool .* expired /,
	qr/^this server's clock is \S+ s (?:ahead of|behind) the coordinator's/,
	qr/^this session's "uid\.coordinator", "uid\.pool" or "uid\.pool_size" is not the server's/,
	qr/^sno_new_at\(\) |^the back-fill range /,
	qr/^uid could not read the server's settings since it started/);

sub q1
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

my $ddl = q{
	CREATE TABLE ids (typ text NOT NULL, id text NOT NULL, seq int, part bigint,
					  gen int NOT NULL, src text NOT NULL);
	CREATE TABLE ctl (gen int NOT NULL, stop bool NOT NULL);
	INSERT INTO ctl VALUES (0, false);
	-- the generation now, read in a snapshot of its own (never inlined)
	CREATE FUNCTION cur_gen() RETURNS int VOLATILE LANGUAGE plpgsql
		AS $$BEGIN RETURN (SELECT gen FROM ctl); END$$;
	-- n IDs of one type, each with the generation read after it was made;
	-- pause > 0 makes one long statement of it
	CREATE PROCEDURE batch(typ text, gen_expr text, seq_expr text, part_expr text,
						   n int, pause float8, src text)
	LANGUAGE plpgsql AS $$
	BEGIN
		EXECUTE format('INSERT INTO ids SELECT %L, x::text, %s, %s, cur_gen(), %L '
					   'FROM (SELECT %s AS x, pg_sleep($2) FROM generate_series(1, $1) OFFSET 0) s',
					   typ, seq_expr, part_expr, src, gen_expr) USING n, pause;
	END $$;
	CREATE ROLE plain LOGIN;
	GRANT SELECT, INSERT ON ids TO plain;
	GRANT SELECT ON ctl TO plain;
	GRANT EXECUTE ON FUNCTION cur_gen() TO plain;
};

# The SQL of one batch of type $t.
sub batch_sql
{
	my ($t, $n, $pause, $src) = @_;
	my $part = carried_lease_id($t) =~ s/\bid\b/x/gr;
	my $seq = $t eq 'sno' ? 'sno_sequence(x)' : 'NULL';
	$part = "($part)::bigint";
	return sprintf('CALL batch(%s, %s, %s, %s, %d, %s, %s)',
		map({ "'" . s/'/''/gr . "'" } $t, $generator{$t}, $seq, $part),
		$n, $pause, "'$src'");
}

# The procedure of the looping writers: every type, committed batches.
my $loop_ddl = q{
	CREATE PROCEDURE writer(per int) LANGUAGE plpgsql AS $$
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM ctl);
} . join('', map { "\t\t\t" . batch_sql($_, 0, 0, 'live') =~ s/, 0, 0,/, per, 0,/r . ";\n\t\t\tCOMMIT;\n" } @types) . q{
			PERFORM pg_sleep(0.005);
		END LOOP;
	END $$;
};

# The table the parallel queries read.
my $big_ddl = worker_generators_sql() . 'CREATE TABLE big AS SELECT g FROM generate_series(1, 4000) g; ANALYZE big;';
my $force_parallel;    # debug_parallel_query, on 15 force_parallel_mode
my $par_n = 0;         # parallel queries made, for their tables' names
# the generators a parallel worker calls, through their PARALLEL SAFE
# wrappers (worker_TYPE_new(): the generators are PARALLEL RESTRICTED, and
# muid_new() has none, its counter being its transaction's)
my @par_types = qw(sno snowflake_si revts8 uid60);

# The writers' sizes come from a stream of their own: how many writers
# start depends on timing, and must not shift the seed's actions (rand).
my $wstate = int(time() * 1000) % 2147483648;

# A server's databases: postgres with the tables, the writers' procedure,
# the table the parallel queries read and the role rogue; other, without
# the extension; setdb, with settings of its own and the same tables.
sub setup_server
{
	my ($s) = @_;
	q1($s->{node}, $ddl . $loop_ddl . $big_ddl . 'CREATE ROLE rogue LOGIN SUPERUSER;');
	$s->{node}->safe_psql('postgres', 'CREATE DATABASE other');
	# setdb: a database with settings of its own, the same tables
	$s->{node}->safe_psql('postgres', 'CREATE DATABASE setdb');
	$s->{node}->safe_psql('setdb',
		'CREATE EXTENSION uid;' . ($ddl =~ s/CREATE ROLE plain LOGIN;//r) . $big_ddl);
	return;
}

# The setting that forces a parallel plan, by $node's major.
sub set_force_parallel
{
	my ($node) = @_;
	$force_parallel =
	  q1($node, q{SELECT current_setting('server_version_num')::int >= 160000}) eq 't'
	  ? 'debug_parallel_query'
	  : 'force_parallel_mode';
	return;
}

# The next live range of a server: a slot it never had.
sub take_slot
{
	my ($s) = @_;
	my $i = shift @{ $s->{slots} };
	die "server $s->{name} ran out of slots" unless defined $i;
	my $lo = $s->{base} + $i * $slot;
	return ($lo, $lo + $slot - 1);
}

# D's hand-set identity number $v: every setting that identity comes from.
sub ident_conf
{
	my ($v) = @_;
	return ("uid.generator = $v", "uid.cluster = 0", sprintf("uid.medallion = '%x'", $v));
}

sub record_delivery
{
	my ($k, $s, $kind, $lo, $hi) = @_;
	q1($k, "INSERT INTO delivered VALUES ('$s->{name}', $s->{gen}, '$kind', $lo, $hi)");
	return;
}

sub is_up
{
	my ($s) = @_;
	return -e $s->{node}->data_dir . '/postmaster.pid';
}

# One generation: the server's ctl.gen bumped (in both databases), what
# the files hold now recorded as delivered, then the reload, taken by the
# postmaster before the driver goes on.  Every reload of the test comes
# here: a reload delivers whatever was prepared.  After a start, $started:
# no reload, the start read the files.
sub deliver
{
	my ($k, $s, $started) = @_;
	$s->{gen}++;
	$s->{node}->safe_psql($_, "UPDATE ctl SET gen = $s->{gen}") for qw(postgres setdb);
	my $p = delete $s->{pending} // {};
	if ($p->{range})
	{
		# a half-written one is delivered as the files hold it: a wide range
		record_delivery($k, $s, 'live', @{ $s->{file} });
	}
	if ($p->{ident})
	{
		record_delivery($k, $s, 'ident', $p->{ident}, $p->{ident});
	}
	# the postmaster reads the files in its own time: the next edit waits
	# until it has, or it could be part of this reload
	reload_applied($s->{node}) or die "server $s->{name}: the reload was not taken"
	  unless $started;
	# the driver's record of the files is what the server took
	my $took = q1($s->{node},
		"SELECT current_setting('uid.sno_sequence_min') || '..' || current_setting('uid.sno_sequence_max')");
	die "server $s->{name} took the range $took, the driver wrote $s->{file}[0]..$s->{file}[1]"
	  unless $took eq "$s->{file}[0]..$s->{file}[1]";
	return;
}

sub alter
{
	my ($s, @set) = @_;
	q1($s->{node}, join("\n", "LOAD 'uid';", map { "ALTER SYSTEM SET $_;" } @set));
	return;
}

# Writes sno's live range $lo..$hi into the files (min first: in between
# they may hold no range, which no reload reads, deliver waiting for each).
sub alter_range
{
	my ($s, $lo, $hi) = @_;
	alter($s, "uid.sno_sequence_min = $lo", "uid.sno_sequence_max = $hi");
	$s->{file} = [ $lo, $hi ];
	return;
}

# A prepared range: written with ALTER SYSTEM now, reloaded by a later
# reload (reload_range's, or any other).  Sometimes half of it only, the
# other half later: then the files hold a wide range, from the end of the
# one they held to the far end of the new one.
sub prepare_range
{
	my ($s, $count) = @_;
	return unless is_up($s);
	return if $s->{pending}{range};
	my ($lo, $hi) = take_slot($s);
	$s->{pending}{range} = [ $lo, $hi ];
	$count->{prepared}++;
	if (rand() < 0.5)
	{
		# the pair stays valid: move the end on the side the new range lies
		my $file = $s->{file};
		if ($lo > $file->[1])
		{
			alter($s, "uid.sno_sequence_max = $hi");
			$s->{file} = [ $file->[0], $hi ];
		}
		else
		{
			alter($s, "uid.sno_sequence_min = $lo");
			$s->{file} = [ $lo, $file->[1] ];
		}
		$s->{pending}{half} = 1;
	}
	else
	{
		alter_range($s, $lo, $hi);
	}
	return;
}

# A reload of the live range: the prepared one if there is one (finishing
# a half-written one first, or reloading it half written), else a new one.
sub reload_range
{
	my ($k, $s, $count) = @_;
	return unless is_up($s);
	prepare_range($s, $count) unless $s->{pending}{range};
	# half written: finished first, or now and then reloaded as it is
	if ($s->{pending}{half})
	{
		if (rand() < 0.3) { $count->{reload_half}++ }
		else              { alter_range($s, @{ $s->{pending}{range} }) }
	}
	$count->{reload_range}++;
	deliver($k, $s);
	return;
}

sub prepare_ident
{
	my ($s, $count) = @_;
	return unless is_up($s);
	return if $s->{pending}{ident};
	$s->{ident}++;
	return if $s->{ident} > 30;
	$s->{pending}{ident} = $s->{ident};
	alter($s, ident_conf($s->{ident}));
	$count->{prepared_ident}++;
	return;
}

sub reload_ident
{
	my ($k, $s, $count) = @_;
	return unless is_up($s);
	prepare_ident($s, $count) unless $s->{pending}{ident};
	return unless $s->{pending}{ident};
	# the range goes with it, if one is prepared too: both delivered
	$count->{reload_ident}++;
	my $range = $s->{pending}{range};
	alter_range($s, @$range) if $range && $s->{pending}{half};
	deliver($k, $s);
	return;
}

sub backfill
{
	my ($s, $count) = @_;
	return unless is_up($s);
	my $when =
	  rand() < 0.2
	  ? "'2079-01-01 00:00:00+00'"
	  : sprintf("now() - interval '%.3f s'", rand(20));
	my $sql = "INSERT INTO ids SELECT 'sno', x::text, sno_sequence(x), sno_partition(x), cur_gen(), 'backfill' "
	  . "FROM (SELECT sno_new_at(1, $when) AS x FROM generate_series(1, " . (1 + int(rand(200))) . ") OFFSET 0) s";
	my $r = attempt($s->{node}, $sql);
	if ($r->{rc} == 0)
	{
		$count->{backfill}++;
	}
	elsif (($r->{sqlstate} // '') eq '22008' && $when =~ /2079/)
	{
		$count->{backfill_future_refused}++;
	}
	else
	{
		error_seen($count, "backfill on $s->{name}", $r->{err});
	}
	return;
}

sub step_clock
{
	my ($s, $count) = @_;
	my @offsets = ('+0', '+0', '-0.3', '+0.3', '-0.6', '+0.5', '-3', '+3', '-12');
	my $o = $offsets[ int(rand(@offsets)) ];
	$count->{clock_step}++;
	set_clock($s->{node}, $o);
	return;
}

# An immediate stop, down for 0 to 7 s (beyond a lease's 3 s TTL and the
# 2 s grace now and then: the id may move), then a start.
sub restart
{
	my ($k, $s, $count) = @_;
	return unless is_up($s);
	$count->{stop_immediate}++;
	$count->{stop_with_pending}++ if $s->{pending}{range} || $s->{pending}{ident};
	$s->{node}->stop('immediate');
	collect_worker($s, $_, $count) for @{ $s->{workers} };
	$s->{workers} = [];
	close_pooled($s, $_, $count) for @{ $s->{pool} };
	$s->{pool} = [];
	usleep(int(rand(7_000_000)));
	start_faked($s->{node});
	# the start read the files: edits prepared for a later reload are in
	# force now, a generation of their own, bumped before any ID is made
	deliver($k, $s, 1);
	# now and then an edit prepared at once, before the first ID
	if (rand() < 0.4)
	{
		$count->{prepared_at_start}++;
		if (!$s->{leased} && rand() < 0.6) { prepare_ident($s, $count) }
		else                               { prepare_range($s, $count) }
	}
	# the first IDs after the start: two fresh sessions at once
	my @w = map { start_kind($s, (qw(plain opts role db par))[ int(rand(5)) ], 'first', 20) } 1 .. 2;
	collect_worker($s, $_, $count) for @w;
	$count->{first_ids}++;
	return;
}

sub restart_coordinator
{
	my ($k, $count) = @_;
	$count->{coordinator_stop}++;
	$k->stop('immediate');
	usleep(int(rand(3_000_000)));
	$k->start;
	return;
}

# The operator writes a password into uid.coordinator, and takes it out
# again a little later.
sub password_mistake
{
	my ($k, $s, $conninfo, $secret, $count) = @_;
	return unless $s->{leased} && is_up($s);
	$count->{password_mistake}++;
	alter($s, "uid.coordinator = '$conninfo password=$secret'");
	deliver($k, $s);
	plain_role($s, $count);
	usleep(int(rand(1_500_000)));
	alter($s, "uid.coordinator = '$conninfo'");
	deliver($k, $s);
	return;
}

# What a plain role may do, in a fresh session each time; all it receives
# is kept for the check.
sub plain_role
{
	my ($s, $count) = @_;
	return unless is_up($s);
	$count->{plain}++;
	my @sql = (
		'SHOW uid.coordinator',
		"SELECT current_setting('uid.coordinator', true)",
		"SELECT name, setting FROM pg_settings WHERE name LIKE 'uid.%'",
		'SELECT * FROM uid_config()',
		'SELECT * FROM uid_identity()',
		batch_sql($types[ int(rand(@types)) ], 1 + int(rand(20)), 0, 'plain'),
		"SELECT sno_new_at(1, now() - interval '1 s')",
		'SELECT * FROM sno_range()',
		'SELECT * FROM uid_stats()',
		'SELECT * FROM uid_identity_renew()');
	my $sql = $sql[ int(rand(@sql)) ];
	my $db = rand() < 0.2 ? 'other' : 'postgres';
	$sql = 'SHOW uid.coordinator' if $db eq 'other' && rand() < 0.7;
	my ($rc, $out, $err) = $s->{node}->psql($db, $sql,
		extra_params => [ '-U', 'plain', '-v', 'VERBOSITY=verbose' ]);
	$s->{plain} .= "$out\n$err\n";
	if ($sql =~ /sno_new_at/)
	{
		# refused: no privilege, or (in the database without the extension)
		# no such function
		my $refused = $err =~ /42501/ || ($db eq 'other' && $err =~ /42883/);
		$count->{plain_backfill_refused}++ if $refused;
		error_seen($count, "plain back-fill on $s->{name} was not refused", $err || 'it ran')
		  unless $refused;
	}
	return;
}

# Keeps two writers going on a server that is up: a looping procedure and
# a series of long statements; collects those that ended.
sub keep_writers
{
	my ($s, $count) = @_;
	my @keep;
	for my $w (@{ $s->{workers} })
	{
		$w->{h}->pump_nb if $w->{h}->pumpable;
		if ($w->{h}->pumpable) { push @keep, $w; next; }
		collect_worker($s, $w, $count);
	}
	$s->{workers} = \@keep;
	return unless is_up($s);
	my %have = map { $_->{kind} => 1 } @keep;
	# D: a session of each way a value reaches a backend; A, B and C: one of
	# them at a time
	for my $kind (qw(loop long), $s->{leased} ? 'rogue' : qw(opts role db))
	{
		next if $have{$kind};
		next if ($s->{next_start}{$kind} // 0) > time();
		$s->{next_start}{$kind} = time() + 0.5;
		my $w;
		if ($kind eq 'loop')
		{
			$w = start_worker($s->{node}, '\set VERBOSITY verbose', 'CALL writer(' . (5 + int(wrand(50))) . ')');
		}
		elsif ($kind eq 'long')
		{
			$w = start_worker($s->{node}, '\set VERBOSITY verbose', every_type(200, 800, 0.002, 'live'));
		}
		else
		{
			my $as = $kind eq 'rogue' ? (qw(opts role db))[ int(wrand(3)) ] : $kind;
			$w = start_kind($s, $as, $as, 100);
			$count->{"start_$as"}++;
		}
		$w->{kind} = $kind;
		push @{ $s->{workers} }, $w;
		$count->{"start_$kind"}++ unless $kind eq 'rogue' || $w->{as};
	}
	return;
}

# Batches of every type, in an order of its own, from $lo to $lo + $spread
# IDs each.
sub every_type
{
	my ($lo, $spread, $pause, $src) = @_;
	my $r = int(wrand(scalar @types));
	return map { batch_sql($_, $lo + int(wrand($spread)), $pause, $src) }
	  @types[ $r .. $#types ], @types[ 0 .. $r - 1 ];
}

# Starts a fresh session of kind $as making IDs tagged $src (batches of
# every type of up to $n IDs each, or a parallel query): plain, with
# startup options naming values no reload delivers (opts), of the role
# whose settings name such values (role), in the database whose settings
# do (db, of that role or not), or a parallel query from one of those.
sub start_kind
{
	my ($s, $as, $src, $n) = @_;
	my ($db, %env) = ('postgres');
	my $how = $as eq 'par' ? (qw(plain opts role db))[ int(wrand(4)) ] : $as;
	if    ($how eq 'opts') { $env{PGOPTIONS} = rogue_options($s) }
	elsif ($how eq 'role') { $env{PGUSER}    = 'rogue' }
	elsif ($how eq 'db')
	{
		$db = 'setdb';
		$env{PGUSER} = 'rogue' if wrand(1) < 0.5;
	}
	my @sql = $as eq 'par' ? par_sql($src) : every_type(10, $n, 0.002, $src);
	my $w = start_writer($s, $db, \%env, '\set VERBOSITY verbose', @sql);
	$w->{kind} = $as;
	$w->{as} = $how;
	return $w;
}

# start_worker in database $db with the environment %$env (PGOPTIONS,
# PGUSER).
sub start_writer
{
	my ($s, $db, $env, @sql) = @_;
	local @ENV{ keys %$env } = values %$env;
	my %w = (stdout => '', stderr => '');
	my @cmd = ('psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $s->{node}->connstr($db),
		map { ('-c', $_) } @sql);
	$w{h} = IPC::Run::start(\@cmd, '<', \undef, '>', \$w{stdout}, '2>', \$w{stderr},
		IPC::Run::timeout(5 * $PostgreSQL::Test::Utils::timeout_default));
	return \%w;
}

sub wrand
{
	my ($n) = @_;
	$wstate = ($wstate * 1103515245 + 12345) % 2147483648;
	return $n * $wstate / 2147483648;
}

sub collect_worker
{
	my ($s, $w, $count) = @_;
	my ($rc, $out, $err) = finish_worker($w);
	return if $rc == 0;
	error_seen($count, "writer ($w->{kind}" . ($w->{as} ? ", $w->{as}" : '') . ") on $s->{name}", $err);
	return;
}

# An error: counted by SQLSTATE when expected, kept for the report when not.
sub error_seen
{
	my ($count, $who, $err) = @_;
	if ($err =~ /ERROR:\s+22023: the server's value of "uid\.coordinator" is invalid/)
	{
		# the password written into uid.coordinator: refused
		$count->{errors}{coordinator_refused}++;
		return;
	}
	if ($err =~ /(?:ERROR|FATAL):\s+([0-9A-Z]{5}):\s*(.*)/)
	{
		my ($state, $msg) = ($1, $2);
		if ($expected_state{$state} && ($state ne '55000' || grep { $msg =~ $_ } @expected_55000))
		{
			$count->{errors}{$state}++;
			return;
		}
	}
	elsif ($err =~ /server closed the connection|terminating connection|connection to server .* failed|no connection to the server|could not send data|SSL SYSCALL|Connection refused|No such file or directory/)
	{
		$count->{errors}{connection}++;
		return;
	}
	push @{ $count->{unexpected} }, "$who: $err";
	return;
}

# Values of uid settings that no reload ever delivers to server $s, a
# random few of them (name => value).  D: a partition, generator, cluster
# and medallion that no identity of D has (D's are 2..30 for the generator
# and medallion, cluster 0, partition 0; a generator of 31 still fits
# snowflake_si's machine id), and a live range in 64512..65279, which no
# slot of D holds; A, B and C (whose identity is leased): a live range in
# 32512..32767, between their back-fill ranges and D's live ones, and
# identity settings that their leases override.  From the writers' stream
# (wrand): how many are drawn depends on timing.
sub rogue_values
{
	my ($s) = @_;
	my $d = !$s->{leased};
	my %v;
	my @ids = (1, 31 .. 40);
	my @draw = (
		sub { $v{'uid.partition'} = $d ? $ids[ int(wrand(scalar @ids)) ] : 2 + int(wrand(39)) },
		sub { $v{'uid.generator'} = $d ? (0, 1, 31)[ int(wrand(3)) ] : 2 + int(wrand(30)) },
		sub { $v{'uid.cluster'} = 1 + int(wrand(3)) },
		sub { $v{'uid.medallion'} = sprintf('%x', $ids[ int(wrand(scalar @ids)) ]) },
		sub {
			my $lo = $d ? 64512 + 256 * int(wrand(3)) : 32512 + 128 * int(wrand(2));
			@v{qw(uid.sno_sequence_min uid.sno_sequence_max)} = ($lo, $lo + ($d ? 255 : 127));
		});
	$_->() for grep { wrand(1) < 0.6 } @draw;
	$draw[ int(wrand(scalar @draw)) ]->() unless %v;
	return %v;
}

# Startup options naming such values.
sub rogue_options
{
	my ($s) = @_;
	my %v = rogue_values($s);
	return join ' ', map { "-c $_=$v{$_}" } sort keys %v;
}

# New such values in the settings of role rogue, of database setdb and of
# the role in that database, stored from a session that has not loaded
# uid; now and then ($count, not at the setup) one tried from a session
# that has: PostgreSQL refuses it (55P02) there, or stores it.
sub rogue_settings
{
	my ($s, $count) = @_;
	return unless is_up($s);
	my @sql;
	for my $who ('ROLE rogue', 'DATABASE setdb', 'ROLE rogue IN DATABASE setdb')
	{
		my %v = rogue_values($s);
		push @sql, "ALTER $who RESET ALL", map { "ALTER $who SET $_ = '$v{$_}'" } sort keys %v;
	}
	{
		local $ENV{PGOPTIONS} = '-c session_preload_libraries=';
		q1($s->{node}, join(";\n", @sql));
	}
	return unless %$count;
	$count->{rogue_settings}++;
	if (rand() < 0.25)
	{
		my %v = rogue_values($s);
		my ($name) = sort keys %v;
		my $r = attempt($s->{node}, "LOAD 'uid'; ALTER ROLE rogue SET $name = '$v{$name}'");
		if    ($r->{rc} == 0)                         { $count->{rogue_set_loaded_stored}++ }
		elsif (($r->{sqlstate} // '') eq '55P02')     { $count->{rogue_set_loaded_refused}++ }
		else { error_seen($count, "ALTER ROLE SET $name where uid is loaded on $s->{name}", $r->{err}) }
	}
	return;
}

# The settings that make a parallel plan of a CREATE TABLE AS whose IDs
# the parallel workers make (the leader makes none).
sub par_settings
{
	return join '; ', 'SET max_parallel_workers_per_gather = 2', 'SET parallel_setup_cost = 0',
	  'SET parallel_tuple_cost = 0', 'SET min_parallel_table_scan_size = 0',
	  'SET parallel_leader_participation = off', "SET $force_parallel = on";
}

# uid60 makes 1,024 IDs a second on a server, which the writers there come
# close to using up: a parallel query that wanted 4,000 of them could wait
# past the session's deadline for its share (seed 831936523), so it makes
# one for one row in 16.
sub par_select
{
	return join ', ', map {
		$_ eq 'uid60'
		  ? "CASE WHEN g % 16 = 0 THEN worker_$generator{$_} END AS c_$_"
		  : "worker_$generator{$_} AS c_$_"
	} @par_types;
}

# A parallel query's statements: its IDs into a table of their own, then
# into ids with the generation read after they were made.
sub par_sql
{
	my ($src) = @_;
	my $tab = 'par_' . $$ . '_' . ++$par_n;
	my $ins = join ' UNION ALL ', map {
		my $c = "c_$_";
		my $part = carried_lease_id($_) =~ s/\bid\b/$c/gr;
		my $seq = $_ eq 'sno' ? "sno_sequence($c)" : 'NULL::int';
		"SELECT '$_', ${c}::text, $seq, ($part)::bigint, cur_gen(), '$src' FROM $tab WHERE $c IS NOT NULL"
	} @par_types;
	return (par_settings(), "CREATE TABLE $tab AS SELECT " . par_select() . ' FROM big',
		'RESET ALL', "INSERT INTO ids $ins", "DROP TABLE $tab");
}

# A parallel query from a fresh session (of any kind), unless one runs on
# the server already: at most two parallel workers each, with those of an
# idle pooled session, so that a settings worker finds a slot.
sub parallel
{
	my ($s, $count) = @_;
	return unless is_up($s);
	return if grep { $_->{kind} eq 'par' } @{ $s->{workers} };
	$count->{parallel}++;
	push @{ $s->{workers} }, start_kind($s, 'par', 'par', 0);
	return;
}

# Idle pooled sessions: up to three a server, opened now and then (plain,
# with startup options, of the role, in setdb), each making a few IDs
# (most of them at each visit of the driver) or a parallel query as
# leader; in between they stay idle across reloads, prepared edits and
# edits of other settings.  One that a restart ended is collected and
# replaced.
sub pooled
{
	my ($s, $count) = @_;
	return unless is_up($s);
	my @live;
	for my $p (@{ $s->{pool} })
	{
		if (pooled_alive($p)) { push @live, $p }
		else                  { close_pooled($s, $p, $count) }
	}
	$s->{pool} = \@live;
	if (!@live || (@live < 3 && rand() < 0.4))
	{
		my $how = (qw(plain opts role db))[ int(rand(4)) ];
		my ($db, %env) = ('postgres');
		if    ($how eq 'opts') { $env{PGOPTIONS} = rogue_options($s) }
		elsif ($how eq 'role') { $env{PGUSER}    = 'rogue' }
		elsif ($how eq 'db')   { $db             = 'setdb' }
		my $p = open_pooled($s, $db, \%env);
		$p->{as} = $how;
		push @{ $s->{pool} }, $p;
		$count->{pool_open}++;
		# uid loaded (and, half the time, a first few IDs), then idle
		pooled_run($s, $p, rand() < 0.5 ? "LOAD 'uid'" : batch_sql($types[ int(rand(@types)) ], 3, 0, 'pool'),
			$count);
	}
	for my $p (@live)
	{
		next if rand() < 0.3;
		if (rand() < 0.2)
		{
			$count->{pool_parallel}++;
			pooled_run($s, $p, join(";\n", par_sql('pool')), $count);
		}
		else
		{
			$count->{pool_use}++;
			my $n = 1 + int(rand(20));
			pooled_run($s, $p, join(";\n", map { batch_sql($_, $n, 0, 'pool') } @types), $count);
		}
	}
	return;
}

# A psql session kept open, fed statements on its standard input.
sub open_pooled
{
	my ($s, $db, $env) = @_;
	local @ENV{ keys %$env } = values %$env;
	my %p = (in => '', stdout => '', stderr => '', n => 0);
	$p{h} = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $s->{node}->connstr($db) ],
		'<', \$p{in}, '>', \$p{stdout}, '2>', \$p{stderr});
	return \%p;
}

sub pooled_alive
{
	my ($p) = @_;
	return 0 if $p->{dead};
	my $ok = eval { $p->{h}->pump_nb if $p->{h}->pumpable; 1 };
	$p->{dead} = 1 unless $ok && $p->{h}->pumpable;
	return !$p->{dead};
}

# Runs $sql in a pooled session and waits for it; an error is counted,
# a session that ended (its server stopped) is collected.
sub pooled_run
{
	my ($s, $p, $sql, $count) = @_;
	my $mark = 'pooled-done-' . ++$p->{n};
	$p->{stdout} = '';
	$p->{stderr} = '';
	$p->{in} .= "$sql;\n\\echo $mark\n";
	my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;
	while (pooled_alive($p) && $p->{stdout} !~ /\Q$mark\E/ && time() < $deadline)
	{
		usleep(5_000);
	}
	if ($p->{stdout} =~ /\Q$mark\E/)
	{
		error_seen($count, "pooled session ($p->{as}) on $s->{name}", $p->{stderr})
		  if $p->{stderr} =~ /\b(?:ERROR|FATAL):/;
		return;
	}
	$p->{dead} = 1;
	@{ $s->{pool} } = grep { $_ != $p } @{ $s->{pool} };
	close_pooled($s, $p, $count);
	return;
}

sub close_pooled
{
	my ($s, $p, $count) = @_;
	my $closed = $p->{dead} ? 0 : 1;
	$p->{in} .= "\\q\n";
	my $deadline = time() + 10;
	usleep(5_000) while pooled_alive($p) && time() < $deadline;
	$p->{h}->kill_kill if eval { $p->{h}->pumpable };
	eval { $p->{h}->finish };
	# one that ended by itself: the connection lost, or an error
	error_seen($count, "pooled session ($p->{as}) on $s->{name}", $p->{stderr} || 'it ended')
	  if !$closed || $p->{stderr} =~ /\b(?:ERROR|FATAL):/;
	return;
}

# A tool appends a setting that is not uid's to postgresql.conf and does
# not reload; sometimes right after a reload, before the backends took it.
# No error may come of it.
sub other_edit
{
	my ($k, $s, $count) = @_;
	return unless is_up($s);
	if (rand() < 0.4)
	{
		$count->{reload_then_other_edit}++;
		deliver($k, $s);
	}
	my $n = 1 + int(rand(64));
	my @lines = ("work_mem = '${n}MB'", "maintenance_work_mem = '" . (64 + $n) . "MB'",
		"# edited by a tool, $n", "seams_tool.mark = '$n'", "log_min_duration_statement = -1");
	$s->{node}->append_conf('postgresql.conf', $lines[ int(rand(@lines)) ]);
	$count->{other_edit}++;
	return;
}

1;
