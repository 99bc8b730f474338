# Handing a hand-set identity over (issue 49): a server gives up its
# uid.partition, uid.generator and uid.medallion by ALTER SYSTEM and a
# reload, and another server then takes them.  On 0.7.0 (commit f119f03)
# the server that gave the identity up went on making IDs with it,
# silently, in cases 1-3 and 4a (each case's comment says how):
#
#  1. the postmaster's wall clock steps back between two reloads;
#  2. the only generator is a long procedure committing in a loop;
#  3. the documented handover, with writers on both servers: uid_reload()
#     on A, B's clock past the time it returned, uid_reload() on B;
#  4. uid_reload()'s failures, each with its reason: (a) no worker slot
#     free, (b) no settings worker can publish, (c) an invalid value,
#     (d) a standby, (e) a plain role.
#
# UID_TEST_OLD_RELOAD=1 runs the test against 0.7.0, which has no
# uid_reload(): pg_reload_conf() stands in for it (its "until" 2 s after
# it), and the checks of uid_reload() itself are skipped.
#
# The checks are on what the IDs embed, when they are dated and when they
# were made (the server's clock read before each ID, or its transaction's
# start); only case 2a allows a second, for a reload signal to land.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

my $old = $ENV{UID_TEST_OLD_RELOAD};
my $tmp = $PostgreSQL::Test::Utils::tmp_check;

sub q1
{
	my ($node, $sql) = @_;
	return $node->safe_psql('postgres', $sql);
}

# ALTER SYSTEM of the identity $v for every type: sno's partition, the
# generator (snowflake_si's machine, revts8's generator, uid60's worker) and
# muid's medallion ($v in hex, so that muid_medallion() gives $v).  Not
# reloaded.
sub set_identity
{
	my ($node, $v) = @_;
	q1($node,
		sprintf(q{LOAD 'uid'; ALTER SYSTEM SET uid.partition = %d; }
			  . q{ALTER SYSTEM SET uid.generator = %d; ALTER SYSTEM SET uid.medallion = '%x'},
			$v, $v, $v));
	return;
}

# pg_reload_conf(); returns once the postmaster has read the files (a new
# session's pg_conf_load_time() changed; the postmaster signals every
# process right after), with that time: the postmaster's reload time, on
# its own clock; in list context also the server's clock when
# pg_reload_conf() returned.
sub reload_conf
{
	my ($node) = @_;
	my $before = q1($node, 'SELECT pg_conf_load_time()');
	my $returned = q1($node, 'SELECT clock_timestamp() FROM pg_reload_conf()');
	my $at;
	poll_until('the postmaster to take the reload',
		sub { $at = q1($node, 'SELECT pg_conf_load_time()'); $at ne $before })
	  or die 'the reload was not taken';
	return wantarray ? ($at, $returned) : $at;
}

# uid_reload($timeout) on $node, as attempt() gives it; when it returned a
# time, also until (that time) and returned (the server's clock just after
# it returned).  With UID_TEST_OLD_RELOAD: reload_conf(), until 2 s later.
sub handover_reload
{
	my ($node, $timeout) = @_;
	my $r;

	if ($old)
	{
		reload_conf($node);
		$r = attempt($node,
			q{SELECT clock_timestamp() + interval '2 s', clock_timestamp()});
	}
	else
	{
		$r = attempt($node,
			"SELECT r, clock_timestamp() FROM uid_reload('$timeout') r");
	}
	@$r{qw(until returned)} = split /\|/, $r->{out} if $r->{rc} == 0;
	return $r;
}

# probe() in a new session (or in $session), polled until it gives $want,
# for 30 s at most (a settings worker publishes in milliseconds: a poll
# that runs out found the IDs keeping what they carried).  Returns what it
# gave last.
sub poll_probe
{
	my ($node, $want, $session) = @_;
	my $deadline = time() + 30;
	my $got;

	while (1)
	{
		$got = defined $session
		  ? $session->query('SELECT probe()')
		  : q1($node, 'SELECT probe()');
		last if $got eq $want || time() > $deadline;
		usleep(250_000);
	}
	return $got;
}

