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
# in batches and commit in a loop, and long statements (seconds each).
# Beside them, fresh sessions all the time whose own uid settings are not
# the server's, with values that no reload ever delivers (D: a partition,
# generator, cluster and medallion outside those it is given, and a live
# range in 64512..65279; A, B and C: a live range in 32512..32767): on D
# one of each way a value reaches a backend, on A, B and C one at a time,
# by turns:
#  - startup options (PGOPTIONS='-c uid.partition=N -c uid.generator=M
#    -c uid.sno_sequence_min=...'), new values every session;
#  - a role's settings (ALTER ROLE rogue SET uid.*), in database postgres;
#  - a database's settings (ALTER DATABASE setdb SET uid.*, and ALTER ROLE
#    rogue IN DATABASE setdb), sessions of the role or not; setdb has the
#    same tables, its IDs collected with the others.
# Those settings are stored from a session that has not loaded uid (where
# uid is preloaded, one started with -c session_preload_libraries=), and
# now and then tried from one that has (PostgreSQL refuses it, 55P02, or
# stores it).
#
# A seeded driver then does, at random: reloads of a server's sno live range
# (a new one every time, sometimes half written first: min alone, then
# max) and of D's identity (a new uid.generator, uid.cluster and
# uid.medallion every time); edits with ALTER SYSTEM that are reloaded only
# later ("prepared"); back-fill at random past times and in the far future;
# clock steps of one server (small, within the bound; and seconds, beyond
# it); immediate stops and restarts of any server, the coordinator
# included, down long enough now and then for a lease to expire and move,
# with whatever edits were prepared pending (the start reads them: a
# generation of its own), sometimes a new edit prepared at once, and the
# first IDs after the start made right then by two fresh sessions at once
# (plain, with startup options, of the role, in setdb, or a parallel
# query); a password written into uid.coordinator by mistake and taken out
# again; a plain role doing what it may (reading every setting and view,
# generating, trying to back-fill), also in a database without the
# extension; new values in the role's and the database's settings;
# idle pooled sessions (plain, with startup options, of the role, in
# setdb; up to three a server, kept open across reloads, prepared edits
# and edits of other settings) that make a few IDs only now and then, or
# a parallel query; parallel queries (CREATE TABLE AS ... SELECT sno_new(),
# snowflake_si_new(), revts8_new(), uid60_new() FROM big, with
# parallel_leader_participation = off and the settings that force a
# parallel plan: every ID made by a parallel worker), from a fresh session
# of any of the kinds above or from an idle pooled one; and edits of
# settings that are not uid's (work_mem, a comment, another extension's
# placeholder) appended to postgresql.conf and not reloaded, sometimes
# right after a reload, before the backends took it.  None of these may
# cause an error: they have no expected SQLSTATE of their own.
#
# Each reload is one generation: the driver bumps the server's ctl.gen (in
# both databases), then reloads; every ID is stored with the generation
# read after it was made.  So an ID tagged g was made before the reload of
# generation g + 1 was signalled, and its sno sequence must lie in a live
# range delivered by a reload of generation g or earlier, its hand-set
# identity be one a reload of g or earlier delivered.  A prepared edit is
# always a range or an identity no reload delivered before: using it early
# is seen.  A start is a generation too, bumped before any ID is made.
#
# The checks, over every ID that any server committed: no two equal (per
# type); every live sno from a range delivered to its server, every
# back-filled sno from its server's back-fill range; every ID of D from an
# identity delivered to D, every ID of A, B and C from an id of the pool;
# nothing a plain role received holds the coordinator's address or the
# password; D's sessions with startup options, of the role and in setdb
# made IDs; and no error but the expected refusals (listed, counted; a
# 55000 only for a refusal the list names).
#
# Environment: UID_SEAMS_SEEDS, seeds to run (separated by spaces or commas; replays a
# run's sequence of actions, not its interleaving nor the writers' batch sizes
# nor the values of the settings that are not the server's); else UID_SEAMS_RUNS runs
# (default 1) with seeds drawn from the time; UID_SEAMS_SECONDS, seconds of
# random actions per run (default 45).  Each run prints its seed and a
# summary line.
#
# The servers, the mix of actions and the checks are this file's; how each
# action is done (the reloads and prepared edits, back-fill, clock steps,
# stops, the writers and the kinds of session, the parallel queries) and
# which errors are expected refusals are test/t/UidSeams.pm's.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use List::Util qw(shuffle);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidSeams;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my @seeds =
  $ENV{UID_SEAMS_SEEDS}
  ? split(/[ ,]+/, $ENV{UID_SEAMS_SEEDS})
  : map { (int(time() * 1000) + $_ * 7919) % 1_000_000_007 } 1 .. ($ENV{UID_SEAMS_RUNS} // 1);
my $seconds = $ENV{UID_SEAMS_SECONDS} // 45;

my @types = id_types();

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
		setup_server($s);
		$s->{pool} = [];
		rogue_settings($s, {});
		record_delivery($k, $s, 'live', $lo, $hi);
		$s->{file} = [ $lo, $hi ];
		record_delivery($k, $s, 'ident', 2, 2) unless $leased;
		$srv{$name} = $s;
	}
	my @all = map { $srv{$_} } qw(a b c d);
	set_force_parallel($srv{d}{node});
	like(q1($srv{d}{node}, par_settings() . '; EXPLAIN (COSTS OFF) CREATE TABLE x AS SELECT ' . par_select() . ' FROM big'),
		qr/Gather/, "seed $seed: the plan of the parallel queries is parallel");
	my $stepped = $all[ int(rand(4)) ];    # the server whose clock steps
	note "seams: the clock of server $stepped->{name} steps";

	# The run: writers kept going, an action every 0.3 to 1.5 s.
	my $until = time() + $seconds;
	while (time() < $until)
	{
		keep_writers($_, \%count) for @all;
		my $r = rand();
		my $s = $all[ int(rand(4)) ];
		# the ways a value reaches a backend: D half the time
		my $sd = rand() < 0.5 ? $srv{d} : $s;
		if    ($r < 0.16) { reload_range($k, $s, \%count) }
		elsif ($r < 0.24) { reload_ident($k, $srv{d}, \%count) }
		elsif ($r < 0.33) { prepare_range($s, \%count) }
		elsif ($r < 0.39) { prepare_ident($srv{d}, \%count) }
		elsif ($r < 0.45) { backfill($s, \%count) }
		elsif ($r < 0.51) { step_clock($stepped, \%count) }
		elsif ($r < 0.57) { restart($k, $s, \%count) }
		elsif ($r < 0.59) { restart_coordinator($k, \%count) }
		elsif ($r < 0.62) { password_mistake($k, $s, $conninfo, $secret, \%count) }
		elsif ($r < 0.70) { plain_role($s, \%count) }
		elsif ($r < 0.82) { pooled($sd, \%count) }
		elsif ($r < 0.88) { parallel($sd, \%count) }
		elsif ($r < 0.94) { other_edit($k, $s, \%count) }
		else              { rogue_settings($sd, \%count) }
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
		close_pooled($s, $_, \%count) for @{ $s->{pool} };
		$s->{pool} = [];
	}

	# Every ID of every server in one table on K.
	for my $s (@all)
	{
		my $dump = join "\n", grep { $_ ne '' }
		  map { $s->{node}->safe_psql($_, 'COPY (SELECT typ, id, seq, part, gen, src FROM ids) TO STDOUT') }
		  qw(postgres setdb);
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
			SELECT 'delivered to D (gen:identity): '
				   || string_agg(gen || ':' || lo, ' ' ORDER BY gen) FROM delivered WHERE server = 'd' AND kind = 'ident';
			SELECT 'source ' || src || ', ' || typ || ', gen ' || gen || ': ' || part || ' x' || count(*)
			FROM all_ids a WHERE server = 'd' AND src <> 'backfill'
			AND NOT (typ = 'sno' AND part = 0)
			AND NOT EXISTS (SELECT 1 FROM delivered d WHERE d.server = 'd' AND d.kind = 'ident'
							AND d.gen <= a.gen AND a.part = d.lo)
			GROUP BY src, typ, gen, part ORDER BY count(*) DESC LIMIT 12});
	is(q1($k, "SELECT count(*) FROM all_ids WHERE server <> 'd' AND part NOT IN (0, 1)"),
		'0', "seed $seed: every ID of A, B and C carries an id of the pool")
	  or diag q1($k, q{
			SELECT server, src, typ, gen, part, count(*) FROM all_ids WHERE server <> 'd' AND part NOT IN (0, 1)
			GROUP BY 1, 2, 3, 4, 5 ORDER BY 6 DESC LIMIT 5});
	my %by_src = map { split /\|/ } split /\n/,
	  q1($k, "SELECT src, count(*) FROM all_ids WHERE server = 'd' GROUP BY src");
	for my $src (qw(opts role db))
	{
		cmp_ok($by_src{$src} // 0, '>', 0,
			"seed $seed: D's sessions whose own settings are not the server's ($src) made IDs");
	}

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
	diag sprintf('seams seed %s: %s IDs (%s; D\'s by source: %s) in %.0f s; actions: %s; expected errors: %s',
		$seed, q1($k, 'SELECT count(*) FROM all_ids'),
		join(' ', map { "$_=" . ($n{$_} // 0) } @types),
		join(' ', map { "$_=$by_src{$_}" } sort keys %by_src),
		time() - $t0, $actions, $errors || 'none');

	$_->{node}->stop('immediate') for @all;
	$k->stop('immediate');
	return;
}
