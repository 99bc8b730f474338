# The server's settings record: every generator embeds what the server's
# last reload delivered (or, after a start, what the postmaster read),
# never a backend's own values.  A backend's own values can differ from
# the server's in many ways, and each of them made IDs with values that no
# reload delivered (the issue; each case below was seen on 0.6.0+, commit
# fecd106):
#
#  1. a session (uid in session_preload_libraries) idle across a reload,
#     then an ALTER SYSTEM of uid.partition and uid.generator written and
#     not reloaded: its first IDs, and those of idle pooled connections,
#     carried the edit;
#  2. parallel workers, with that edit pending (parallel_leader_participation
#     off): those of a leader idle across the reload carried it, even
#     where the leader itself made no ID;
#  3. a startup option (PGOPTIONS='-c uid.partition=0 ...'), with that
#     edit pending;
#  R. a role's and a database's setting (ALTER ROLE/DATABASE ... SET),
#     with that edit pending;
#  4. after a restart, without session_preload_libraries: a session that
#     took a reload late, while an unreloaded edit of the sno range was
#     written, issued from that range and published it as the server's
#     (its sno_range() showed it);
#  6. after a restart, a session with uid loaded that took a reload while a
#     tool appended a non-uid line to postgresql.conf (not reloaded): every
#     sno_new() of that session failed (55000) until the next reload;
#  H. two servers, B holding A's identity prepared for a handover (ALTER
#     SYSTEM on B, not reloaded), generating at once: duplicates;
#  7. a back-fill range refused because it holds live sequences was recorded
#     as used all the same: the README's own layout (back-fill
#     65280..65535) was then refused as spanning the live range;
#  8. back-fill of old rows after live IDs used the back-fill range's
#     sequences was refused at every time, even dated years before the
#     server's first live ID;
#  9. back-fill after the state file was removed and made anew (the
#     recovery a "truncated" file's hint prescribes): the new file had no
#     record of the live sequences, and back-fill at the times of earlier
#     live IDs repeated them.
#
# And what must keep working: a reload delivers a new partition to an idle
# pooled session at its next call; a restart with changed files takes the
# new values.
#
# Every check is on the values the IDs embed (sno_partition,
# snowflake_si_machine, sno_sequence), on errors, or on duplicates; none on
# timing.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use UidTest;

