# The state file is only one of the generator's defences against repeats
# (issue 12).  Here it gets what can happen to a file:
#  1. an OS crash can leave an older copy of it: the postmaster is killed
#     with SIGKILL, the file rolled back to a copy taken seconds of IDs
#     earlier and the clock set behind; after crash recovery the lease
#     replayed from WAL must still put every new ID after every committed
#     one;
#  2. it is unlinked, or replaced by a copy renamed over it, while the
#     server runs: nothing the server uses changes (the live state is in
#     shared memory), sessions go on and no ID repeats; and the shared
#     memory object removed under the server (as systemd's RemoveIPC
#     does): a backend that mapped the old one must stop generating soon
#     (55000), new backends use a new one, and no ID repeats;
#  3. it is made with the data directory's file mode (group access: 0640);
#  4. it is truncated in place while two sessions generate (issue 38: a
#     backend that touched its mapping past the end died of SIGBUS, and the
#     server crash-restarted): the server keeps running, IDs keep coming;
#  5. an older copy of it is written over it in place, 16 times in 10 s,
#     while two sessions generate (issue 38: 27 IDs issued twice), then once
#     more while the server is stopped (a restore): no ID repeats;
#  6. a newer copy is written over it in place, while the server runs
#     from an older one: nothing breaks, no ID repeats across a restart.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Copy;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use UidTest;

my @types = id_types();

# Settings that go into the IDs, fixed, so that nothing drawn at a start
# keeps the IDs of two starts apart by itself and hides a lost high-water
# mark (uid.partition = 7 comes from uid_node).
my @id_conf = (
	'uid.generator = 5', 'uid.cluster = 3',
	"uid.medallion = '1bfc71b112d'");

# One primary-key table per type, t_<type> (id, sess, ph), so that a
# duplicate of one type is counted on its own, and procedures that fill
# them:
#  - gen_batches(ph, secs, per, batches): committed batches of per rows of
#    every type, until batches are done or the clock passed secs seconds;
#  - gen_loop(sess, ph, secs, iters): one row of each type an iteration,
#    each insert on its own, committed each iteration, until iters are
#    done, secs seconds passed or ctl.stop is set.  A duplicate key is
#    counted in dup (and the loop goes on); any other error ends the loop.
#    Each run leaves a row in outcome: the error's SQLSTATE and message
#    (null when none), its iterations and seconds.  Catching the error in
#    the procedure, rather than letting it end the psql session, lets the
#    test read all of that with SQL.
sub setup_tables
{
	my ($node) = @_;
	my $sql = '';

	# n: the order of the inserts (each session's IDs by n are in the order
	# it made them)
	$sql .= "CREATE TABLE t_$_ (id $_ PRIMARY KEY, sess int NOT NULL, ph int NOT NULL, "
	  . "n bigint GENERATED ALWAYS AS IDENTITY);\n"
	  for @types;
	my $batch = join '',
	  map { "INSERT INTO t_$_ SELECT ${_}_new(), 0, ph FROM generate_series(1, per);\n" }
	  @types;
	my $list = join ', ', map { "'$_'" } @types;
	$node->safe_psql(
		'postgres', qq{
		$sql
		CREATE TABLE dup (sess int, ph int, typ text);
		CREATE TABLE outcome (sess int, ph int, state text, message text,
							  iters int, secs float8);
		CREATE TABLE ctl (stop bool NOT NULL);
		INSERT INTO ctl VALUES (false);

		CREATE PROCEDURE gen_batches(ph int, secs float8, per int, batches int)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			t0 timestamptz := clock_timestamp();
			i int := 0;
		BEGIN
			LOOP
				$batch
				COMMIT;
				i := i + 1;
				EXIT WHEN i >= batches
					OR clock_timestamp() > t0 + secs * interval '1 s';
			END LOOP;
		END \$\$;

		CREATE PROCEDURE gen_loop(sess int, ph int, secs float8, iters int)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			t0 timestamptz := clock_timestamp();
			i int := 0;
			typ text;
			st text;
			msg text;
		BEGIN
			LOOP
				EXIT WHEN i >= iters
					OR clock_timestamp() > t0 + secs * interval '1 s'
					OR (SELECT stop FROM ctl);
				FOREACH typ IN ARRAY ARRAY[$list] LOOP
					BEGIN
						EXECUTE format('INSERT INTO %I VALUES (%s_new(), \$1, \$2)',
									   't_' || typ, typ)
						USING sess, ph;
					EXCEPTION
						WHEN unique_violation THEN
							INSERT INTO dup VALUES (sess, ph, typ);
						WHEN OTHERS THEN
							GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE,
													msg = MESSAGE_TEXT;
					END;
					EXIT WHEN st IS NOT NULL;
				END LOOP;
				EXIT WHEN st IS NOT NULL;
				COMMIT;
				i := i + 1;
			END LOOP;
			INSERT INTO outcome VALUES (sess, ph, st, msg, i,
				extract(epoch FROM clock_timestamp() - t0));
			COMMIT;
		END \$\$;
	});
	return;
}

