# The seams test (issue 24): features that each hold alone, combined at
# random.  Defects of 0.5.0 lived where two features meet (settings read
# from files x sno ranges, back-fill x the live range's history, leases x
# clocks, a placeholder setting x libpq), so this test does many things at
# once and checks what must hold whatever happened.
#
# The servers: a coordinator K (uid.pool_grace = 2 s: a bound of 1 s on
# each writer's clock); three writers A, B and C that lease their identity
# from K's pool of two ids (so at most two generate, and an id moves from one
# to another when a lease expires), each also with its own sno ranges; and D,
# with a hand-set identity whose sno partition is 0, the partition lease id 0
# gives its holder: D and the holder of id 0 share it by their sno ranges
# (A, B and C issue live sequences in 0..31743 and back-fill above it, each
# in its own back-fill range; D in 32768..64511 and back-fills above that).
#
# Every server runs writers all the time: procedures that make every type
# in batches and commit in a loop, and long statements (seconds each).  A
# seeded driver then does, at random: reloads of a server's sno live range
# (a new one every time, sometimes half written first: min alone, then
# max) and of D's identity (a new uid.generator, uid.cluster and
# uid.medallion every time); edits with ALTER SYSTEM that are reloaded only
# later ("prepared"); back-fill at random past times and in the far future;
# clock steps of one server (small, within the bound; and seconds, beyond
# it); immediate stops and restarts of any server, the coordinator
# included, down long enough now and then for a lease to expire and move;
# a password written into uid.coordinator by mistake and taken out again;
# and a plain role doing what it may (reading every setting and view,
# generating, trying to back-fill), also in a database without the
# extension.
#
# Each reload is one generation: the driver bumps the server's ctl.gen,
# then reloads; every ID is stored with the generation read after it was
# made.  So an ID tagged g was made before the reload of generation g + 1
# was signalled, and its sno sequence must lie in a live range delivered
# by a reload of generation g or earlier, its hand-set identity be one a
# reload of g or earlier delivered.  A prepared edit is always a range or
# an identity no reload delivered before: using it early is seen.
#
# The checks, over every ID that any server committed: no two equal (per
# type); every live sno from a range delivered to its server, every
# back-filled sno from its server's back-fill range; every ID of D from an
# identity delivered to D, every ID of A, B and C from an id of the pool;
# nothing a plain role received holds the coordinator's address or the
# password; and no error but the expected refusals (listed, counted).
#
# Environment: UID_SEAMS_SEEDS, seeds to run (separated by spaces or commas; replays a
# run's sequence of actions, not its interleaving nor the writers' batch sizes); else UID_SEAMS_RUNS runs
# (default 1) with seeds drawn from the time; UID_SEAMS_SECONDS, seconds of
# random actions per run (default 45).  Each run prints its seed and a
# summary line.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use List::Util qw(shuffle);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my @seeds =
  $ENV{UID_SEAMS_SEEDS}
  ? split(/[ ,]+/, $ENV{UID_SEAMS_SEEDS})
  : map { (int(time() * 1000) + $_ * 7919) % 1_000_000_007 } 1 .. ($ENV{UID_SEAMS_RUNS} // 1);
my $seconds = $ENV{UID_SEAMS_SECONDS} // 45;

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

for my $seed (@seeds)
{
	run_seed($seed);
}
done_testing();

sub run_seed
{
	my ($seed) = @_;
	srand($seed);
	note "seams: seed $seed (replay its actions with UID_SEAMS_SEEDS=$seed)";
	my $t0 = time();
	my %count;    # actions and outcomes, for the summary
	my $secret = "seams-secret-$seed";

	my ($k, $conninfo) = coordinator_node("seams_${seed}_k", 'uid.pool_grace = 2');
	$k->safe_psql('postgres', q{
		CREATE TABLE all_ids (server text, typ text, id text, seq int, part bigint, gen int, src text);
		CREATE TABLE delivered (server text, gen int, kind text, lo bigint, hi bigint);
	});

	# The servers and what each may issue.
	my %srv;
	for my $name (qw(a b c d))
	{
		my $leased = $name ne 'd';
		my $base = $leased ? 0 : 32768;
		my $bf = $leased
		  ? { a => [ 31744, 31999 ], b => [ 32000, 32255 ], c => [ 32256, 32511 ] }->{$name}
		  : [ 65280, 65535 ];
		my @slots = shuffle(0 .. 30);
		my $s = {
			name => $name,
			leased => $leased,
			base => $base,
			bf => $bf,
			slots => \@slots,
			gen => 0,
			ident => 2,
			workers => [],
			plain => '',
		};
		my ($lo, $hi) = take_slot($s);
		my @conf = (
			"uid.sno_sequence_min = $lo", "uid.sno_sequence_max = $hi",
			"uid.sno_backfill_min = $bf->[0]", "uid.sno_backfill_max = $bf->[1]",
			'log_min_messages = warning');
		if ($leased)
		{
			push @conf, "uid.pool = 'seams'", 'uid.pool_size = 2', 'uid.pool_ttl = 3',
			  'uid.coordinator_timeout = 3000';
		}
		else
		{
			push @conf, 'uid.partition = 0', ident_conf(2);
		}
		$s->{node} = uid_node("seams_${seed}_$name",
			faked => 1,
			($leased ? (coordinator => $conninfo) : ()),
			conf => \@conf);
		q1($s->{node}, $ddl . $loop_ddl);
		$s->{node}->safe_psql('postgres', 'CREATE DATABASE other');
		record_delivery($k, $s, 'live', $lo, $hi);
		$s->{file} = [ $lo, $hi ];
		record_delivery($k, $s, 'ident', 2, 2) unless $leased;
		$srv{$name} = $s;
	}
	my @all = map { $srv{$_} } qw(a b c d);
	my $stepped = $all[ int(rand(4)) ];    # the server whose clock steps
	note "seams: the clock of server $stepped->{name} steps";

	# The run: writers kept going, an action every 0.3 to 1.5 s.
	my $until = time() + $seconds;
	while (time() < $until)
	{
		keep_writers($_, \%count) for @all;
		my $r = rand();
		my $s = $all[ int(rand(4)) ];
		if    ($r < 0.22) { reload_range($k, $s, \%count) }
		elsif ($r < 0.30) { reload_ident($k, $srv{d}, \%count) }
		elsif ($r < 0.42) { prepare_range($s, \%count) }
		elsif ($r < 0.47) { prepare_ident($srv{d}, \%count) }
		elsif ($r < 0.57) { backfill($s, \%count) }
		elsif ($r < 0.65) { step_clock($stepped, \%count) }
		elsif ($r < 0.72) { restart($k, $s, \%count) }
		elsif ($r < 0.74) { restart_coordinator($k, \%count) }
		elsif ($r < 0.78) { password_mistake($k, $s, $conninfo, $secret, \%count) }
		else              { plain_role($s, \%count) }
		usleep(300_000 + int(rand(1_200_000)));
	}

	# The end: clocks right, every server up, the writers stopped.
	for my $s (@all)
	{
		set_clock($s->{node}, '+0') if $s == $stepped;
		if (!is_up($s))
		{
			start_faked($s->{node});
			deliver($k, $s);
		}
		q1($s->{node}, 'UPDATE ctl SET stop = true');
	}
	for my $s (@all)
	{
		collect_worker($s, $_, \%count) for @{ $s->{workers} };
		$s->{workers} = [];
	}

	# Every ID of every server in one table on K.
	for my $s (@all)
	{
		my $dump = q1($s->{node}, 'COPY (SELECT typ, id, seq, part, gen, src FROM ids) TO STDOUT');
		if ($dump eq '')
		{
			note "seed $seed: server $s->{name} made no ID";
			next;
		}
		my ($rc, $out, $err) = $k->psql('postgres',
			"CREATE TEMP TABLE x (LIKE all_ids); COPY x (typ, id, seq, part, gen, src) FROM STDIN;\n$dump\n\\.\n"
			  . "INSERT INTO all_ids SELECT '$s->{name}', typ, id, seq, part, gen, src FROM x;");
		is($rc, 0, "seed $seed: the IDs of server $s->{name} collected") or diag $err;
	}

	my %n = map { split /\|/ } split /\n/,
	  q1($k, 'SELECT typ, count(*) FROM all_ids GROUP BY typ');
	for my $t (@types)
	{
		cmp_ok($n{$t} // 0, '>', 0, "seed $seed: $t IDs were made");
		is( q1($k, "SELECT count(*) - count(DISTINCT id) FROM all_ids WHERE typ = '$t'"),
			'0', "seed $seed: no $t ID twice among " . ($n{$t} // 0))
		  or diag q1($k,
			"SELECT id, string_agg(server || ':' || src || ':' || gen, ' ') FROM all_ids WHERE typ = '$t' GROUP BY id HAVING count(*) > 1 LIMIT 5"
		  );
	}
	is( q1($k, q{
			SELECT count(*) FROM all_ids a WHERE typ = 'sno' AND src <> 'backfill'
			AND NOT EXISTS (SELECT 1 FROM delivered d WHERE d.server = a.server AND d.kind = 'live'
							AND d.gen <= a.gen AND a.seq BETWEEN d.lo AND d.hi)}),
		'0',
		"seed $seed: every live sno from a range a reload had delivered to its server")
	  or diag q1($k, q{
			SELECT server, gen, seq, (SELECT string_agg(gen || ':' || lo || '..' || hi, ' ' ORDER BY gen)
									  FROM delivered d WHERE d.server = a.server AND d.kind = 'live')
			FROM all_ids a WHERE typ = 'sno' AND src <> 'backfill'
			AND NOT EXISTS (SELECT 1 FROM delivered d WHERE d.server = a.server AND d.kind = 'live'
							AND d.gen <= a.gen AND a.seq BETWEEN d.lo AND d.hi) LIMIT 5});
	my $bf_cond = join ' OR ',
	  map { "(server = '$_->{name}' AND seq BETWEEN $_->{bf}[0] AND $_->{bf}[1])" } @all;
	is(q1($k, "SELECT count(*) FROM all_ids WHERE src = 'backfill' AND NOT ($bf_cond)"),
		'0', "seed $seed: every back-filled sno from its server's back-fill range");
	is( q1($k, q{
			SELECT count(*) FROM all_ids a WHERE server = 'd' AND src <> 'backfill'
			AND NOT (typ = 'sno' AND part = 0)
			AND NOT EXISTS (SELECT 1 FROM delivered d WHERE d.server = 'd' AND d.kind = 'ident'
							AND d.gen <= a.gen AND a.part = d.lo)}),
		'0',
		"seed $seed: every ID of D carries an identity a reload had delivered to D")
	  or diag q1($k, q{
			SELECT typ, gen, part FROM all_ids a WHERE server = 'd' AND src <> 'backfill'
			AND NOT (typ = 'sno' AND part = 0)
			AND NOT EXISTS (SELECT 1 FROM delivered d WHERE d.server = 'd' AND d.kind = 'ident'
							AND d.gen <= a.gen AND a.part = d.lo) LIMIT 5});
	is(q1($k, "SELECT count(*) FROM all_ids WHERE server <> 'd' AND part NOT IN (0, 1)"),
		'0', "seed $seed: every ID of A, B and C carries an id of the pool");

	my $host = $k->host;
	my $port = $k->port;
	for my $s (@all)
	{
		my @leaks = grep { index($s->{plain}, $_) >= 0 } ($secret, $host, "port=$port", $conninfo);
		is("@leaks", '', "seed $seed: nothing the plain role received on $s->{name} holds a secret");
	}
	my @unexpected = @{ $count{unexpected} // [] };
	is(scalar(@unexpected), 0, "seed $seed: no error but the expected refusals")
	  or diag join("\n", @unexpected[ 0 .. ($#unexpected < 9 ? $#unexpected : 9) ]);

	my $errors = join ' ', map { "$_=$count{errors}{$_}" } sort keys %{ $count{errors} // {} };
	my $actions = join ' ', map { "$_=$count{$_}" } grep { !ref $count{$_} } sort keys %count;
	diag sprintf('seams seed %s: %s IDs (%s) in %.0f s; actions: %s; expected errors: %s',
		$seed, q1($k, 'SELECT count(*) FROM all_ids'),
		join(' ', map { "$_=" . ($n{$_} // 0) } @types), time() - $t0, $actions, $errors || 'none');

	$_->{node}->stop('immediate') for @all;
	$k->stop('immediate');
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

# One generation: the server's ctl.gen bumped, what the files hold now
# recorded as delivered, then the reload, taken by the postmaster before
# the driver goes on.  Every reload of the test comes
# here: a reload delivers whatever was prepared.
sub deliver
{
	my ($k, $s) = @_;
	$s->{gen}++;
	q1($s->{node}, "UPDATE ctl SET gen = $s->{gen}");
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
	reload_applied($s->{node}) or die "server $s->{name}: the reload was not taken";
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
	$s->{node}->stop('immediate');
	collect_worker($s, $_, $count) for @{ $s->{workers} };
	$s->{workers} = [];
	usleep(int(rand(7_000_000)));
	start_faked($s->{node});
	# the start read the files: edits prepared for a later reload are in
	# force now, a generation of their own
	deliver($k, $s);
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
	for my $kind (qw(loop long))
	{
		next if $have{$kind};
		next if ($s->{next_start}{$kind} // 0) > time();
		$s->{next_start}{$kind} = time() + 0.5;
		my @sql = ('\set VERBOSITY verbose');
		if ($kind eq 'loop')
		{
			push @sql, 'CALL writer(' . (5 + int(wrand(50))) . ')';
		}
		else
		{
			my $r = int(wrand(@types));
			push @sql, map { batch_sql($_, 200 + int(wrand(800)), 0.002, 'live') }
			  @types[ $r .. $#types ], @types[ 0 .. $r - 1 ];
		}
		my $w = start_worker($s->{node}, @sql);
		$w->{kind} = $kind;
		push @{ $s->{workers} }, $w;
		$count->{"start_$kind"}++;
	}
	return;
}

# The writers' sizes come from a stream of their own: how many writers
# start depends on timing, and must not shift the seed's actions (rand).
my $wstate = int(time() * 1000) % 2147483648;

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
	error_seen($count, "writer ($w->{kind}) on $s->{name}", $err);
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
	if ($err =~ /(?:ERROR|FATAL):\s+([0-9A-Z]{5}):/)
	{
		my $state = $1;
		if ($expected_state{$state})
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