sub q1
{
	my ($node, $sql, %o) = @_;
	return $node->safe_psql($o{db} // 'postgres', $sql);
}

# probe(): one sno and one snowflake_si, as 'partition/machine', or the
# error as 'SQLSTATE: message' (an error would end a background psql).
# pool_ins(): the same through an INSERT whose columns default to the
# generators, as a pooled application would make them.  range(n): the
# lowest and highest sequence of n sno, as 'lo..hi', or the error.
my $funcs = probe_sql() . q{
	CREATE TABLE pool_t (id sno NOT NULL DEFAULT sno_new(),
						 f snowflake_si NOT NULL DEFAULT snowflake_si_new(), s int);
	CREATE FUNCTION pool_ins() RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		v text;
	BEGIN
		INSERT INTO pool_t (s) VALUES (pg_backend_pid())
		RETURNING sno_partition(id) || '/' || snowflake_si_machine(f) INTO v;
		RETURN v;
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$;
	CREATE FUNCTION seq_range(n int) RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN (SELECT min(sno_sequence(x)) || '..' || max(sno_sequence(x))
				FROM (SELECT sno_new() AS x FROM generate_series(1, n)) s);
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$;
};

# ALTER SYSTEM of uid settings (name => value), not reloaded.
sub prepare
{
	my ($node, %set) = @_;
	q1($node,
		join '; ', "LOAD 'uid'",
		map { "ALTER SYSTEM SET $_ = $set{$_}" } sort keys %set);
	return;
}

# Reloads, waits until the postmaster took it (and so signalled every
# backend), and gives the signals a moment to land: whatever is edited
# afterwards is pending, not part of this reload.
sub reload_now
{
	my ($node) = @_;
	reload_applied($node) or die 'the reload was not taken';
	usleep(300_000);
	return;
}

# How many of the results of @r are not $want, as "k of n".
sub not_want
{
	my ($want, @r) = @_;
	my $bad = grep { ($_ // '') ne $want } @r;
	return "$bad of " . scalar(@r);
}

############################################################################
# One server, uid in session_preload_libraries, partition 5 and generator 5;
# an edit to 99 and 9 prepared with ALTER SYSTEM and never reloaded.

my $p = uid_node('record_p',
	conf => [ "session_preload_libraries = 'uid'", 'uid.partition = 5', 'uid.generator = 5' ]);
q1($p, $funcs . worker_generators_sql() . 'CREATE TABLE big AS SELECT g FROM generate_series(1, 100000) g; ANALYZE big');
q1($p, 'CREATE ROLE r LOGIN SUPERUSER; CREATE DATABASE dbx');
q1($p, 'CREATE EXTENSION uid; ' . $funcs, db => 'dbx');

is(q1($p, 'SELECT probe()'), '5/5', 'setup: another session makes IDs with partition 5, machine 5');

# 1. Sessions connected (uid loaded, no ID made yet) and idle across a reload.
my $idle = $p->background_psql('postgres');
$idle->query('SELECT 1');
my $before = $p->background_psql('postgres');
is(scalar $before->query('SELECT probe()'), '5/5', 'setup: a session that stays makes IDs with 5/5');
my @pool = map { $p->background_psql('postgres') } 1 .. 3;
$_->query('SELECT 1') for @pool;
reload_now($p);
prepare($p, 'uid.partition' => 99, 'uid.generator' => 9);

my $got = $idle->query('SELECT probe()');
is($got, '5/5',
	'1. a session idle across a reload makes its first IDs with the reloaded 5/5, not the pending 99/9');
my @r = map { scalar $_->query('SELECT pool_ins()') } @pool;
is(not_want('5/5', @r), '0 of 3',
	'1. idle pooled connections make their first IDs (INSERT ... DEFAULT) with 5/5')
  or diag 'they made: ' . join(', ', @r);
@r = map { scalar $_->query('SELECT pool_ins()') } @pool;
is(not_want('5/5', @r), '0 of 3', '1. and their next IDs too')
  or diag 'they made: ' . join(', ', @r);
is($idle->query('SELECT probe()'), '5/5', '1. and the idle session its next ones');

# 2. Parallel workers, with the edit pending; the leader does not generate
# (parallel_leader_participation = off): (a) a new session's, (b) those of
# the session that made IDs before the reload and was idle across it.
my $force = q1($p, q{SELECT current_setting('server_version_num')::int >= 160000}) eq 't'
  ? 'debug_parallel_query' : 'force_parallel_mode';
my $par = qq{SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
	SET parallel_leader_participation = off; SET $force = on;};
# (the generators' PARALLEL SAFE wrappers: the workers make the IDs)
my $ctas = 'CREATE TABLE %s AS SELECT worker_sno_new() AS s, worker_snowflake_si_new() AS f FROM big';
like(q1($p, $par . 'EXPLAIN (COSTS OFF) ' . sprintf($ctas, 'pp')),
	qr/Gather/, '2. the plan is parallel');
for my $leader (undef, $before)
{
	my $tab = defined $leader ? 'pp_b' : 'pp_a';
	my $what = defined $leader
	  ? '2b. the workers of a session that made IDs before the reload and was idle across it'
	  : '2a. the workers of a new session';
	my $err = '';
	if (defined $leader)
	{
		my ($o, $e) = $leader->query($par . sprintf($ctas, $tab));
		$err = $leader->{stderr} if $e;
	}
	else
	{
		my $rr = attempt($p, $par . sprintf($ctas, $tab));
		$err = $rr->{err} if $rr->{rc};
	}
	unlike($err, qr/ERROR/, "$what: no error");
	my $made = q1($p, qq{SELECT to_regclass('$tab') IS NOT NULL}) eq 't';
	is( $made
		? q1($p,
			qq{SELECT count(*) FILTER (WHERE sno_partition(s) <> 5 OR snowflake_si_machine(f) <> 5) || ' of ' || count(*) FROM $tab})
		: 'no table',
		'0 of 100000',
		"$what make every ID with 5/5, none with the pending 99/9")
	  or $made && diag 'made: ' . q1($p,
		qq{SELECT string_agg(v || ' x' || n, ', ') FROM (SELECT sno_partition(s) || '/' || snowflake_si_machine(f) AS v, count(*) AS n FROM $tab GROUP BY 1) x});
}

# 3. A startup option, with the edit pending.
{
	local $ENV{PGOPTIONS} = '-c uid.partition=0 -c uid.generator=0';
	my ($rc, $out, $err) = $p->psql('postgres', 'SELECT probe()');
	is($out, '5/5', '3. a session started with -c uid.partition=0 -c uid.generator=0 makes IDs with 5/5')
	  or diag $err;
}
is(q1($p, 'SELECT probe()'), '5/5', '3. a plain session: 5/5');

# R. A role's and a database's setting, with the edit pending.  Where the
# library is loaded, PostgreSQL refuses them; a session that has not loaded
# it can store them, and they must not matter either.
for my $alter ('ALTER ROLE r SET uid.partition = 0', 'ALTER DATABASE dbx SET uid.generator = 0')
{
	my $rv = attempt($p, $alter);
	note "$alter where uid is loaded: " . ($rv->{sqlstate} ? "refused, $rv->{sqlstate}: $rv->{msg}" : 'stored');
	ok(!$rv->{sqlstate} || $rv->{sqlstate} eq '55P02',
		"R. $alter where uid is loaded: refused as a server setting (55P02), or stored");
}
{
	local $ENV{PGOPTIONS} = '-c session_preload_libraries=';
	q1($p, 'ALTER ROLE r SET uid.partition = 0; ALTER ROLE r SET uid.generator = 0');
	q1($p, 'ALTER DATABASE dbx SET uid.partition = 0; ALTER DATABASE dbx SET uid.generator = 0');
}
is(q1($p, q{SELECT count(*) FROM pg_db_role_setting WHERE array_to_string(setconfig, ',') LIKE '%uid.%'}),
	'2', 'R. without uid loaded, the role\'s and the database\'s settings are stored');
{
	my ($rc, $out, $err) = $p->psql('postgres', 'SELECT probe()', extra_params => [ '-U', 'r' ]);
	is($out, '5/5', 'R. a session of the role with uid.partition = 0 makes IDs with 5/5') or diag $err;
	($rc, $out, $err) = $p->psql('dbx', 'SELECT probe()');
	is($out, '5/5', 'R. a session in the database with uid.partition = 0 makes IDs with 5/5') or diag $err;
}
q1($p, 'ALTER ROLE r RESET ALL; ALTER DATABASE dbx RESET ALL',);

# A reload delivers a new partition: the idle pooled sessions take it at
# their next call.
prepare($p, 'uid.partition' => 6, 'uid.generator' => 6);
reload_now($p);
@r = map { scalar $_->query('SELECT pool_ins()') } @pool;
is(not_want('6/6', @r), '0 of 3', 'after a reload of 6/6, idle pooled sessions make IDs with 6/6')
  or diag 'they made: ' . join(', ', @r);
is($idle->query('SELECT probe()'), '6/6', 'and so does the session of case 1');
$_->quit for @pool, $idle, $before;

# A restart with changed files: the new values.
prepare($p, 'uid.partition' => 8, 'uid.generator' => 8);
$p->restart;
is(q1($p, 'SELECT probe()'), '8/8', 'after a restart with 8/8 in the files, IDs carry 8/8');
$p->stop;

############################################################################
# 4. After a restart, no session_preload_libraries, nothing generated yet:
# a session busy in a long statement through a reload, while an edit of the
# sno range is written and never reloaded.

my $s = uid_node('record_s',
	conf => [ 'uid.partition = 5', 'uid.sno_sequence_min = 100', 'uid.sno_sequence_max = 199' ]);
q1($s, $funcs);
$s->restart;
my $busy = start_worker($s, 'SELECT pg_sleep(3)', 'SELECT seq_range(200)',
	q{SELECT live_min || '..' || live_max FROM sno_range()});
poll_until('the long statement under way',
	sub { q1($s, q{SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(3)'}) eq '1' });
reload_now($s);
prepare($s, 'uid.sno_sequence_min' => 300, 'uid.sno_sequence_max' => 399);
my ($rc, $out, $err) = finish_worker($busy);
unlike($err, qr/ERROR/, '4. the session that took the reload late makes IDs without an error');
my (undef, $late_range, $late_shown) = split /\n/, $out;
is($late_range, '100..199', '4. the session that took the reload late issues from the server\'s 100..199, not the pending 300..399')
  or diag $err;
is($late_shown, '100..199', '4. and sno_range() there shows 100..199 as the server\'s');
is(q1($s, q{SELECT live_min || '..' || live_max FROM sno_range()}), '100..199',
	'4. sno_range() in a new session shows 100..199');
is(q1($s, 'SELECT seq_range(200)'), '100..199', '4. a new session issues from 100..199');

############################################################################
# 6. After a restart, nothing generated yet: a session with uid loaded takes
# a reload while a tool appends a non-uid line to postgresql.conf.

q1($s, q{LOAD 'uid'; ALTER SYSTEM RESET uid.sno_sequence_min; ALTER SYSTEM RESET uid.sno_sequence_max});
$s->restart;
my $held = $s->background_psql('postgres');
$held->query(q{LOAD 'uid'});
reload_now($s);
$s->append_conf('postgresql.conf', "work_mem = '9MB'");
@r = map { scalar $held->query('SELECT seq_range(50)') } 1 .. 3;
is(scalar(grep { !(/^(\d+)\.\.(\d+)$/ && $1 >= 100 && $2 <= 199) } @r) . ' of 3', '0 of 3',
	'6. a session that took a reload before a non-uid edit: every sno_new() works, in 100..199')
  or diag 'it got: ' . join(', ', @r);
is($held->query('SELECT probe()'), '5/0', '6. and its IDs carry partition 5');
$held->quit;
$s->stop;

############################################################################
# H. Two servers: A with partition 5 / generator 5; B with 6 / 6 and A's
# identity prepared on B (ALTER SYSTEM, not reloaded) for a later handover.
# Both generate at once, B from sessions idle across a reload (case 1):
# no ID twice, and B's IDs carry B's 6/6.

my $a = uid_node('record_a',
	conf => [ "session_preload_libraries = 'uid'", 'uid.partition = 5', 'uid.generator = 5' ]);
my $b = uid_node('record_b',
	conf => [ "session_preload_libraries = 'uid'", 'uid.partition = 6', 'uid.generator = 6' ]);
for my $n ($a, $b)
{
	q1($n, q{
		CREATE TABLE t (id sno NOT NULL, f snowflake_si NOT NULL);
		CREATE TABLE errs (e text);
		-- batches of IDs for secs seconds; an error is kept in errs
		CREATE PROCEDURE gen(secs float8) LANGUAGE plpgsql AS $$
		DECLARE
			until timestamptz := clock_timestamp() + secs * interval '1 s';
		BEGIN
			WHILE clock_timestamp() < until LOOP
				BEGIN
					INSERT INTO t SELECT sno_new(), snowflake_si_new() FROM generate_series(1, 500);
				EXCEPTION WHEN OTHERS THEN
					INSERT INTO errs VALUES (SQLSTATE || ': ' || SQLERRM);
					PERFORM pg_sleep(0.01);
				END;
				COMMIT;
			END LOOP;
		END $$;
		CREATE TABLE warmup AS SELECT sno_new() AS id, snowflake_si_new() AS f;
	});
}
my @bidle = map { $b->background_psql('postgres') } 1 .. 2;
$_->query('SELECT 1') for @bidle;
reload_now($b);
prepare($b, 'uid.partition' => 5, 'uid.generator' => 5);

my $ga = start_worker($a, 'CALL gen(2)');
$_->query_until(qr/generating/, "\\echo generating\nCALL gen(2);\n") for @bidle;
($rc, $out, $err) = finish_worker($ga);
is($rc, 0, 'H. A generated') or diag $err;
for my $w (@bidle)
{
	$w->query('SELECT 1');
	unlike($w->{stderr}, qr/ERROR/, 'H. a session of B idle across the reload generated');
	$w->quit;
}
for my $n ($a, $b)
{
	my $e = q1($n, q{SELECT count(*) || coalesce(': ' || min(e), '') FROM errs});
	is($e, '0', 'H. no error while generating on ' . $n->name);
}

q1($a, 'CREATE TABLE tb (LIKE t)');
my $dump = q1($b, 'COPY t TO STDOUT');
($rc, $out, $err) = $a->psql('postgres', "COPY tb FROM STDIN;\n$dump\n\\.\n");
is($rc, 0, "H. B's IDs loaded into A") or diag $err;
my ($na, $nb, $dup_sno, $dup_f, $b_as_a) = split /\|/, q1($a, q{
	SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM tb),
		   (SELECT count(*) FROM t JOIN tb USING (id)),
		   (SELECT count(*) FROM t JOIN tb USING (f)),
		   (SELECT count(*) FROM tb WHERE sno_partition(id) <> 6 OR snowflake_si_machine(f) <> 6)});
cmp_ok($na, '>', 1000, "H. A made $na IDs of each type");
cmp_ok($nb, '>', 1000, "H. B made $nb IDs of each type");
is($dup_sno, '0', 'H. no sno made by both servers');
is($dup_f, '0', 'H. no snowflake_si made by both servers');
is($b_as_a, '0', "H. every ID of B carries B's reloaded 6/6");

############################################################################
# 7. A refused back-fill range is not recorded.  Live 0..65279 (the
# README's layout) with live IDs made; then live 1024..65279 and back-fill
# 128..255, which holds sequences those IDs used: refused; then the
# README's layout again with back-fill 65280..65535: accepted.
# A node whose live range was 0..65279 while $sql made live IDs, then is
# 1024..65279 beside back-fill $lo..$hi, reloaded.
sub after_live_ids
{
	my ($name, $sql, $lo, $hi) = @_;
	my $node = uid_node($name,
		conf => [ 'uid.sno_sequence_min = 0', 'uid.sno_sequence_max = 65279' ]);
	q1($node, $sql);
	prepare($node, 'uid.sno_sequence_min' => 1024,
		'uid.sno_backfill_min' => $lo, 'uid.sno_backfill_max' => $hi);
	reload_now($node);
	return $node;
}

my $f = after_live_ids('backfill_refused', 'SELECT count(sno_new()) FROM generate_series(1, 1000)', 128, 255);
($rc, $out, $err) = $f->psql('postgres', q{SELECT sno_new_at(0, now())});
like($err, qr/holds sequences that sno_new\(\) has issued/,
	'7. back-fill 128..255 at a time of live IDs over their sequences is refused');
prepare($f, 'uid.sno_sequence_min' => 0,
	'uid.sno_backfill_min' => 65280, 'uid.sno_backfill_max' => 65535);
reload_now($f);
($rc, $out, $err) = $f->psql('postgres',
	q{SELECT sno_sequence(sno_new_at(0, now() - interval '1 day')) BETWEEN 65280 AND 65535});
is($out, 't', "7. then the README's layout, back-fill 65280..65535, is accepted") or diag $err;
is(q1($f, 'SELECT min(sno_sequence(x)) >= 0 AND max(sno_sequence(x)) <= 65279 FROM (SELECT sno_new() x FROM generate_series(1, 100)) s'),
	't', '7. and live IDs stay in 0..65279');

############################################################################
# 8. Back-fill dated before the live IDs that used its sequences.  Live
# IDs in 0..65279 (their sequences from 0 up); then live 1024..65279 and
# back-fill 0..1023: dated in 2020 it is accepted, dated at the first live
# ID it is refused.
my $g8 = after_live_ids('backfill_from',
	'CREATE TABLE live8 AS SELECT sno_new() AS id FROM generate_series(1, 1000)', 0, 1023);
($rc, $out, $err) = $g8->psql('postgres',
	q{SELECT count(*) FILTER (WHERE sno_sequence(x) <= 1023) FROM (SELECT sno_new_at(0, timestamptz '2020-01-01 00:00:00+00' + g * interval '4 ms') x FROM generate_series(1, 100) g) s});
is($out, '100', '8. back-fill dated in 2020, before every live ID, over their sequences: accepted')
  or diag $err;
($rc, $out, $err) = $g8->psql('postgres', q{SELECT sno_new_at(0, (SELECT min(sno_timestamp(id)) FROM live8))});
like($err, qr/holds sequences that sno_new\(\) has issued/,
	'8. dated at the first live ID: refused');
$g8->stop;

############################################################################
# 9. The state file removed and made anew: back-fill up to the fence (the
# lease in WAL, past every live ID made before) is refused; after it, it is
# accepted.  Live IDs in 0..65279 first; then live 32768..65279 and
# back-fill 0..32767, which holds their sequences.
q1($f, 'CREATE TABLE live9 AS SELECT sno_new() AS id FROM generate_series(1, 500)');
$f->stop;
unlink(state_file($f)) or die "could not remove the state file: $!";
$f->start;
prepare($f, 'uid.sno_sequence_min' => 32768, 'uid.sno_sequence_max' => 65279,
	'uid.sno_backfill_min' => 0, 'uid.sno_backfill_max' => 32767);
reload_now($f);
q1($f, 'SELECT sno_new()');    # the new file's first use, fenced
($rc, $out, $err) = $f->psql('postgres',
	q{SELECT count(*) FROM live9 JOIN (SELECT sno_new_at(sno_meta(id), sno_timestamp(id)) AS id FROM live9) b USING (id)});
like($err, qr/made live IDs up to .* before uid recorded which sequences they used/,
	'9. back-fill at the times of live IDs made before the file was made anew is refused')
  or diag "back-fill made IDs, $out of them equal to live IDs";
my $fence = q1($f, 'SELECT last_fence FROM uid_lease()');
poll_until('the clock past the fence', sub { q1($f, "SELECT now() > '$fence'::timestamptz + interval '20 ms'") eq 't' });
($rc, $out, $err) = $f->psql('postgres',
	qq{SELECT sno_sequence(sno_new_at(0, '$fence'::timestamptz + interval '10 ms')) <= 32767});
is($out, 't', '9. back-fill after the fence is accepted') or diag $err;
$f->stop;

done_testing();