############################################################################
# 1. The postmaster's clock steps back between two reloads.  A shim
# (LD_PRELOAD) moves every process's CLOCK_REALTIME (clock_gettime,
# gettimeofday, time) by the offset in microseconds that a file holds, read on every
# call, so that a step reaches the postmaster at its next reading; the
# monotonic clock is left alone, as in an NTP step.  After a reload of 8
# and a step of 35 s back, a reload of 9: the session that took it and a
# new session make IDs with 9 within seconds, uid_config() shows 9 in
# effect; uid_reload() of 10 under the stepped clock returns, and the next
# IDs carry 10.  On 0.7.0 the reload of 9, dated before the one of 8 on the
# postmaster's clock, was never published: both sessions made IDs with 8
# for the 30 s of the poll, uid_config() showed setting 9, effective 8.
SKIP:
{
	my $cc = $ENV{CC} // 'cc';
	my $shim = "$tmp/realtime_shim";
	my $offset_file = "$tmp/realtime_offset";
	open my $src, '>', "$shim.c" or die;
	print $src <<'C';
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/*
 * CLOCK_REALTIME moved by the offset in microseconds that the file
 * UID_TEST_REALTIME_OFFSET names holds, read on every call with
 * async-signal-safe calls only (PostgreSQL reads the clock in signal
 * handlers); the other clocks as they are.
 */
static char offset_file[1024];
static int	(*real_clock_gettime) (clockid_t, struct timespec *);

/* copied: the postmaster's children write their process title over environ */
__attribute__((constructor)) static void
shim_init(void)
{
	const char *f = getenv("UID_TEST_REALTIME_OFFSET");

	if (f != NULL && strlen(f) < sizeof(offset_file))
		strcpy(offset_file, f);
	real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
}

static long long
offset_us(void)
{
	char		buf[32];
	long long	v = 0;
	int			neg = 0;
	int			fd;
	ssize_t		n;

	if (offset_file[0] == '\0' || (fd = open(offset_file, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (ssize_t i = 0; i < n; i++)
	{
		if (i == 0 && buf[i] == '-')
			neg = 1;
		else if (buf[i] >= '0' && buf[i] <= '9')
			v = v * 10 + (buf[i] - '0');
		else
			break;
	}
	return neg ? -v : v;
}

static int
realtime(clockid_t id, struct timespec *ts)
{
	int			save = errno;
	int			r = real_clock_gettime ? real_clock_gettime(id, ts) :
		(int) syscall(SYS_clock_gettime, id, ts);

	if (r == 0)
	{
		long long	ns = (long long) ts->tv_nsec + offset_us() * 1000;

		ts->tv_sec += ns / 1000000000;
		ns %= 1000000000;
		if (ns < 0)
		{
			ns += 1000000000;
			ts->tv_sec--;
		}
		ts->tv_nsec = ns;
		errno = save;
	}
	return r;
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)
		return realtime(id, ts);
	return real_clock_gettime ? real_clock_gettime(id, ts) :
		(int) syscall(SYS_clock_gettime, id, ts);
}

int
gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;

	if (tv != NULL)
	{
		if (realtime(CLOCK_REALTIME, &ts) != 0)
			return -1;
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return 0;
}

time_t
time(time_t *t)
{
	struct timespec ts;

	if (realtime(CLOCK_REALTIME, &ts) != 0)
		return (time_t) -1;
	if (t != NULL)
		*t = ts.tv_sec;
	return ts.tv_sec;
}
C
	close $src;
	skip 'no C compiler to make the clock shim', 12
	  unless system($cc, '-shared', '-fPIC', '-o', "$shim.so", "$shim.c", '-ldl') == 0;
	# written to a new file and renamed over the old one: a process reads
	# the old offset or the new one, never a partial file
	my $step = sub {
		open my $fh, '>', "$offset_file.tmp" or die;
		print $fh "$_[0]\n";
		close $fh or die;
		rename "$offset_file.tmp", $offset_file or die;
	};
	$step->(0);

	my $n = PostgreSQL::Test::Cluster->new('stepped');
	$n->init;
	$n->append_conf('postgresql.conf', "uid.partition = 7\nuid.generator = 7");
	{
		local $ENV{LD_PRELOAD} = "$shim.so";
		local $ENV{UID_TEST_REALTIME_OFFSET} = $offset_file;
		$n->start;
	}
	q1($n, 'CREATE EXTENSION uid; ' . probe_sql());
	my $s = $n->background_psql('postgres');
	is(scalar $s->query('SELECT probe()'), '7/7', '1. setup: IDs carry 7/7');

	set_identity($n, 8);
	my $load8 = reload_conf($n);
	is(poll_probe($n, '8/8'), '8/8', '1. after a reload of 8, a new session\'s IDs carry 8/8');
	is(poll_probe($n, '8/8', $s), '8/8', '1. and so do those of the session that took it');

	$step->(-35_000_000);
	check_clock_offset($n, -35, '1. the server\'s clock steps 35 s back');
	set_identity($n, 9);
	my $load9 = reload_conf($n);
	is(q1($n, "SELECT '$load9'::timestamptz < '$load8'::timestamptz"), 't',
		"1. the postmaster's clock stepped back: its reload of 9 ($load9) is dated before that of 8 ($load8)");
	is(poll_probe($n, '9/9', $s), '9/9',
		'1. the session that took the reload of 9 makes IDs with 9/9');
	is(poll_probe($n, '9/9'), '9/9', '1. and a new session too');
	is(q1($n, q{SELECT setting || '/' || effective FROM uid_config() WHERE name = 'uid.partition'}),
		'9/9', '1. uid_config() shows uid.partition 9, in effect');

	# uid_reload() under the stepped clock: the IDs carry 10/10 at once.
	set_identity($n, 10);
	my $r = handover_reload($n, '10 s');
	is($r->{rc}, 0, '1. uid_reload() of 10 under the stepped clock returns') or diag $r->{err};
	is(scalar $s->query('SELECT probe()'), '10/10',
		'1. once it returned, the session of before makes IDs with 10/10');
	is(q1($n, 'SELECT probe()'), '10/10', '1. and a new session too');
	is(q1($n, "SELECT '$r->{until}'::timestamptz > clock_timestamp()"), 't',
		'1. the time uid_reload() returned is ahead of the stepped clock')
	  if $r->{rc} == 0;
	$s->quit;
	$n->stop;
}

############################################################################
# 2. A long procedure is the only generator: it commits in a loop, one
# snowflake_si and one sno a row, the server's clock read before them (at),
# until the test stops it 3 s after the reload; meanwhile another session
# changes the identity and reloads: (a) 7 to 8 with pg_reload_conf(): no ID
# made more than a second after the postmaster's reload carries 7; (b) 8 to
# 9 with uid_reload(): no ID made after it returned carries 8, none with 8
# is dated at or after the time it returned.  On 0.7.0 the loop kept the
# identity given up to its end: (a) 295 IDs with 7 made after the reload,
# 202 of them more than a second after, none with 8; (b) (pg_reload_conf()
# in place of uid_reload()) 302 with 8 made after it returned, none with 9.

my $p = uid_node('procedure', conf => [ 'uid.generator = 7' ]);
q1($p, q{
	CREATE TABLE r (at timestamptz NOT NULL, f snowflake_si NOT NULL, s sno NOT NULL, v int NOT NULL);
	CREATE TABLE ctl (stop bool NOT NULL);
	INSERT INTO ctl VALUES (false);
	CREATE PROCEDURE batch(v int) LANGUAGE plpgsql AS $$
	BEGIN
		WHILE NOT (SELECT stop FROM ctl) LOOP
			INSERT INTO r SELECT clock_timestamp(), snowflake_si_new(), sno_new(1), v;
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
	END $$;
});

# Runs batch($v), then $reload->() once it has made IDs, and stops it once
# it has made IDs for 3 s after the time $reload returns.
sub through_reload
{
	my ($v, $reload) = @_;
	q1($p, 'UPDATE ctl SET stop = false');
	my $w = start_worker($p, "CALL batch($v)");
	poll_while_running($p, "SELECT count(*) >= 20 FROM r WHERE v = $v", [$w]);
	my $at = $reload->();
	poll_while_running($p,
		"SELECT count(*) > 0 FROM r WHERE v = $v AND at > timestamptz '$at' + interval '3 s'", [$w]);
	q1($p, 'UPDATE ctl SET stop = true');
	my ($rc, $out, $err) = finish_worker($w);
	is($rc, 0, "2. the procedure ($v) ran through the reload") or diag $err;
	return;
}

# The rows of batch($v) whose IDs carry $id, as an SQL condition.
sub carry
{
	my ($v, $id) = @_;
	return "v = $v AND (snowflake_si_machine(f) = $id OR sno_partition(s) = $id)";
}

# a. pg_reload_conf(): the IDs carry 8 a second after the postmaster's
# reload at the latest (its signal lands on the procedure's backend).
my ($load, $returned);
through_reload(
	1,
	sub {
		set_identity($p, 8);
		($load, $returned) = reload_conf($p);
		return $load;
	});
note "2a. pg_reload_conf() returned at $returned; the postmaster reloaded at $load";
my ($late7, $all7, $with8) = split /\|/, q1($p, sprintf(
	q{SELECT count(*) FILTER (WHERE %s AND at > timestamptz '%s' + interval '1 s'),
			 count(*) FILTER (WHERE %s AND at > timestamptz '%s'), count(*) FILTER (WHERE %s)
	  FROM r},
	carry(1, 7), $load, carry(1, 7), $load, carry(1, 8)));
is($late7, '0', '2a. no ID of the procedure made more than 1 s after the reload carries 7')
  or diag "$all7 IDs with 7 made after the reload";
cmp_ok($with8, '>', 0, "2a. the procedure made IDs with 8 ($with8 rows)");

# b. uid_reload(): no ID made after it returned carries 8, none with 8 is
# dated at or after the time it returned.
my $until;
through_reload(
	2,
	sub {
		set_identity($p, 9);
		my $rr = handover_reload($p, '10 s');
		is($rr->{rc}, 0, '2b. uid_reload() returns') or diag $rr->{err};
		($until, $returned) = @$rr{qw(until returned)};
		return $returned;
	});
my ($after8, $dated8, $with9) = split /\|/, q1($p, sprintf(
	q{SELECT count(*) FILTER (WHERE %s AND at > '%s'),
			 count(*) FILTER (WHERE %s AND (snowflake_si_timestamp(f) >= '%s' OR sno_timestamp(s) >= '%s')),
			 count(*) FILTER (WHERE %s)
	  FROM r},
	carry(2, 8), $returned, carry(2, 8), $until, $until, carry(2, 9)));
is($after8, '0', '2b. no ID of the procedure made after uid_reload() returned carries 8');
is($dated8, '0', "2b. no ID with 8 is dated at or after the time uid_reload() returned ($until)");
cmp_ok($with9, '>', 0, "2b. the procedure made IDs with 9 ($with9 rows)");
$p->stop;

############################################################################
# 3. The handover end to end: servers A (7) and B (8), writing IDs of
# every type.  A's only writer is a batch job: a procedure that commits
# batches in a loop (it takes a reload only when it ends).  B has one too,
# and a session that calls one batch a statement (it takes a reload at its
# next one).  A gives 7 up for 17 (uid_reload()), B's clock passes the time
# it returned, B takes 7 (uid_reload()); the writers go on for 3 s, then
# every ID of both is compared, type by type: none made by both; none of A
# made after its uid_reload() returned carries 7, none with 7 is dated at
# or after the time it returned, and every ID of B with 7 is dated after
# every ID of A with 7.  On 0.7.0 (pg_reload_conf()) A's procedure kept 7
# to its end (no other session of A made an ID, which would have published
# 17): 5,500 IDs of each type with 7 after the reload, none with 17, and
# with B's, 781 sno, 241 snowflake_si, 280 revts8 and 3 uid60 made by both
# (muid: 0; 20 in another run).

my @types = id_types();
my %gen = generator_calls();
my %carried = map { $_ => carried_lease_id($_) } @types;
my $tables = join '',
  map { "CREATE TABLE ids_$_ (at timestamptz NOT NULL, xs timestamptz NOT NULL, w text NOT NULL, id $_ NOT NULL);\n" }
  @types;
my $inserts = join '',
  map { "INSERT INTO ids_$_ SELECT clock_timestamp(), now(), w, $gen{$_} FROM generate_series(1, 20);\n" } @types;
my %node;
for ([ 'a', 7 ], [ 'b', 8 ])
{
	my ($name, $v) = @$_;
	my $node = uid_node("handover_$name",
		conf => [ "uid.partition = $v", "uid.generator = $v", sprintf("uid.medallion = '%x'", $v) ]);
	q1($node, $tables . qq{
		CREATE TABLE ctl (stop bool NOT NULL);
		INSERT INTO ctl VALUES (false);
		CREATE TABLE errs (at timestamptz, e text);
		-- a batch of every type from writer w; at: the clock before each ID;
		-- xs: its transaction's start (a muid transaction keeps the
		-- medallion of its first muid).  An error is kept in errs.
		CREATE PROCEDURE batch(w text) LANGUAGE plpgsql AS \$\$
		BEGIN
			$inserts
		EXCEPTION WHEN OTHERS THEN
			INSERT INTO errs VALUES (clock_timestamp(), SQLSTATE || ': ' || SQLERRM);
		END \$\$;
		-- batches committed in a loop until ctl says stop
		CREATE PROCEDURE gen() LANGUAGE plpgsql AS \$\$
		BEGIN
			WHILE NOT (SELECT stop FROM ctl) LOOP
				CALL batch('procedure');
				COMMIT;
				PERFORM pg_sleep(0.02);
			END LOOP;
		END \$\$;
		-- one batch, unless ctl says stop
		CREATE PROCEDURE once() LANGUAGE plpgsql AS \$\$
		BEGIN
			IF NOT (SELECT stop FROM ctl) THEN
				CALL batch('statements');
				PERFORM pg_sleep(0.02);
			END IF;
		END \$\$;
	});
	$node{$name} = $node;
}
my ($na, $nb) = @node{qw(a b)};
# B's statements: 2000, about a minute of batches, then no-ops once stopped
my %writer = (
	'procedure of A' => start_worker($na, 'CALL gen()'),
	'procedure of B' => start_worker($nb, 'CALL gen()'),
	'statements of B' => start_worker($nb, ('CALL once()') x 2000));
my @writers = values %writer;
poll_while_running($na, q{SELECT count(*) > 0 FROM ids_uid60}, \@writers);
poll_while_running($nb, q{SELECT count(DISTINCT w) = 2 FROM ids_uid60}, \@writers);

set_identity($na, 17);
my $ra = handover_reload($na, '10 s');
is($ra->{rc}, 0, '3. A gives 7 up: uid_reload() returns') or diag $ra->{err};
my ($until_a, $returned_a) = @$ra{qw(until returned)};
note "3. A's uid_reload() returned at $returned_a: until $until_a";
poll_until("B's clock past $until_a", sub { q1($nb, "SELECT clock_timestamp() > '$until_a'") eq 't' });
set_identity($nb, 7);
my $rb = handover_reload($nb, '10 s');
is($rb->{rc}, 0, '3. B takes 7: uid_reload() returns') or diag $rb->{err};
my $returned_b = $rb->{returned};
# every writer goes on for 3 s after B took 7
for ([ $na, 1 ], [ $nb, 2 ])
{
	my ($node, $kinds) = @$_;
	poll_while_running($node,
		'SELECT ' . join(' AND ',
			map { "(SELECT count(DISTINCT w) = $kinds FROM ids_$_ WHERE xs > timestamptz '$returned_b' + interval '3 s')" } @types),
		\@writers);
}
q1($_, 'UPDATE ctl SET stop = true') for $na, $nb;
for my $name (sort keys %writer)
{
	my ($rc, $out, $err) = finish_worker($writer{$name});
	is($rc, 0, "3. the $name ran through the handover") or diag $err;
}
for my $node ($na, $nb)
{
	is(q1($node, q{SELECT count(*) || coalesce(': ' || min(e), '') FROM errs}), '0',
		'3. no refusal on ' . $node->name);
}

# B's IDs into A, beside A's own.
for my $type (@types)
{
	q1($na, "CREATE TABLE b_$type (LIKE ids_$type)");
	my $rows = q1($nb, "COPY ids_$type TO STDOUT");
	my ($rc, $out, $err) = $na->psql('postgres', "COPY b_$type FROM STDIN;\n$rows\n\\.\n");
	is($rc, 0, "3. B's $type IDs loaded into A") or diag $err;
}
for my $type (@types)
{
	my $c = $carried{$type};
	my $made = $type eq 'muid' ? 'xs' : 'at';
	my $ts = "${type}_timestamp(id)";
	my ($n_a, $n_b, $dups, $a_after, $a_dated, $a_new, $b_before, $b_took) = split /\|/, q1($na, qq{
		SELECT (SELECT count(*) FROM ids_$type), (SELECT count(*) FROM b_$type),
			   (SELECT count(*) FROM ids_$type JOIN b_$type USING (id)),
			   (SELECT count(*) || coalesce(' (' || string_agg(DISTINCT w, ', ') || ')', '')
				FROM ids_$type WHERE $made > '$returned_a' AND $c = 7),
			   (SELECT count(*) FROM ids_$type WHERE $ts >= '$until_a' AND $c = 7),
			   (SELECT count(*) FROM ids_$type WHERE $made > '$returned_a' AND $c = 17),
			   (SELECT count(*) FROM b_$type WHERE $c = 7
				AND $ts <= (SELECT max($ts) FROM ids_$type WHERE $c = 7)),
			   (SELECT count(*) FROM b_$type WHERE $c = 7)});
	note "3. $type: A made $n_a IDs, B $n_b";
	is($dups, '0', "3. $type: no ID made by both A and B");
	is($a_after, '0', "3. $type: no ID of A made after its uid_reload() returned carries 7");
	is($a_dated, '0', "3. $type: no ID of A with 7 is dated at or after the time uid_reload() returned");
	cmp_ok($a_new, '>', 0, "3. $type: A made IDs with 17 ($a_new)");
	is($b_before, '0', "3. $type: every ID of B with 7 is dated after every ID of A with 7");
	cmp_ok($b_took, '>', 0, "3. $type: B made IDs with 7 ($b_took)");
}
$_->stop for $na, $nb;

############################################################################
# 4. uid_reload()'s failures.  Three worker slots, which a query whose
# parallel workers sleep holds (take_slots).  (a) With no slot free,
# uid_reload() fails (55000, naming the slot); a session that took the
# identity-changing reload refuses to make IDs (on 0.7.0, which has no
# uid_reload(), it made them with the identity given up, 7/7), and makes
# them with the new one once a slot is free; a reload of work_mem alone
# refuses nothing.  (b) A settings worker that cannot publish: 55000.
# (c) An invalid medallion: 22023, the medallion in force kept.  (d) A
# standby: NULL.  (e) A plain role: 42501.

my $f = uid_node('failures',
	init => [ allows_streaming => 1 ],
	conf => [ 'uid.generator = 7', slot_conf() ]);
create_slot_holder($f);
q1($f, probe_sql() . q{
	CREATE FUNCTION probe_muid() RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN muid_medallion(muid_new())::text;
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$;
});

# a. No slot free.
my $s = $f->background_psql('postgres');
is(scalar $s->query('SELECT probe()'), '7/7', '4a. setup: IDs carry 7/7');
my $h = take_slots($f);
set_identity($f, 8);
my $r = handover_reload($f, '2 s');
note sprintf('4a. uid_reload(\'2 s\') with no slot free: %.1f s', $r->{secs});
SKIP:
{
	skip '0.7.0 has no uid_reload()', 3 if $old;
	is($r->{sqlstate} // 'returned', '55000', '4a. with no slot free, uid_reload(\'2 s\') fails with 55000')
	  or diag $r->{out} . $r->{err};
	ok(!$r->{timed_out}, '4a. within its timeout');
	like($r->{detail} // '', qr/No background worker slot was free/, '4a. the detail says no worker slot was free');
}
my $got = $s->query('SELECT probe()');
like($got, qr/^55000: uid could not publish the server's settings of its last reload/,
	'4a. a session that took the reload of 8 refuses (55000) instead of making IDs with 7');
free_slots($f, $h);
is(poll_probe($f, '8/8', $s), '8/8', '4a. once a slot is free, its IDs carry 8/8');
is(q1($f, 'SELECT probe()'), '8/8', '4a. and a new session\'s too');

# A reload that changes no identity, with no slot free: nothing refuses.
$h = take_slots($f);
q1($f, q{ALTER SYSTEM SET work_mem = '5MB'});
reload_conf($f);
is(scalar $s->query(q{SELECT current_setting('work_mem') || ' ' || probe()}), '5MB 8/8',
	'4a. a reload of work_mem alone, no slot free: the session that took it makes IDs with 8/8');
is(q1($f, 'SELECT probe()'), '8/8', '4a. and so does a new session');
free_slots($f, $h);
$s->quit;

SKIP:
{
	skip '0.7.0 has no uid_reload()', 11 if $old;

	# b. A settings worker that cannot publish: the record's writer word
	# held by a living process, as by a worker stopped mid-publication
	# (hold_record_writer).
	my $sleeper = start_worker($f, 'SELECT pg_sleep(600)');
	my $spid;
	poll_until('the sleeping session',
		sub { $spid = q1($f, q{SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'}); $spid ne '' });
	hold_record_writer($f, $spid);
	set_identity($f, 9);
	$r = handover_reload($f, '2 s');
	is($r->{sqlstate} // 'returned', '55000', '4b. with the writer word held, uid_reload(\'2 s\') fails with 55000')
	  or diag $r->{out} . $r->{err};
	like($r->{detail} // '', qr/No settings worker published them/, '4b. the detail says no settings worker published');
	q1($f, "SELECT pg_terminate_backend($spid)");
	finish_worker($sleeper);
	$r = handover_reload($f, '10 s');
	is($r->{rc}, 0, '4b. once the holder is gone, uid_reload() returns') or diag $r->{err};
	is(q1($f, 'SELECT probe()'), '9/9', '4b. and IDs carry 9/9');

	# c. An invalid medallion: 22023, the medallion in force kept.
	is(q1($f, 'SELECT probe_muid()'), '9', '4c. setup: muids carry medallion 9');
	$f->append_conf('postgresql.auto.conf', "uid.medallion = 'zz'\n");
	$r = handover_reload($f, '10 s');
	is($r->{sqlstate} // 'returned', '22023', '4c. uid_reload() of uid.medallion = \'zz\' fails with 22023')
	  or diag $r->{out} . $r->{err};
	is(q1($f, 'SELECT probe_muid()'), '9', '4c. muids keep medallion 9');
	$f->append_conf('postgresql.auto.conf', "uid.medallion = '9'\n");
	is(handover_reload($f, '10 s')->{rc}, 0, '4c. corrected, uid_reload() returns');

	# d. A standby reloads and returns NULL.
	$f->backup('b');
	my $standby = PostgreSQL::Test::Cluster->new('failures_standby');
	$standby->init_from_backup($f, 'b', has_streaming => 1);
	$standby->start;
	is(q1($standby, 'SELECT uid_reload() IS NULL'), 't', '4d. on a standby, uid_reload() returns NULL');
	$standby->stop;

	# e. Not executable by a plain role.
	q1($f, 'CREATE ROLE plain LOGIN');
	my ($rc, $out, $err) = $f->psql('postgres', 'SELECT uid_reload()',
		extra_params => [ '-U', 'plain', '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:\s+42501: permission denied for function uid_reload/,
		'4e. a plain role may not call uid_reload() (42501)');
}
$f->stop;

done_testing();