# For each type, how many IDs of phase $ph do not sort after every ID
# committed in an earlier phase (uid60: are dated in an earlier second than
# the latest of them, its sequence wraps within a second), and the time of
# the newest earlier ID and of the oldest new one, for the diagnostics.
# With $by_tick, an sno need only sort after the earlier IDs of its own
# tick-tock timeline (sno's guarantee in a running server).
sub not_after
{
	my ($node, $type, $ph, $by_tick) = @_;
	my ($key, $op) = order_key($type);
	my $cmp =
	  $type eq 'sno' && $by_tick
	  ? 'id <= (SELECT o.id FROM old o WHERE sno_tick(o.id) = sno_tick(t.id) ORDER BY o.id DESC LIMIT 1)'
	  : "$key $op (SELECT max($key) FROM old)";

	return split /\|/, $node->safe_psql(
		'postgres', qq{
		WITH old AS (SELECT id FROM t_$type WHERE ph < $ph)
		SELECT count(*) FILTER (WHERE $cmp),
			   (SELECT max(${type}_timestamp(id)) FROM old),
			   min(${type}_timestamp(id))
		FROM t_$type t WHERE ph = $ph});
}

sub check_after
{
	my ($node, $ph, $what, $by_tick) = @_;
	for my $type (@types)
	{
		my ($bad, $old, $new) = not_after($node, $type, $ph, $by_tick);
		my $which = $type eq 'sno' && $by_tick ? ' of its timeline' : '';
		is($bad, '0',
			"$what: every new $type sorts after every $type$which committed before")
		  or diag "newest earlier $type dated $old, oldest new one $new";
	}
	return;
}

sub dups
{
	my ($node, $ph) = @_;
	return $node->safe_psql('postgres',
		"SELECT coalesce(string_agg(typ || ': ' || n, ', ' ORDER BY typ), '') FROM "
		  . "(SELECT typ, count(*) AS n FROM dup WHERE ph = $ph GROUP BY typ) x");
}

# The pids of the processes whose parent is $ppid.
sub children_of
{
	my ($ppid) = @_;
	my @kids;

	opendir my $dh, '/proc' or die "could not read /proc: $!";
	for my $pid (grep { /^\d+$/ } readdir $dh)
	{
		open my $fh, '<', "/proc/$pid/stat" or next;
		my $stat = <$fh>;
		close $fh;
		# pid (comm) state ppid ...; comm may hold spaces and parentheses
		push @kids, $pid
		  if defined $stat && $stat =~ /\)\s+\S+\s+(\d+)\s/ && $1 == $ppid;
	}
	closedir $dh;
	return @kids;
}

# True while the process exists and is not a zombie (a zombie holds no
# shared memory and no mapping).
sub alive
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/stat" or return 0;
	my $stat = <$fh>;
	close $fh;
	return defined $stat && $stat !~ /\)\s+Z\s/;
}

# kill -9 of the postmaster, then waits until every one of its children has
# gone: until then they keep the old shared memory attached (the next
# postmaster would refuse to start) and the state file mapped.
sub crash_postmaster
{
	my ($node) = @_;
	my $pm = postmaster_pid($node);
	my @pids = ($pm, children_of($pm));
	note 'postmaster ', $pm, ' with children ', join(' ', @pids[ 1 .. $#pids ]);

	$node->kill9;
	for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		if (!grep { alive($_) } @pids)
		{
			# Where nothing reaps the orphaned postmaster (a container whose
			# pid 1 does not), its zombie keeps its pid, and the next
			# postmaster would take the lock files naming it for a live
			# server's.  After a real crash they name no process: remove
			# them.
			unlink $node->data_dir . '/postmaster.pid';
			unlink $node->host . '/.s.PGSQL.' . $node->port . '.lock'
			  if $node->host =~ m{^/};
			return 1;
		}
		usleep(100_000);
	}
	diag 'still running: ', join(' ', grep { alive($_) } @pids);
	return 0;
}

sub read_file_raw
{
	my ($file) = @_;
	open my $fh, '<:raw', $file or die "could not read $file: $!";
	local $/;
	my $data = <$fh>;
	close $fh;
	return $data;
}

# Writes $data over the file as "cat data > file" does: truncated first
# (O_TRUNC), the data written $pause_us later.
sub write_truncating
{
	my ($file, $data, $pause_us) = @_;
	open my $fh, '>:raw', $file or die "could not truncate $file: $!";
	usleep($pause_us);
	print $fh $data or die "could not write $file: $!";
	close $fh or die "could not close $file: $!";
	return;
}

# Writes $data over the file's content, in place: the same inode, so its
# mode and owner stay, as after an OS crash that lost the latest writes.
sub overwrite_in_place
{
	my ($file, $data) = @_;
	open my $fh, '+<:raw', $file or die "could not open $file: $!";
	print $fh $data or die "could not write $file: $!";
	truncate($fh, length $data) or die "could not truncate $file: $!";
	close $fh or die "could not close $file: $!";
	return;
}


# 3. The file mode follows the data directory's: initdb -g gives the
# group read access to every file, the state file included.
{
	my $group = uid_node('hardening_group',
		init => [ extra => ['-g'] ],
		conf => \@id_conf);
	$group->safe_psql('postgres', 'SELECT sno_new()');
	my @st = stat(state_file($group));
	is(sprintf('%04o', $st[2] & 07777),
		'0640', 'group access (initdb -g): the state file has mode 0640');
	$group->stop;
}


# 1. kill -9 of the postmaster, the state file rolled back, the clock behind.
SKIP:
{
	skip 'libfaketime is not installed', 1 unless faketime_lib();

	my $node = faked_node('hardening_crash', @id_conf);
	my $file = state_file($node);
	setup_tables($node);

	# Phase 1: a few committed batches; then the copy that an OS crash
	# could leave behind (taken while nothing generates, so it is a state
	# the file really had).
	$node->safe_psql('postgres', 'CALL gen_batches(1, 60, 100, 5)');
	my $old = read_file_raw($file);
	is(length $old, 4096, 'crash: the older copy of the state file is 4096 bytes');

	# Phase 2: much more, over 4 s of the clock, so that the copy is far
	# behind what was committed (uid60's waits for the next second can
	# take up to one of them).
	$node->safe_psql('postgres', 'CALL gen_batches(2, 4, 100, NULL)');
	my ($n2, $gap) = split /\|/, $node->safe_psql(
		'postgres', q{
		SELECT count(*) FILTER (WHERE ph = 2),
			   extract(epoch FROM max(sno_timestamp(id)) FILTER (WHERE ph = 2)
							  - max(sno_timestamp(id)) FILTER (WHERE ph = 1))
		FROM t_sno});
	cmp_ok($gap, '>=', 2,
		"crash: $n2 IDs of each type committed over ${gap}s after the copy");

	ok(crash_postmaster($node),
		'crash: the postmaster was killed and its children are gone');
	overwrite_in_place($file, $old);
	ok(read_file_raw($file) eq $old, 'crash: the state file is the older copy');

	# Back 30 s: had the high-water marks not survived, the clock would
	# take the IDs back into the time phases 1 and 2 covered.
	set_clock($node, -30);
	my $log_offset = -s $node->logfile;
	start_faked($node);
	ok( $node->log_contains(
			qr/database system was not properly shut down; automatic recovery in progress/,
			$log_offset),
		'crash: the server ran crash recovery');
	check_clock_offset($node, -30, 'crash: the server clock is 30 s behind');
	is( $node->safe_psql('postgres',
			'SELECT clock_timestamp() < max(sno_timestamp(id)) FROM t_sno'),
		't',
		'crash: the clock is behind the last ID committed before the crash');

	# Phase 3: new IDs, one row at a time.
	$node->safe_psql('postgres', 'CALL gen_loop(3, 3, 60, 200)');
	my ($state, $msg, $iters) = split /\|/,
	  $node->safe_psql('postgres',
		'SELECT state, message, iters FROM outcome WHERE ph = 3');
	is($state, '', 'crash: the new IDs were generated without an error')
	  or diag "$state: $msg";
	is(dups($node, 3), '', "crash: none of the $iters rows of new IDs hit a duplicate key");
	check_after($node, 3, 'crash');

	$node->stop;
}


# 2. The state file unlinked, or replaced, while the server runs.
my $node = uid_node('hardening_unlink', conf => \@id_conf);
my $file = state_file($node);
setup_tables($node);
$node->safe_psql('postgres', 'CALL gen_batches(0, 60, 100, 3)');
is(sprintf('%04o', (stat($file))[2] & 07777),
	'0600', 'default data directory: the state file has mode 0600');

my $gate = $node->background_psql('postgres');

# $change->() unlinks or replaces the file (or the shared memory object)
# under S1, a session that has generated; then S2, a new session,
# generates, S3, another, keeps generating, and S1 tries to go on: refused
# with $refused, else without an error.  Rows of phase $ph (sess 1: S1's IDs
# before the change, 11: its loop after it; 2, 3: S2, S3), and of phase
# $ph + 1 for a session started after all that (4).
sub file_changed_under_a_session
{
	my ($what, $ph, $change, $refused) = @_;
	my $lock = 4400 + $ph;

	$node->safe_psql('postgres', 'UPDATE ctl SET stop = false');
	$gate->query_safe("SELECT pg_advisory_lock($lock)");

	# S1 generates (it has the file mapped), then waits at the gate.
	my $s1 = start_worker($node, "CALL gen_loop(1, $ph, 60, 1)",
		"SELECT pg_advisory_lock_shared($lock)",
		"CALL gen_loop(11, $ph, 8, 1000000)");
	ok( poll_while_running(
			$node, qq{
			SELECT (SELECT count(*) FROM outcome WHERE sess = 1 AND ph = $ph) = 1
			   AND (SELECT count(*) FROM pg_locks
					WHERE locktype = 'advisory' AND NOT granted) = 1},
			[$s1]),
		"$what: S1 generated and waits");
	is($node->safe_psql('postgres',
			"SELECT coalesce(state, 'none') FROM outcome WHERE sess = 1 AND ph = $ph"),
		'none', "$what: S1's first IDs were made without an error");

	$change->();

	# S2, a new session, generates.
	$node->safe_psql('postgres', "CALL gen_loop(2, $ph, 60, 1)");
	ok(poll_until("$what: the state file", sub { -e $file }),
		"$what: the state file exists again after a new session generated");

	# S1 goes on, in a loop of single-row statements for up to 8 s, while
	# S3, another new session, keeps generating too.  With the shared state
	# removed, S1 must be refused soon: its IDs would otherwise come from a
	# state that the new sessions no longer see.
	my $s3 = start_worker($node, "CALL gen_loop(3, $ph, 60, 1000000)");
	$gate->query_safe("SELECT pg_advisory_unlock($lock)");
	my ($rc, $out, $err) = finish_worker($s1);
	is($rc, 0, "$what: S1's session ran its loop") or diag $err;
	$node->safe_psql('postgres', 'UPDATE ctl SET stop = true');
	($rc, $out, $err) = finish_worker($s3);
	is($rc, 0, "$what: S3's session ran its loop") or diag $err;

	my ($state, $msg, $iters, $secs) = split /\|/,
	  $node->safe_psql('postgres',
		"SELECT state, message, iters, round(secs::numeric, 2) FROM outcome "
		  . "WHERE sess = 11 AND ph = $ph");
	note "$what: S1 made ", $iters // '?', ' rows of each type in ', $secs // '?', 's'
	  . ($state ? ", then got $state: $msg" : ', no error');
	if ($refused)
	{
		is($state, '55000', "$what: S1 is refused with SQLSTATE 55000");
		like($msg, $refused, "$what: the error says what was removed");
	}
	else
	{
		is($state // '', '', "$what: S1 goes on without an error");
		cmp_ok($iters, '>', 0, "$what: S1 made IDs after the change");
	}
	is( $node->safe_psql('postgres',
			"SELECT coalesce(string_agg(DISTINCT sess || ': ' || state, ', '), '') "
			  . "FROM outcome WHERE ph = $ph AND sess <> 11 AND state IS NOT NULL"),
		'', "$what: the new sessions generated without an error");
	is(dups($node, $ph), '', "$what: no duplicate key in any table");

	# A session started after all that: after a new shared state, which S2
	# and S3 fenced past every ID S1 could make, its IDs sort after every
	# earlier one (an sno, after those of its own timeline: with the fence ahead
	# of the clock, sno may flip to the other one in a running server).
	$node->safe_psql('postgres', 'UPDATE ctl SET stop = false');
	$node->safe_psql('postgres', "CALL gen_loop(4, $ph + 1, 60, 5)");
	is( $node->safe_psql('postgres',
			"SELECT coalesce(state, 'none') FROM outcome WHERE sess = 4 AND ph = $ph + 1"),
		'none', "$what: a later session generates");
	is(dups($node, $ph + 1), '', "$what: and hits no duplicate key");
	check_after($node, $ph + 1, "$what, a later session", 1);
	return;
}

file_changed_under_a_session(
	'unlinked', 10,
	sub {
		unlink $file or die "could not unlink $file: $!";
	});

file_changed_under_a_session(
	'replaced', 20,
	sub {
		# cp file tmp; mv tmp file: the same content, a new inode
		my $tmp = $node->basedir . '/uid_generator.state.copy';
		copy($file, $tmp) or die "could not copy $file: $!";
		chmod((stat($file))[2] & 07777, $tmp);
		rename $tmp, $file or die "could not rename $tmp: $!";
	});

file_changed_under_a_session(
	'shared memory removed', 30,
	sub {
		my $live = live_state($node);
		unlink $live or die "could not unlink $live: $!";
	},
	qr/uid state in shared memory segment .* was removed/);

$gate->quit;
$node->stop;


# 4 to 6: writes in place (the same inode, as "cat copy > file", "rsync
# --inplace" or a restore tool do) while two sessions generate, S1 and S2,
# in loops of single-row statements (gen_loop) for $secs seconds.
my $inp = uid_node('hardening_in_place', conf => \@id_conf);
my $ifile = state_file($inp);
setup_tables($inp);
$inp->safe_psql('postgres', 'CALL gen_batches(0, 60, 100, 3)');

# Runs $during->() while S1 and S2 generate rows of phase $ph; then checks
# that the server did not restart, that both sessions went on without an
# error until the end and made IDs after $during->() was done, and that no
# ID repeated.
sub generate_around
{
	my ($what, $ph, $secs, $during) = @_;
	my $started = $inp->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');
	my $log_at = -s $inp->logfile;

	$inp->safe_psql('postgres', 'UPDATE ctl SET stop = false');
	my @w = map { start_worker($inp, "CALL gen_loop($_, $ph, $secs, 100000000)") } 1, 2;
	ok( poll_while_running(
			$inp, qq{
			SELECT count(DISTINCT sess) = 2 FROM t_sno WHERE ph = $ph},
			\@w),
		"$what: both sessions generate");
	$during->();
	my $made = $inp->safe_psql('postgres', "SELECT count(*) FROM t_uid60 WHERE ph = $ph");
	for my $w (@w)
	{
		my ($rc, $out, $err) = finish_worker($w);
		is($rc, 0, "$what: a session ran its loop to the end") or diag $err;
	}
	is($inp->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'),
		$started, "$what: the server did not restart");
	ok(!$inp->log_contains(qr/terminated by signal|server process .* was terminated/, $log_at),
		"$what: no server process was terminated by a signal");
	is( $inp->safe_psql('postgres',
			"SELECT coalesce(string_agg(sess || ': ' || state || ' ' || message, ', '), '') "
			  . "FROM outcome WHERE ph = $ph AND state IS NOT NULL"),
		'', "$what: the sessions generated without an error");
	cmp_ok($inp->safe_psql('postgres', "SELECT count(*) FROM t_uid60 WHERE ph = $ph"),
		'>', $made, "$what: IDs kept coming after the last write");
	is(dups($inp, $ph), '', "$what: no ID of any type repeated");
	is(backwards($inp, $ph), '', "$what: each session's IDs of every type went forward");
	return;
}

# Per type, how many IDs of phase $ph do not sort after every earlier ID of
# their session (sno: of its session and timeline; uid60: dated in an
# earlier second).
sub backwards
{
	my ($node, $ph) = @_;
	my @bad;
	for my $type (@types)
	{
		my ($key, $op) = order_key($type);
		my $part = $type eq 'sno' ? 'sess, sno_tick(id)' : 'sess';
		my $n = $node->safe_psql(
			'postgres', qq{
			SELECT count(*) FROM (
				SELECT $key AS k, max($key) OVER (PARTITION BY $part ORDER BY n
					ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
				FROM t_$type WHERE ph = $ph) x
			WHERE k $op before});
		push @bad, "$type: $n" if $n;
	}
	return join ', ', @bad;
}

# After a restart ($mode: fast or immediate) with $data written in place
# while the server is stopped (when given): new IDs of phase $ph repeat
# none made before, and sort after them.
sub restart_and_check
{
	my ($what, $ph, $mode, $data) = @_;
	$inp->stop($mode);
	overwrite_in_place($ifile, $data) if defined $data;
	$inp->start;
	$inp->safe_psql('postgres', 'UPDATE ctl SET stop = false');
	$inp->safe_psql('postgres', "CALL gen_loop(5, $ph, 60, 100)");
	is( $inp->safe_psql('postgres',
			"SELECT coalesce(state, 'none') FROM outcome WHERE sess = 5 AND ph = $ph"),
		'none', "$what: after the restart, IDs are made");
	is(dups($inp, $ph), '', "$what: after the restart, none repeats one made before");
	check_after($inp, $ph, "$what: after the restart");
	return;
}

# 4. Truncated in place: to nothing, then the copy written back 0.3 s
# later, four times.
{
	my $copy = read_file_raw($ifile);
	generate_around(
		'truncated in place', 40, 5,
		sub {
			for (1 .. 4)
			{
				write_truncating($ifile, $copy, 300_000);
				usleep(300_000);
			}
		});
	restart_and_check('truncated in place', 41, 'fast');
	is(-s $ifile, 4096, 'truncated in place: the file has its 4096 bytes again');
}

# 5. An older copy, taken a second of IDs earlier, written over the file
# in place 16 times in 10 s; then the server stopped at once (no exiting
# session writes the file) and the copy written once more: a restore.
{
	my $older = read_file_raw($ifile);
	$inp->safe_psql('postgres', 'CALL gen_batches(50, 1, 100, NULL)');
	generate_around(
		'older copy in place', 51, 13,
		sub {
			for (1 .. 16)
			{
				overwrite_in_place($ifile, $older);
				usleep(625_000);
			}
		});
	restart_and_check('older copy in place', 52, 'immediate', $older);
}

# 6. The server started from an older copy (A), then a newer one (B, taken
# after a second more of IDs) written in place while it generates, as
# "cat B > uid_generator.state" writes it (truncated first; here the copy
# follows a tenth of a second later); then a restart with B in place.
{
	my $copy_a = read_file_raw($ifile);
	$inp->safe_psql('postgres', 'CALL gen_batches(60, 1, 100, NULL)');
	$inp->stop;
	my $copy_b = read_file_raw($ifile);
	overwrite_in_place($ifile, $copy_a);
	$inp->start;
	generate_around(
		'newer copy in place', 61, 5,
		sub {
			for (1 .. 8)
			{
				write_truncating($ifile, $copy_b, 100_000);
				usleep(300_000);
			}
		});
	restart_and_check('newer copy in place', 62, 'immediate', $copy_b);
}

$inp->stop;

done_testing();
