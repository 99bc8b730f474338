# Helpers shared by uid's TAP tests: background psql workers, a server
# clock that the test can step with libfaketime, and coordinators from
# which servers lease their identity.

package UidTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

our @EXPORT = qw(faketime_lib start_faked set_clock server_clock_offset
  check_clock_offset restart_faked restart_behind
  start_worker finish_worker poll_while_running poll_until attempt wait_for_primary check_ids
  check_ids_by check_ids_wrap uid_node faked_node state_file live_state live_objects postmaster_pid type_stats
  run_released
  check_not_ahead check_capacity
  check_overlap clock_jump_test
  start_generator wait_for_phase step_phase timed_batch stop_generator
  check_capacity_stats probe_sql
  id_types generator_calls id_generators order_key create_id_tables row_counts latest_id_time
  check_clock_behind new_ids_behind check_new_ids
  coordinator_node carried_lease_id
  reload_with reload_applied sno_listener sno_notifications
  slot_conf create_slot_holder take_slots free_slots hold_record_writer
  worker_generators_sql);

# test/check.sh passes the library of Debian's package "faketime" in
# UID_FAKETIME_LIB; the fallback is its place on amd64.
sub faketime_lib
{
	my $lib = $ENV{UID_FAKETIME_LIB}
	  || '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
	return $lib if -e $lib;
	# test/check.sh installs faketime: there a missing library is a failure,
	# not a reason to skip the clock tests
	die "libfaketime not found ($lib)\n" if $ENV{UID_REQUIRE_FAKETIME};
	return undef;
}

sub clock_file
{
	my ($node) = @_;
	return $node->basedir . '/faketime.rc';
}

# How often every process of a faked server re-reads its clock file:
# libfaketime re-reads it on the first clock reading after this many whole
# seconds have passed (FAKETIME_CACHE_DURATION; 0: on the first reading of
# each new second).  Not FAKETIME_NO_CACHE, which opens the file on every
# clock reading: a signal handler that reads the clock (PostgreSQL's
# timeouts) can then land inside that fopen and hang the backend for good,
# as in an earlier soak (test/soak.sh).
my $clock_cache = 0;

# Sets the offset of the server's clock from real time: a libfaketime
# relative offset in seconds ("-2", "-3600", "+0"), or an absolute time,
# which freezes the clock there.  Written to a new file and renamed over
# the old one, so that a backend reading it mid-write never sees an empty
# or partial file.  On a running server it then waits until every process
# has taken the step (at most a second, see $clock_cache): a process, the
# postmaster and the backends it forks included, reads the clock with the
# offset it read last until the next whole second, and whatever the test
# does next must find the step done.  The wait is real time, not progress:
# a busy machine needs no more of it.
sub set_clock
{
	my ($node, $offset) = @_;
	my $file = clock_file($node);

	open my $fh, '>', "$file.tmp" or die "could not write $file.tmp: $!";
	print $fh "$offset\n";
	close $fh or die "could not close $file.tmp: $!";
	rename "$file.tmp", $file or die "could not rename to $file: $!";
	return unless -e $node->data_dir . '/postmaster.pid';

	# A process that read the file before the rename read it in this second
	# or earlier, and reads it again at its first clock reading once
	# $clock_cache + 1 seconds have begun since (libfaketime compares whole
	# seconds of the real clock).
	my $settled = int(time()) + $clock_cache + 1;
	usleep(1_000_000 * ($settled - time()) + 20_000) while time() < $settled;
	return;
}

# Starts the node under libfaketime with the offset now in its clock file
# (+0 if none was set).  Every process re-reads the file once a second
# ($clock_cache), so set_clock moves all of them within a second.  Only
# CLOCK_REALTIME moves, as in an NTP step: a monotonic clock that jumped
# would stretch the server's own timeouts.
sub start_faked
{
	my ($node) = @_;

	set_clock($node, '+0') unless -e clock_file($node);
	local $ENV{LD_PRELOAD} = faketime_lib();
	local $ENV{FAKETIME_TIMESTAMP_FILE} = clock_file($node);
	local $ENV{FAKETIME_CACHE_DURATION} = $clock_cache;
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$node->start;
	return;
}

# The server's clock minus the real clock, in seconds, to within half the
# psql call that read it (the server read its clock somewhere between the
# call's start and end; the middle is taken).  In list context also the
# call's seconds.
sub server_clock_offset
{
	my ($node) = @_;
	my $before = time();
	my $server = $node->safe_psql('postgres',
		'SELECT extract(epoch FROM clock_timestamp())');
	my $after = time();
	my $off = $server - ($before + $after) / 2;
	return wantarray ? ($off, $after - $before) : $off;
}

# Checks that the server's clock is $offset s off real time, to $within s
# (default half a second) beyond what the psql call that read it leaves
# open (half its time: a slow call on a busy machine widens the window,
# it does not fail the check), as test $name; returns the offset it read.
sub check_clock_offset
{
	my ($node, $offset, $name, $within) = @_;
	my ($off, $took) = server_clock_offset($node);

	cmp_ok(abs($off - $offset), '<', ($within // 0.5) + $took / 2, $name)
	  or diag "offset: $off (read by a psql call of ${took}s)";
	return $off;
}

# Stops the node and starts it again under libfaketime with its clock
# $offset (as set_clock takes it) off real time: a restart with the clock
# set back, which the state file and the lease must outlive.
sub restart_faked
{
	my ($node, $offset) = @_;

	$node->stop;
	set_clock($node, $offset);
	start_faked($node);
	return;
}

# Restarts the node with its clock $offset s back (restart_faked), so that
# the clock is more than $margin s behind the time of what the test made
# before: $ahead, a sub, returns how many seconds that is ahead of the
# server's clock.  The step is the test's precondition, and a stop and a
# start on a busy machine can take longer than the step: then the node
# restarts again with the clock twice as far back, up to three times more,
# and only then does the precondition fail.  Checks the offset and the
# precondition ("$what: ..."; the offset to within $within s, as
# check_clock_offset takes it); returns the offset in force.
sub restart_behind
{
	my ($node, $offset, $ahead, $margin, $what, $within) = @_;
	my $s;

	for my $try (0 .. 3)
	{
		if ($try > 0)
		{
			note "$what: after the restart, what was made before is $s s "
			  . "ahead of the clock, not more than $margin; "
			  . 'restarting with the clock twice as far back';
			$offset *= 2;
		}
		restart_faked($node, $offset);
		check_clock_offset($node, $offset,
			"$what: the server clock is $offset s off real time", $within);
		$s = $ahead->();
		last if $s > $margin;
	}
	cmp_ok($s, '>', $margin, "$what: the clock is behind what was made before")
	  or diag "that is $s s ahead of the clock";
	return $offset;
}

# Starts psql running the given commands (each its own -c, so each is its
# own transaction) without waiting for it.  A worker may run for the whole
# of a test's middle part (until the test tells it to stop), which on a busy
# machine takes minutes: the time limit, which only catches a hang, is five
# times $PostgreSQL::Test::Utils::timeout_default.
sub start_worker
{
	my ($node, @sql) = @_;
	my %w = (stdout => '', stderr => '');
	my @cmd = ('psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres'));

	push @cmd, map { ('-c', $_) } @sql;
	$w{h} = IPC::Run::start(\@cmd, '<', \undef, '>', \$w{stdout},
		'2>', \$w{stderr},
		IPC::Run::timeout(5 * $PostgreSQL::Test::Utils::timeout_default));
	return \%w;
}

# Waits for a worker; returns its exit code (-1 if it timed out or died by a
# signal), stdout and stderr.
sub finish_worker
{
	my ($w) = @_;
	my $rc = eval {
		$w->{h}->finish;
		my $status = $w->{h}->full_result(0);
		($status & 127) ? -1 : $status >> 8;
	};

	if (!defined $rc)
	{
		$w->{h}->kill_kill;
		$rc = -1;
	}
	return ($rc, $w->{stdout}, $w->{stderr});
}

# Polls until the query returns true, like poll_query_until, but gives up
# at once when one of the workers has exited: a worker that failed would
# otherwise cost the full timeout.
sub poll_while_running
{
	my ($node, $query, $workers) = @_;

	for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		return 1 if $node->safe_psql('postgres', $query) eq 't';
		for my $w (@$workers)
		{
			$w->{h}->pump_nb if $w->{h}->pumpable;
			if (!$w->{h}->pumpable)
			{
				diag "a worker exited early: $w->{stderr}";
				return 0;
			}
		}
		usleep(100_000);
	}
	diag "timed out polling: $query";
	return 0;
}

# Calls $check every quarter of a second until it returns true, for at
# most $PostgreSQL::Test::Utils::timeout_default seconds (generous: a busy
# machine must pass; only a hang runs out).  Returns what $check returned,
# or undef when time ran out, noting $what was waited for.
sub poll_until
{
	my ($what, $check) = @_;
	my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;

	while (time() < $deadline)
	{
		my $r = $check->();
		return $r if $r;
		usleep(250_000);
	}
	diag "timed out waiting: $what";
	return undef;
}

# Polls until $node is out of recovery and takes writes (after a crash
# restart or a promotion).  Not poll_query_until: on 18 it gives psql the
# query on stdin, and when psql exits at once (the server still refuses
# connections) IPC::Run dies of the broken pipe.  Here the query is an
# argument.
sub wait_for_primary
{
	my ($node) = @_;
	return poll_until(
		'the server to leave recovery',
		sub {
			my ($out, $err) = ('', '');
			eval {
				IPC::Run::run(
					[
						'psql', '-XAtq', '-d', $node->connstr('postgres'),
						'-c', 'SELECT NOT pg_is_in_recovery()'
					],
					'<', \undef, '>', \$out, '2>', \$err);
			};
			chomp $out;
			return $out eq 't';
		});
}

# Runs $sql on $node's database postgres with psql, stopping at the first
# error, errors shown verbosely (with their SQLSTATE).  Returns a hash: rc
# (psql's exit code; undef if it timed out), out, err, secs (how long psql
# took), timed_out (true if psql was still running after
# $PostgreSQL::Test::Utils::timeout_default seconds: a hang), and for the
# first error its sqlstate, msg and detail (undef if none).
sub attempt
{
	my ($node, $sql) = @_;
	my $timed_out = 0;
	my $start = time();
	my ($rc, $out, $err) = $node->psql(
		'postgres', $sql,
		on_error_stop => 1,
		timeout => $PostgreSQL::Test::Utils::timeout_default,
		timed_out => \$timed_out,
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	my %r = (
		rc => $rc,
		out => $out,
		err => $err,
		secs => time() - $start,
		timed_out => $timed_out);

	@r{qw(sqlstate msg)} = ($1, $2) if $err =~ /(?:^|: )ERROR:\s+([0-9A-Z]{5}): (.*)$/m;
	$r{detail} = $1 if $err =~ /(?:^|: )ERROR:.*\n(?:.*\n)*?DETAIL:\s+(.*)$/m;
	return \%r;
}


# The generator guarantees over a table of IDs t (id, n int, and the
# session columns named in $sessions): no duplicate, and each session's IDs
# strictly increasing in the type's btree order (guarantees 1 and 3).
# $timeline is an SQL expression of id that names the timeline within which
# the order must hold (sno: sno_tick(id)), or undef for a type with a single
# timeline, whose IDs must rise across every clock step.
sub check_ids_by
{
	my ($node, $sessions, $timeline) = @_;
	my $partition = defined $timeline ? "$sessions, $timeline" : $sessions;
	my $scope = defined $timeline ? ' on each timeline' : '';
	my ($count, $distinct) = split /\|/,
	  $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t');

	is($distinct, $count, "no duplicate among $count IDs");
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FROM (
			SELECT id <= lag(id) OVER (PARTITION BY $partition ORDER BY n) AS bad
			FROM t
		) x WHERE bad}),
		'0',
		"each session's IDs are strictly increasing$scope");
	return $count;
}

# check_ids_by for sno, whose IDs rise on each of its two timelines.
sub check_ids
{
	my ($node, $sessions) = @_;
	return check_ids_by($node, $sessions, 'sno_tick(id)');
}

# The generator guarantees for a type whose sequence runs on across its
# ticks (uid60): no duplicate, and in each session the time (name's
# timestamp function) never goes back.  Its IDs rise too, but for where the
# server's sequence wrapped from its largest value to 0 within a tick: a
# session sees that at most once a tick, and only as a smaller sequence in
# the same tick.
sub check_ids_wrap
{
	my ($node, $name, $sessions) = @_;
	my ($count, $distinct) = split /\|/,
	  $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t');

	is($distinct, $count, "no duplicate among $count IDs");
	my ($back, $bad_down, $downs) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FILTER (WHERE ts < prev_ts),
			   count(*) FILTER (WHERE id <= prev AND (ts <> prev_ts OR seq >= prev_seq)),
			   coalesce(max(downs), 0)
		FROM (
			SELECT *,
				   count(*) FILTER (WHERE id <= prev) OVER (PARTITION BY $sessions, ts) AS downs
			FROM (
				SELECT t.*, lag(id) OVER w AS prev, ${name}_timestamp(id) AS ts,
					   lag(${name}_timestamp(id)) OVER w AS prev_ts,
					   ${name}_sequence(id) AS seq, lag(${name}_sequence(id)) OVER w AS prev_seq
				FROM t WINDOW w AS (PARTITION BY $sessions ORDER BY n)
			) x
		) y});
	is($back, '0', "each session's IDs never go back in time");
	is($bad_down, '0',
		"each session's IDs rise, but where the sequence wrapped within a tick");
	cmp_ok($downs, '<=', 1, 'and a session saw the sequence wrap at most once a tick');
	return $count;
}


# A started node with the extension created and a fixed sno partition: a
# partition drawn at each start would keep IDs of different starts apart by
# itself and hide a lost or ignored state.  Options: conf, more lines for
# postgresql.conf; init, the arguments of init (extra => ['-g']); faked,
# true to start it under libfaketime (start_faked); coordinator, a
# conninfo: the node leases its identity from that coordinator
# (uid.coordinator) instead of having a fixed partition, and loads uid in
# every session (session_preload_libraries), as such a server must.
# PARALLEL SAFE wrappers of the generators, worker_TYPE_new(): the
# generators are PARALLEL RESTRICTED (issue 51), so a parallel plan calls
# them in its leader; these it calls in its workers, as it would a user's
# wrapper wrongly marked PARALLEL SAFE, for the tests of what the IDs that
# parallel workers make carry.
sub worker_generators_sql
{
	return join '', map {
		my ($type, $args, $call) = @$_;
		"CREATE FUNCTION worker_${type}_new($args) RETURNS $type LANGUAGE plpgsql "
		  . "VOLATILE PARALLEL SAFE AS \$\$BEGIN RETURN ${type}_new($call); END\$\$;";
	  } ([ 'sno', 'meta integer DEFAULT 0', 'meta' ], [ 'snowflake_si', '', '' ],
		[ 'revts8', '', '' ], [ 'uid60', '', '' ]);
}

sub uid_node
{
	my ($name, %o) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	my $identity =
	  defined $o{coordinator}
	  ? "session_preload_libraries = 'uid'\nuid.coordinator = '$o{coordinator}'"
	  : 'uid.partition = 7';

	$node->init(@{ $o{init} // [] });
	$node->append_conf('postgresql.conf',
		join("\n", $identity, @{ $o{conf} // [] }));
	if ($o{faked})
	{
		start_faked($node);
	}
	else
	{
		$node->start;
	}
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return $node;
}

# uid_node under libfaketime; extra lines go to postgresql.conf.
sub faked_node
{
	my ($name, @conf) = @_;
	return uid_node($name, faked => 1, conf => \@conf);
}

# The generator's state file in the node's data directory.
sub state_file
{
	my ($node) = @_;
	return $node->data_dir . '/uid_generator.state';
}

# The pid of the node's postmaster, from postmaster.pid.
sub postmaster_pid
{
	my ($node) = @_;
	open my $fh, '<', $node->data_dir . '/postmaster.pid'
	  or die "could not read postmaster.pid: $!";
	my $pm = <$fh>;
	close $fh;
	chomp $pm;
	return $pm;
}

# The owner written in a live state's object (src/state.c, UidLiveOwner, at
# byte 32 of UidStateLive, after the state's 4096 bytes): system
# identifier, data directory device and inode, postmaster pid and start,
# as a hash; none if the object cannot be read or is short.
sub live_owner
{
	my ($path) = @_;
	open(my $fh, '<:raw', $path) or return undef;
	seek($fh, 4096 + 32, 0) or return undef;
	read($fh, my $w, 40) == 40 or return undef;
	close $fh;
	my %o;
	@o{qw(system dev ino pid start)} = unpack('Q<Q<Q<q<q<', $w);
	return \%o;
}

# The objects of a place that belong to the data directory of $node, any
# life: the place is /dev/shm (dynamic_shared_memory_type = posix) or the
# data directory's pg_dynshmem (mmap, sysv).  Those of another data
# directory are told apart by the owner, whatever their names.
sub live_objects
{
	my ($node, $place) = @_;
	my @st = stat($node->data_dir) or die "could not stat the data directory: $!";
	my $dir = $place eq 'posix' ? '/dev/shm' : $node->data_dir . '/pg_dynshmem';
	return grep {
		my $o = live_owner($_);
		$o && $o->{dev} == $st[0] && $o->{ino} == $st[1]
	} glob("$dir/uid.*");
}

# The object that holds the running server's live state (src/state.c):
# /dev/shm/uid.<directory>.<life>, or pg_dynshmem/uid.<directory>.<life>
# in the data directory, whose owner is the node's postmaster.
sub live_state
{
	my ($node) = @_;
	my $pm = postmaster_pid($node);
	my @found = grep { live_owner($_)->{pid} == $pm }
	  (live_objects($node, 'posix'), live_objects($node, 'mmap'));
	die "no single shared state of postmaster $pm: @found" unless @found == 1;
	return $found[0];
}

# The type's row of uid_stats(), as a hash: issued, waits (overflow_waits),
# wait_us (overflow_wait_us), regressions (clock_regressions) and flips
# (tick_flips).
sub type_stats
{
	my ($node, $type) = @_;
	my %s;

	@s{qw(issued waits wait_us regressions flips)} = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT issued, overflow_waits, overflow_wait_us, clock_regressions,
			   tick_flips
		FROM uid_stats() WHERE type = '$type'});
	return \%s;
}

# Runs $n sessions that start generating at the same moment: each first
# queues behind an advisory lock that a session of ours holds, and all of
# them are let go at once.  $sql_of->($s) gives the commands of session s
# (1 .. $n).  Options: env_of, a function giving session s's extra
# environment as a hash ref (PGUSER, PGOPTIONS: who connects, and with
# what startup options); what, a prefix for the test names.  Returns the
# seconds from the release to the end of the last session.
sub run_released
{
	my ($node, $n, $sql_of, %o) = @_;
	my $what = defined $o{what} ? "$o{what} " : '';
	my $gate = $node->background_psql('postgres');

	$gate->query_safe('SELECT pg_advisory_lock(4242)');
	my @workers = map {
		local %ENV = (%ENV, %{ $o{env_of} ? $o{env_of}->($_) : {} });
		start_worker($node, 'SELECT pg_advisory_lock_shared(4242)',
			$sql_of->($_))
	} 1 .. $n;
	ok( $node->poll_query_until(
			'postgres',
			"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
			$n),
		$what . ($n == 2 ? 'both' : "all $n") . ' sessions wait at the barrier');
	my $started = time();
	$gate->query_safe('SELECT pg_advisory_unlock(4242)');
	$gate->quit;

	for my $s (1 .. $n)
	{
		my ($rc, $out, $err) = finish_worker($workers[ $s - 1 ]);
		is($rc, 0, "${what}session $s inserted its IDs") or diag $err;
	}
	return time() - $started;
}


# The helpers below test a type with a single timeline and millisecond
# ticks (snowflake_si, revts8), described by a hash:
#   name    the type; its generator is name_new(), its time name_timestamp()
#   seq     the accessor of its sequence within a millisecond
#   per_ms  how many IDs one millisecond holds
# clock_jump_test also takes a type with other ticks (uid60): then tick is
# their length in seconds and per_tick how many IDs one holds, and wraps
# => 1 says that its sequence is not reset each tick, so that it wraps
# within a tick and IDs of one tick sort by sequence, not by when they were
# made (see check_ids_wrap).
# Its IDs are in a table t (id, s int, n int, ...): s the session, n the
# ID's place in it.

# No ID is dated ahead of the server's clock: at real time the generator
# waited out full ticks instead of borrowing ahead.  Call it as soon as the
# IDs are made, before the clock moves on much.
sub check_not_ahead
{
	my ($node, $T) = @_;
	my $unit = ($T->{tick} // 0.001) == 1 ? 'seconds' : 'milliseconds';

	is( $node->safe_psql(
			'postgres',
			"SELECT $T->{name}_timestamp(id) <= clock_timestamp() FROM t ORDER BY id DESC LIMIT 1"
		),
		't',
		"no ID is dated ahead of the clock: full $unit were waited out");
	return;
}

# The capacity (guarantee 5): never more than per_ms IDs in one
# millisecond, from all the backends together, so $total IDs span at least
# $total / per_ms milliseconds; the sequence restarts at 0 each millisecond
# and runs on without a gap.  (With one generator id, distinct IDs of one
# millisecond have distinct sequences.)
sub check_capacity
{
	my ($node, $T, $total) = @_;
	my ($ms, $fullest, $bad_start, $gaps) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*), max(c),
			   count(*) FILTER (WHERE lo <> 0),
			   count(*) FILTER (WHERE hi <> c - 1)
		FROM (
			SELECT count(*) AS c, min($T->{seq}(id)) AS lo,
				   max($T->{seq}(id)) AS hi
			FROM t GROUP BY $T->{name}_timestamp(id)
		) x});

	note "$ms milliseconds used, the fullest has $fullest IDs";
	cmp_ok($fullest, '<=', $T->{per_ms},
		"at most $T->{per_ms} IDs in any millisecond");
	cmp_ok($ms, '>=', $total / $T->{per_ms},
		"the IDs span at least total / $T->{per_ms} milliseconds");
	is($bad_start, '0', "each millisecond's $T->{seq} starts at 0");
	is($gaps, '0', "each millisecond's $T->{seq} values have no gap");
	return;
}

# The sessions of t really overlapped: every session's first ID is below
# every session's last one.
sub check_overlap
{
	my ($node) = @_;

	is( $node->safe_psql(
			'postgres', q{
		WITH lo AS (SELECT DISTINCT ON (s) id FROM t ORDER BY s, id),
			 hi AS (SELECT DISTINCT ON (s) id FROM t ORDER BY s, id DESC)
		SELECT bool_and(lo.id < hi.id) FROM lo, hi}),
		't',
		'the sessions generated concurrently');
	return;
}


# The clock-regression test of a single-timeline type (doc/design.md, the
# regression policy of snowflake_si, revts8 and uid60), on a node made by faked_node.  Worker sessions
# generate committed batches, in phases between which the server's clock
# steps back 5 s, then an hour, then forward to real time again (the
# workers pause while a step reaches every backend); then the server
# restarts with its clock 20 s back.  The generator must hold at the
# high-water tick and, when its per_ms (per_tick) IDs are used up, borrow
# the next one at the pace of real time (a tick per tick, src/clock.c); it
# never goes back.  So: no duplicate, every session's IDs rise across every
# step and the restart (for a type that wraps, their time never goes back),
# no ID is dated back to the clock, none runs ahead of real time by more
# than a few ticks, generation never stalls, and the regressions are
# counted (guarantees 1, 3 and 4).
#
# What shows that used-up ticks were borrowed is counted, never timed (a
# busy machine must pass): with the clock behind, more IDs than one tick
# holds were dated ahead of the clock when they were made, which a
# generator that waited for the clock could not do (it has at most the
# rest of the mark's tick to give before the clock).  What shows the pace
# is a bound that a slow machine only makes easier: the IDs' dates stay
# within a few ticks of the real time they were made at, and, with the
# clock behind after the restart, three sessions asking for three seconds
# of the format's capacity at once get IDs that span no more than the
# real time they took and two ticks.  With outpaces => 1 it also notes how
# fast the server issued IDs while the clock was behind: a note, not a
# check.
#
# While the clock is behind, every ID the sessions ask for beyond the
# mark's tick is borrowed, at the pace of real time: workers that never
# stopped would keep uid60 at 1024 IDs a second for the whole phase, and
# before the pace they ran its mark minutes ahead of the clock.  So a worker
# commits a quota of batches in each phase after phase 0 and then waits for
# the next phase: what is borrowed does not depend on how long a phase
# lasts on the machine, and a phase with the clock behind stays short.
# The options: workers, per_batch (IDs a committed batch) and probe (IDs of
# the timed batch of each phase), and quota (batches, at least 2; default
# 50), which keep the volume small for uid60; and step, the first step back
# in seconds (default -5; phase 0
# lasts 1 - step seconds, so that the clock stepped back runs through time
# for which IDs were made).  The step is a few seconds, not one or two, so
# that the clock is still behind the IDs once the step has reached every
# backend (set_clock) and the phase has begun; where a busy machine took
# longer than that, the clock goes further back before the phase begins
# (step_phase's behind), and so for the restart (restart_behind).
#
# Returns how many IDs t holds.  The node is left running with its clock
# 20 s back (or further); the caller checks the type's own fields and
# stops it.
sub clock_jump_test
{
	my ($node, $T, %opt) = @_;
	my $step = $opt{step} // -5;
	my $c = start_generator($node, $T, quota => 50, %opt);
	my $workers = $c->{workers};
	my $tick = $c->{tick};
	my $unit = $c->{unit};
	my $started = $c->{started};

	# Phase 0: real time, for 1 - step seconds, so that the clock stepped
	# back runs through time for which IDs were made: a generator that
	# followed the clock back would make some of them again.
	ok(wait_for_phase($c, 0), 'phase 0: every worker generates');
	my ($base) = timed_batch($c, 0);
	note "phase 0 batch: $base s";
	my $phase0 = 1 - $step;
	usleep(1_000_000 * ($phase0 - (time() - $started)))
	  if time() - $started < $phase0;
	my $before = type_stats($node, $T->{name});
	is($before->{regressions}, '0',
		'phase 0: no clock regression while the clock is steady');

	# Phase 1: step back, into the time phase 0 covered.
	my ($hw1) = _high_water($c);
	my ($start1, $step1) = step_phase($c, 1, $step, behind => 1);
	ok(wait_for_phase($c, 1), 'phase 1: every worker keeps generating');
	my ($t1, $rate1) = timed_batch($c, 1);
	note sprintf('phase 1 batch: %s s; %.0f IDs/s from every session', $t1, $rate1);
	_kept_real_time($c, 1, $step1, $rate1);
	_dated_ahead($c, 1, 'phase 1', $step1);
	my $after = type_stats($node, $T->{name});
	cmp_ok($after->{regressions}, '>', $before->{regressions},
		'phase 1: the clock regression was counted');
	_held_at_high_water($c, 1, $hw1, $start1);

	# Phase 2: an hour back.  Hold at the high-water mark and borrow ahead;
	# never wait for a clock that is an hour away.
	my $step2 = time();
	my ($hw2) = _high_water($c);
	$before = type_stats($node, $T->{name});
	my $start2 = step_phase($c, 2, -3600);
	ok(wait_for_phase($c, 2), 'phase 2: every worker keeps generating');
	my ($t2, $rate2) = timed_batch($c, 2);
	note sprintf('phase 2 batch: %s s; %.0f IDs/s from every session', $t2, $rate2);
	_kept_real_time($c, 2, -3600, $rate2);
	_dated_ahead($c, 2, 'phase 2', -3600);
	$after = type_stats($node, $T->{name});
	cmp_ok($after->{regressions}, '>', $before->{regressions},
		'phase 2: the clock regression was counted');
	_held_at_high_water($c, 2, $hw2, $start2);
	is( _query(
			$c,
			"SELECT count(*) FROM t WHERE phase = 2 AND $T->{name}_timestamp(id) < to_timestamp($step2 - 60)"
		),
		'0',
		'phase 2: no ID is dated back to the clock, they hold at the high-water mark'
	);

	# Phase 3: back to real time.
	my ($hw3) = _high_water($c);
	step_phase($c, 3, '+0');
	my (undef, $ahead3) = _high_water($c);
	# While the clock was behind, nothing held generation to the format's
	# capacity: the mark may have run ahead of real time.
	note "phase 3: the last ID is $ahead3 s ahead of the clock";
	ok(wait_for_phase($c, 3), 'phase 3: every worker keeps generating');
	my ($t3) = timed_batch($c, 3);
	note "phase 3 batch: $t3 s";
	_above_high_water($c, 3, $hw3);

	stop_generator($c);

	# Guarantee 4 lets each call wait at most one tick, so a batch of probe
	# IDs never takes much longer than it did at real time in phase 0.  That
	# the used-up ticks were borrowed is counted above; this only catches a
	# stall of a step's length (an hour) and is 20 times phase 0's time and
	# half a minute more: a busy machine, or one that gets busy, passes.
	my $bound = 20 * $base + 30;
	for ([ 1, $t1 ], [ 2, $t2 ], [ 3, $t3 ])
	{
		my ($phase, $t) = @$_;
		cmp_ok($t, '<', $bound,
			"phase $phase: $c->{probe} IDs took ${t}s, no stall (phase 0: ${base}s)"
		);
	}

	# Once the clock has passed the high-water mark, IDs follow the clock
	# again (no offset is kept from the borrowing).
	my $past = $tick + 0.01;
	ok( $node->poll_query_until(
			'postgres', qq{
			SELECT clock_timestamp() > $T->{name}_timestamp(id) + interval '$past s'
			FROM t ORDER BY id DESC LIMIT 1}),
		'phase 3: the clock passes the high-water mark');
	is( _query(
			$c,
			"SELECT abs(extract(epoch FROM $T->{name}_timestamp($T->{name}_new()) - clock_timestamp())) < 0.5 + $tick"
		),
		't',
		'phase 3: a new ID is dated at the clock again');

	# Restart with the clock 20 s back: the high-water mark is in the state
	# file, so the new IDs continue above every earlier one, the last issued
	# before the stop included.  (20 s, so that the clock is still well
	# behind that ID after a slow restart, and further back after one
	# slower still.)
	my ($hw4) = _high_water($c);
	my $last = _query($c, "SELECT $T->{name}_new()");
	is( _query(
			$c,
			'SELECT ' . _not_below($c, "'$last'::$T->{name}", "'$hw4'::$T->{name}")),
		't', 'the last ID before the restart is the highest');
	my $regressions = type_stats($node, $T->{name})->{regressions};
	my $offset4 = restart_behind($node, -20, sub { (_high_water($c))[1] },
		5, 'restart');

	my @r = map {
		start_worker($node,
			"INSERT INTO t (id, s, n, phase) SELECT $T->{name}_new(), 200 + $_, g, 4 FROM generate_series(1, $c->{probe}) g"
		  )
	} 1 .. 2;
	for my $i (1 .. 2)
	{
		my ($rc, $out, $err) = finish_worker($r[ $i - 1 ]);
		is($rc, 0, "restart: session $i generated its IDs") or diag $err;
	}
	_held_at_high_water($c, 4, $last, $last, 'restart', 1);
	_dated_ahead($c, 4, 'restart');
	cmp_ok(type_stats($node, $T->{name})->{regressions},
		'>', $regressions, 'restart: the clock regression was counted');

	# The pace of borrowing, under a load above the capacity: with the clock
	# still 20 s behind the mark, three sessions let go at once ask for three
	# seconds of the format's IDs.  Borrowing a tick per tick of real time,
	# the IDs span no more than the real time the sessions took and two
	# ticks (the first borrow and the tick the sessions began in); a slow
	# machine only widens the bound.  A generator that borrowed as fast as
	# the sessions asked spans the three seconds in whatever time the
	# machine takes to make the IDs.
	my $each = int(3 * $c->{per_tick} / $tick / 3) + 1;
	# That the clock stays behind the mark is the precondition: sessions
	# slower than the gap the restart left (a busy machine) overtake it, and
	# then run again with the clock twice as far back, up to twice more.
	_query($c, "CREATE TABLE pace (id $T->{name} NOT NULL)");
	my ($took, $span, $n, $distinct, $behind);
	for my $try (0 .. 2)
	{
		if ($try > 0)
		{
			note 'pace: the clock caught up with the mark; '
			  . 'again with the clock twice as far back';
			$offset4 *= 2;
			set_clock($node, $offset4);
			_query($c, 'TRUNCATE pace');
		}
		$took = run_released(
			$node, 3,
			sub {
				"INSERT INTO pace SELECT $T->{name}_new() FROM generate_series(1, $each)";
			},
			what => 'pace:');
		($span, $n, $distinct, $behind) = split /\|/, _query(
			$c, qq{
			SELECT extract(epoch FROM max($T->{name}_timestamp(id)) - min($T->{name}_timestamp(id))),
				   count(*), count(DISTINCT id),
				   clock_timestamp() < min($T->{name}_timestamp(id))
			FROM pace});
		last if $behind eq 't';
	}
	is($distinct, $n, "pace: $n IDs, no duplicate");
	is($behind, 't', 'pace: the clock stayed behind the mark');
	cmp_ok($span, '<=', $took + 2 * $tick,
		sprintf('pace: three seconds of IDs span %s s, no more than the %.2f s they took and two %ss',
			$span, $took, $unit));

	# Over every phase and the restart.
	my $total =
	  $T->{wraps}
	  ? check_ids_wrap($node, $T->{name}, 's')
	  : check_ids_by($node, 's');
	is(_query($c, "SELECT count(DISTINCT phase) FROM t WHERE s <= $workers"),
		'4', 'the workers generated in every phase');
	cmp_ok(
		_query(
			$c,
			"SELECT max(c) FROM (SELECT count(*) AS c FROM t GROUP BY $T->{name}_timestamp(id)) x"
		),
		'<=',
		$c->{per_tick},
		"at most $c->{per_tick} IDs in any $unit, borrowed ones included");
	my $end = type_stats($node, $T->{name});
	is($end->{flips}, '0', "no tick flip: $T->{name} has one timeline");
	# The counters are in the state file too: they survived the restart.
	cmp_ok($end->{issued}, '>=', $total,
		'uid_stats counted the IDs of every phase and start');
	note 'uid_stats: ',
	  _query($c, "SELECT * FROM uid_stats() WHERE type = '$T->{name}'");
	return $total;
}

sub _query
{
	my ($c, $sql) = @_;
	return $c->{node}->safe_psql('postgres', $sql);
}

# SQL that is true when the ID $a is not below the ID $b (SQL expressions
# of the type) in the generator's order: above it, or for a type that
# wraps, dated at or after it.
sub _not_below
{
	my ($c, $a, $b) = @_;
	my $type = $c->{T}{name};

	return $c->{T}{wraps}
	  ? "${type}_timestamp($a) >= ${type}_timestamp($b)"
	  : "$a > $b";
}

# Worker sessions that generate IDs of the type $T->{name} into a table t
# in committed batches, in phases: the test moves the server's clock
# between phases with step_phase, which first stops every worker at a gate
# and lets them go once every backend has taken the step.  libfaketime
# moves each process on its own, a real step moves them all at once: a
# process re-reads the clock file at its first clock reading of each new
# second, so one that made no reading in the second before the file changed
# (a new session, a backend descheduled over it) takes the step up to a
# second before the others, and for that second the server runs on two
# clocks, which no server meets.  For sno, one such backend flipped to the
# other timeline, the others at the old time then moved that timeline up
# to the old mark, and the phase after the step back held at the mark
# instead of making IDs at the earlier time (seen once in 002 on 17; with
# a new session making an ID just after the file changed, 002 without the
# gate failed the same way).
#
# Options: workers (default 3), per_batch (IDs per committed batch, 200),
# probe (IDs of timed_batch, 20,000), quota (batches each worker commits in
# a phase after phase 0 before it waits for the next phase; undef: no
# limit), outpaces (clock_jump_test).  $T: name, and for clock_jump_test
# tick (seconds, default 0.001) and per_tick (or per_ms).  Returns the
# handle the other functions take, with the workers started in phase 0.
sub start_generator
{
	my ($node, $T, %opt) = @_;
	my $tick = $T->{tick} // 0.001;
	my $c = {
		node => $node,
		T => $T,
		tick => $tick,
		per_tick => $T->{per_tick} // $T->{per_ms},
		unit => $tick == 1 ? 'second' : 'millisecond',
		workers => $opt{workers} // 3,
		per_batch => $opt{per_batch} // 200,
		probe => $opt{probe} // 20_000,
		quota => $opt{quota},
		outpaces => $opt{outpaces},
	};

	_create_generator($c);
	check_clock_offset($node, 0, 'the server clock starts at real time');
	$c->{started} = time();
	$c->{w} = [ map { start_worker($node, "CALL gen($_, $c->{per_batch})") }
		  1 .. $c->{workers} ];
	return $c;
}

# Stops the workers (after phase 3 at the latest) and checks that each ran
# without an error.
sub stop_generator
{
	my ($c) = @_;

	_query($c, 'UPDATE ctl SET stop = true');
	_open_phase($c, 4);
	for my $i (1 .. $c->{workers})
	{
		my ($rc, $out, $err) = finish_worker($c->{w}[ $i - 1 ]);
		is($rc, 0, "worker $i ran through every step without an error")
		  or diag $err;
	}
	$c->{gate}->quit;
	return;
}

# t, and a procedure gen(sess, per) that generates committed batches of
# IDs until ctl says stop, each row tagged with the phase current when its
# batch began; at is the server's clock just after the row's ID was made
# (column defaults are computed after the inserted values).  (No pg_sleep
# between batches: it sleeps until a wall-clock time, so a clock stepped
# back an hour would hold it for an hour.)  Once a worker has committed
# ctl's quota of batches in a phase, it waits for the next phase on an
# advisory lock that a gate session of ours holds until then (a lock wait,
# unlike pg_sleep, does not read the clock); a quota of 0 stops every
# worker of the phase there.
sub _create_generator
{
	my ($c) = @_;
	my $type = $c->{T}{name};

	_query(
		$c, qq{
		CREATE TABLE t (id $type NOT NULL, s int NOT NULL, n int NOT NULL,
						phase int NOT NULL,
						at timestamptz NOT NULL DEFAULT clock_timestamp());
		CREATE UNIQUE INDEX t_id ON t (id);
		CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL, quota int);
		INSERT INTO ctl VALUES (0, false, NULL);

		CREATE PROCEDURE gen(sess int, per int) LANGUAGE plpgsql AS \$\$
		DECLARE
			i int := 0;
			ph int;
			st bool;
			q int;
			cur int := -1;
			done int := 0;
		BEGIN
			LOOP
				SELECT phase, stop, quota INTO ph, st, q FROM ctl;
				EXIT WHEN st;
				IF ph <> cur THEN
					cur := ph;
					done := 0;
				END IF;
				IF done >= q THEN
					PERFORM pg_advisory_lock_shared(4301 + ph);
					PERFORM pg_advisory_unlock_shared(4301 + ph);
					CONTINUE;
				END IF;
				INSERT INTO t (id, s, n, phase)
				SELECT ${type}_new(), sess, i * per + g, ph
				FROM generate_series(1, per) g;
				i := i + 1;
				done := done + 1;
				COMMIT;
			END LOOP;
		END \$\$;
	});
	$c->{gate} = $c->{node}->background_psql('postgres');
	$c->{gate}->query_safe(
		'SELECT pg_advisory_lock(k) FROM generate_series(4301, 4304) k');
	return;
}

# Lets the workers waiting for phase $phase (4: the stop) go on.
sub _open_phase
{
	my ($c, $phase) = @_;

	$c->{gate}->query_safe('SELECT pg_advisory_unlock(' . (4300 + $phase) . ')');
	return;
}

# Waits until every worker has committed two batches in the phase.
sub wait_for_phase
{
	my ($c, $phase) = @_;
	my $workers = $c->{workers};

	return poll_while_running(
		$c->{node}, qq{
		SELECT count(*) = $workers FROM (
			SELECT s FROM t WHERE phase = $phase AND s <= $workers
			GROUP BY s HAVING count(*) >= 2 * $c->{per_batch}
		) x}, $c->{w});
}

# A batch of probe IDs from a new session, timed from outside: it must
# complete (a psql that hangs for $PostgreSQL::Test::Utils::timeout_default
# seconds fails the test instead of hanging it).  Returns its seconds, and
# how many IDs a second the server issued to every session meanwhile (read
# from uid_stats around it, so over a slightly longer time than the
# batch's).
sub timed_batch
{
	my ($c, $phase) = @_;
	my $type = $c->{T}{name};
	my $s = 100 + $phase;
	my $from = time();
	my $issued = type_stats($c->{node}, $type)->{issued};
	my $start = time();

	$c->{node}->safe_psql('postgres',
		"INSERT INTO t (id, s, n, phase) SELECT ${type}_new(), $s, g, $phase FROM generate_series(1, $c->{probe}) g",
		timeout => $PostgreSQL::Test::Utils::timeout_default);
	my $t = time() - $start;
	$issued = type_stats($c->{node}, $type)->{issued} - $issued;
	return ($t, $issued / (time() - $from));
}

# The highest ID committed so far, and how far its time is ahead of the
# server's clock, in seconds.
sub _high_water
{
	my ($c) = @_;

	return split /\|/,
	  _query($c,
		"SELECT id, extract(epoch FROM $c->{T}{name}_timestamp(id) - clock_timestamp()) FROM t ORDER BY id DESC LIMIT 1"
	  );
}

# Moves the clock, checks that the server follows, and starts a phase.
# Returns the highest ID committed when the phase began (read in the
# statement that begins it).  First every worker stops at the gate of the
# phase it is in, after the batch it is in, and only then does the clock
# move: set_clock waits until the step has reached every backend (up to a
# second), and a worker that went on meanwhile would generate with the
# clock of its own (start_generator), or with the clock already behind
# borrow ahead without limit (uid60's mark would run minutes ahead of it).
sub step_phase
{
	my ($c, $phase, $offset, %opt) = @_;
	my $quota = $c->{quota} // 'NULL';

	_query($c, 'UPDATE ctl SET quota = 0');
	ok( poll_while_running(
			$c->{node}, qq{
			SELECT count(*) = $c->{workers} FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted}, $c->{w}),
		"phase $phase: every worker waits at the gate before the step");
	set_clock($c->{node}, $offset);
	check_clock_offset($c->{node}, $offset,
		"phase $phase: the server clock is $offset s off real time");
	_step_behind($c, $phase, \$offset, $opt{behind}) if defined $opt{behind};
	my $start = _query($c,
		"UPDATE ctl SET phase = $phase, quota = $quota RETURNING (SELECT id FROM t ORDER BY id DESC LIMIT 1)"
	);
	_open_phase($c, $phase);
	return wantarray ? ($start, $offset) : $start;
}

# The precondition of a step back ($behind in seconds): the last ID made
# is more than that ahead of the clock when the phase begins.  Between
# that ID and the step the workers stopped at the gate and set_clock
# waited for every backend: on a busy machine that can take longer than
# the step.  No worker generates until the phase opens, so the clock can
# still go further back: twice as far, up to three times, and only then
# does the precondition fail.  Updates the offset in force.
sub _step_behind
{
	my ($c, $phase, $offset, $behind) = @_;
	my (undef, $ahead) = _high_water($c);

	for (my $try = 1; $ahead <= $behind && $try <= 3; $try++)
	{
		note "phase $phase: the last ID is $ahead s ahead of the clock, "
		  . "not more than $behind; stepping twice as far back";
		$$offset *= 2;
		set_clock($c->{node}, $$offset);
		check_clock_offset($c->{node}, $$offset,
			"phase $phase: the server clock is $$offset s off real time");
		(undef, $ahead) = _high_water($c);
	}
	cmp_ok($ahead, '>', $behind,
		"phase $phase: the clock is behind the last ID made")
	  or diag "the last ID is $ahead s ahead of the clock";
	return;
}

# Every ID of a phase is above the highest ID made before it began (for a
# type that wraps: dated at or after it): the generator never went back.
sub _above_high_water
{
	my ($c, $phase, $hw, $what) = @_;

	$what //= "phase $phase";
	is( _query(
			$c,
			"SELECT count(*) FROM t WHERE phase = $phase AND NOT "
			  . _not_below($c, 'id', "'$hw'::$c->{T}{name}")),
		'0',
		"$what: every ID is "
		  . ($c->{T}{wraps} ? 'dated at or after' : 'above')
		  . ' every ID made before');
	return;
}

# With the clock behind, a phase's IDs are above every ID made before the
# step ($hw), and they start at the mark the phase began with ($start):
# not dated back to the clock, and not pushed ahead of the mark by more
# than the few batches in flight then can account for (a second holds
# 1000 * per_ms IDs; with ticks of a second, the mark's tick may fill up
# before the phase's first ID, which then is in the next one).  After a
# restart ($fenced) the first IDs are fenced past the lease, which runs
# up to a second past the last ID's tick (src/lease.c).
sub _held_at_high_water
{
	my ($c, $phase, $hw, $start, $what, $fenced) = @_;
	my $type = $c->{T}{name};
	my $slack = 1 + $c->{tick} + ($fenced ? 1 + $c->{tick} : 0);

	$what //= "phase $phase";
	_above_high_water($c, $phase, $hw, $what);
	is( _query(
			$c,
			"SELECT min(${type}_timestamp(id)) < ${type}_timestamp('$start') + interval '$slack s' FROM t WHERE phase = $phase"
		),
		't',
		"$what: the IDs went on from the high-water mark");
	return;
}

# While the clock is $offset s off real time, used-up ticks are borrowed
# at the pace of real time, so the phase's IDs keep about their real
# dates: none is dated more than four ticks and a tenth of a second after
# the real time just after it was made (its at, less the offset).  The
# mark began the phase at most a couple of ticks ahead of real time, and
# each borrow is at most a tick ahead of the one before it; a generator
# that borrowed as fast as the sessions asked ran revts8's mark 0.8 s
# ahead in phase 1.  With outpaces, $rate (the server's IDs a second
# around the timed batch) is noted beside the capacity.
sub _kept_real_time
{
	my ($c, $phase, $offset, $rate) = @_;
	my $type = $c->{T}{name};
	my $slack = 4 * $c->{tick} + 0.1;
	my $ahead = _query($c,
		"SELECT coalesce(max(extract(epoch FROM ${type}_timestamp(id) - (at - interval '$offset s'))), 0) FROM t WHERE phase = $phase"
	);

	cmp_ok($ahead, '<', $slack,
		"phase $phase: borrowed at the pace of real time, no ID dated more than $slack s after it was made"
	);
	note sprintf('phase %d: %.0f IDs/s; the capacity is %d/s; IDs were up to %.3f s ahead of real time',
		$phase, $rate, $c->{per_tick} / $c->{tick}, $ahead)
	  if $c->{outpaces};
	return;
}

# The phase's IDs that were dated ahead of the server's clock when they
# were made (their tick begins after the clock read just after them, at):
# more than per_tick of them.  With the clock behind the high-water mark, a
# generator that waited for the clock once the mark's tick was used up
# would date at most the rest of that tick ahead (fewer than per_tick
# IDs), then wait and date the others at the clock; one that borrows dates
# every ID ahead until the clock catches up, seconds later.  At real time
# no ID is ever dated ahead (check_not_ahead).
#
# That needs the clock to stay behind the mark while the phase's IDs are
# made, and on a busy machine the phase can outlast the step: the clock
# caught up (some IDs are dated at or before it) before more than per_tick
# were made.  Then the precondition did not hold, which says nothing of the
# generator, so it is made to hold: the clock (at $offset, the offset in
# force) goes back again to 8 s behind the mark, and one statement, which
# takes a second or two of borrowing at the pace of real time, makes
# 2 x per_tick + 1 more IDs of the phase; those must be dated ahead.
sub _dated_ahead
{
	my ($c, $phase, $what, $offset) = @_;
	my $type = $c->{T}{name};
	my ($ahead, $n, $caught) = split /\|/,
	  _query($c,
		"SELECT count(*) FILTER (WHERE ${type}_timestamp(id) > at), count(*), "
		  . "count(*) FILTER (WHERE ${type}_timestamp(id) <= at) FROM t WHERE phase = $phase"
	  );
	my $burst = '';

	if ($ahead <= $c->{per_tick} && $caught > 0 && defined $offset)
	{
		my (undef, $hw_ahead) = _high_water($c);
		my $back = $offset + ($hw_ahead < 8 ? $hw_ahead - 8 : 0);

		note "$what: the clock caught up with the mark before more than $c->{per_tick} IDs "
		  . "were made ($ahead dated ahead, $caught at or before the clock): "
		  . "clock to $back s and a burst of IDs";
		set_clock($c->{node}, $back);
		check_clock_offset($c->{node}, $back,
			"$what: the server clock is $back s off real time for the burst");
		my $s = 190 + $phase;
		$c->{node}->safe_psql('postgres',
			"INSERT INTO t (id, s, n, phase) SELECT ${type}_new(), $s, g, $phase "
			  . "FROM generate_series(1, " . (2 * $c->{per_tick} + 1) . ") g",
			timeout => $PostgreSQL::Test::Utils::timeout_default);
		($ahead, $n) = split /\|/,
		  _query($c,
			"SELECT count(*) FILTER (WHERE ${type}_timestamp(id) > at), count(*) "
			  . "FROM t WHERE phase = $phase AND s = $s");
		$burst = ' (of a burst made with the clock stepped back again)';
	}
	cmp_ok($ahead, '>', $c->{per_tick},
		"$what: more than a $c->{unit}'s $c->{per_tick} IDs dated ahead of the clock when made: "
		  . "used-up $c->{unit}s were borrowed, not waited out")
	  or diag "$ahead of the $n IDs of the phase$burst were dated ahead of the clock";
	note "$what: $ahead of $n IDs$burst were dated ahead of the clock when made";
	return;
}


# After $total IDs of a capacity-bound single-timeline type from sessions
# that asked for more than its capacity: the counters show the waits, and
# no call was mistaken for a clock regression or a tick flip.  Whether
# sessions that insert every ID into a table ask for more than a fast
# format's capacity depends on the machine's speed; with $burst, one
# session first asks for that many IDs in one statement that keeps none
# of them, many times faster than inserting them, so that the capacity is
# hit on a busy or slow machine too.
sub check_capacity_stats
{
	my ($node, $type, $total, $burst) = @_;

	if ($burst)
	{
		is( $node->safe_psql(
				'postgres',
				"SELECT count(DISTINCT id) FROM (SELECT ${type}_new() AS id FROM generate_series(1, $burst)) x"
			),
			$burst,
			"a burst of $burst IDs in one statement, all distinct");
		$total += $burst;
	}
	note 'uid_stats: ',
	  $node->safe_psql('postgres', "SELECT * FROM uid_stats() WHERE type = '$type'");
	my $stats = type_stats($node, $type);
	cmp_ok($stats->{issued}, '>=', $total, 'uid_stats counts the IDs issued');
	cmp_ok($stats->{waits}, '>', 0,
		'full ticks were waited out (overflow_waits)');
	cmp_ok($stats->{wait_us}, '>', 0, 'and the time waiting was counted');
	# A backend whose clock reading was overtaken by another backend's, or
	# that waited for the next tick, must not pass for a clock that went
	# back.
	is($stats->{regressions}, '0', 'no clock regression');
	is($stats->{flips}, '0', "no tick flip: $type has one timeline");
	return;
}


# The helpers below serve the tests in which a server takes over the IDs
# of every type that another one made (a restore, a rewind, an upgrade)
# and must make new ones that repeat none of them.  The IDs are in one
# table with a primary key per type, t_<type> (id, ph int), ph the phase
# in which a row was made.

# The ID types, in the order the tests go through them.
sub id_types
{
	return qw(sno muid snowflake_si revts8 uid60);
}

# Each type's generator call, as a hash: type => 'sno_new(META)', ...  (sno's
# metabyte $meta, default 0).
sub generator_calls
{
	my ($meta) = @_;
	return (
		sno => 'sno_new(' . ($meta // '') . ')',
		muid => 'muid_new()',
		snowflake_si => 'snowflake_si_new()',
		revts8 => 'revts8_new()',
		uid60 => 'uid60_new()');
}

# Each generator, called on its own (muid_txn is muid's other way in): a
# server that must not generate refuses every one.
sub id_generators
{
	return qw(sno_new muid_new muid_txn snowflake_si_new revts8_new uid60_new);
}

# The key that orders a type's IDs in the order they were made, and the
# operator by which a later ID is wrong when compared with an earlier one's
# key: the ID itself, not above; for uid60, whose sequence runs on within a
# second (it wraps), so that IDs of one second are not in the order they
# were made, its second, not earlier.
sub order_key
{
	my ($type) = @_;
	return $type eq 'uid60' ? ('uid60_timestamp(id)', '<') : ('id', '<=');
}

# Creates t_<type> for every type, ctl (phase, stop) and two procedures:
#  - gen(typ, per, batches, pause): committed batches of per IDs of one
#    type, tagged with the phase current when the batch began, until ctl
#    says stop or, when batches is not null, that many batches are done;
#    pause seconds between batches (only on a server whose clock is not
#    moved: pg_sleep sleeps until a wall-clock time);
#  - ins(typ, n, p): n new IDs of one type in phase p, each inserted in its
#    own transaction (muid takes one timestamp a transaction, so each is a
#    fresh timestamp that may meet one made before); a duplicate-key error
#    is counted in dups (and the first duplicate kept in first_dup) instead
#    of ending the run; any other error ends it.
sub create_id_tables
{
	my ($node) = @_;
	my $ddl = join '',
	  map { "CREATE TABLE t_$_ (id $_ PRIMARY KEY, ph int NOT NULL);\n" }
	  id_types();

	$node->safe_psql(
		'postgres', qq{
		$ddl
		CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL);
		INSERT INTO ctl VALUES (0, false);

		CREATE PROCEDURE gen(typ text, per int, batches int, pause float8)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			i int := 0;
			p int;
			st bool;
		BEGIN
			LOOP
				SELECT phase, stop INTO p, st FROM ctl;
				EXIT WHEN st OR (batches IS NOT NULL AND i >= batches);
				EXECUTE format(
					'INSERT INTO %I (id, ph) SELECT %I(), \$1 FROM generate_series(1, \$2)',
					't_' || typ, typ || '_new') USING p, per;
				i := i + 1;
				COMMIT;
				PERFORM pg_sleep(pause);
			END LOOP;
		END \$\$;

		CREATE PROCEDURE ins(typ text, n int, p int,
							 INOUT dups int DEFAULT 0, INOUT first_dup text DEFAULT NULL)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			v text;
		BEGIN
			FOR i IN 1 .. n LOOP
				EXECUTE format('SELECT %I()::text', typ || '_new') INTO v;
				BEGIN
					EXECUTE format('INSERT INTO %I (id, ph) VALUES (\$1::%I, \$2)',
								   't_' || typ, typ) USING v, p;
				EXCEPTION WHEN unique_violation THEN
					dups := dups + 1;
					first_dup := coalesce(first_dup, v);
				END;
				COMMIT;
			END LOOP;
		END \$\$;
	});
	return;
}

# How many rows of each type, as "type=count ...".
sub row_counts
{
	my ($node) = @_;
	return join ' ', map {
		"$_=" . $node->safe_psql('postgres', "SELECT count(*) FROM t_$_")
	} id_types();
}

# The time of the latest ID in the tables (any type), as a timestamptz.
sub latest_id_time
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		'SELECT greatest('
		  . join(', ',
			map { "(SELECT max(${_}_timestamp(id)) FROM t_$_)" } id_types())
		  . ')');
}

# The clock is where the test put it ($offset s off real time), and behind
# the latest ID the server took over: a generator that followed the clock,
# or the high-water mark of a stale or a fresh state file, would make IDs
# again where IDs already are, or below them.  $latest is that ID's time
# (default: latest_id_time), $of what the test names call it (default: the
# latest ID there).
sub check_clock_behind
{
	my ($node, $what, $offset, $latest, $of) = @_;
	$of //= 'the latest ID there';

	check_clock_offset($node, $offset,
		"$what: the server clock is "
		  . ($offset == 0 ? 'at real time' : "$offset s off real time"));
	$latest //= latest_id_time($node);
	is($node->safe_psql('postgres', "SELECT clock_timestamp() < '$latest'"),
		't', "$what: the clock is behind $of")
	  or diag "$of is dated $latest";
	return;
}

# The IDs of type $type made in phase $phase against those that were there
# before them: the rows for which $old holds (an SQL condition on ph;
# default: another phase).  Returns a hash: n, how many new ones; behind,
# how many of them do not sort after every earlier one (order_key); new_min
# and old_max, the lowest new and the highest earlier key; gap, the seconds
# from the latest earlier ID's time to the earliest new one's.
sub new_ids_behind
{
	my ($node, $type, $phase, $old, $since) = @_;
	my ($key, $op) = order_key($type);
	my $from = defined $since ? "'$since'::timestamptz" : 'min(old.ts)';
	my %r;

	$old //= "ph <> $phase";
	@r{qw(n behind new_min old_max gap)} = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		WITH old AS (SELECT max($key) AS m, max(${type}_timestamp(id)) AS ts
					 FROM t_$type WHERE $old)
		SELECT count(*), count(*) FILTER (WHERE $key $op old.m), min($key), min(old.m),
			   extract(epoch FROM min(${type}_timestamp(id)) - $from)
		FROM t_$type, old WHERE ph = $phase});
	return \%r;
}

# Makes new IDs of each type with ins, in phase $phase, on a node that took
# over IDs made before: no duplicate-key error, and each sorts after every
# earlier one (uid60: dated no earlier than the latest).  Options: n, how
# many of each type; old, which rows are the earlier ones (as for
# new_ids_behind); gap, when given: the first new IDs continue from the
# earlier ones, dated less than gap seconds after the latest of the type, or
# with since (a time), after that: the server's latest ID of any type (a
# fence moves IDs at most a lease past the server's last one, whatever its
# type, not far ahead; a type made seconds before the others is moved past
# those too); old_words, true
# when the test names call the earlier IDs old (those of a server upgraded
# from) rather than the IDs there.
sub check_new_ids
{
	my ($node, $what, $phase, %o) = @_;
	my $n = $o{n};
	my ($every, $latest, $highest) =
	  $o{old_words}
	  ? ('every old one', 'the latest old one', 'the highest old')
	  : ('every ID there', 'the latest one there', 'the highest before');
	my $of = defined $o{since} ? "$o{since}, the latest ID of any type" : $latest;

	for my $type (id_types())
	{
		my ($dups, $first) = split /\|/,
		  $node->safe_psql('postgres', "CALL ins('$type', $n, $phase)");
		is($dups, '0', "$what: $type: no duplicate-key error among $n new IDs")
		  or diag "$dups inserts failed with a duplicate key; the first duplicate: $first";

		my $r = new_ids_behind($node, $type, $phase, $o{old}, $o{since});
		# A rejected duplicate does not sort after the earlier ones either.
		my $behind = $r->{behind} + $dups;
		is($behind, 0,
			$type eq 'uid60'
			? "$what: uid60: no new ID is dated before $latest"
			: "$what: $type: every new ID sorts after $every")
		  or diag "$behind of $n new IDs do not; the lowest new: $r->{new_min}, "
		  . "$highest: $r->{old_max}";
		next unless defined $o{gap};
		cmp_ok($r->{gap}, '<', $o{gap},
			"$what: $type: the new IDs continue from the old ones, not far ahead")
		  or diag "the lowest new ID is dated $r->{gap} s after $of";
		note "$what: $type: the lowest new ID is dated $r->{gap} s after $of";
	}
	return;
}


# The helpers below serve the tests of servers that lease their identity
# from a coordinator (uid.coordinator, src/pool.sql).

# A coordinator: a started node with the extension created, @conf more
# lines for its postgresql.conf.  Returns the node and the conninfo by
# which servers reach it (for uid.coordinator, or uid_node's coordinator).
# fsync is on, as a coordinator needs (the pool refuses claims without it;
# PostgreSQL::Test::Cluster turns it off).
sub coordinator_node
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init;
	$node->append_conf('postgresql.conf', join("\n", 'fsync = on', @conf));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return ($node,
		'host=' . $node->host . ' port=' . $node->port . ' dbname=postgres');
}

# The lease id that an ID of type $type carries, as an SQL expression of
# id: revts8 has the id's low 6 bits in its generator and the rest in its
# cluster.
sub carried_lease_id
{
	my ($type) = @_;
	my %carried = (
		sno => 'sno_partition(id)',
		muid => 'muid_medallion(id)',
		snowflake_si => 'snowflake_si_machine(id)',
		revts8 => 'revts8_generator(id) + 64 * revts8_cluster(id)',
		uid60 => 'uid60_worker(id)');

	return $carried{$type};
}

# Reloads $node and returns once the postmaster has read the files (a new
# session then shows another pg_conf_load_time()).  pg_ctl reload and
# pg_reload_conf() only signal the postmaster, which reads the files in its
# own time: an edit made before it gets to them is part of that reload, so
# a test that edits again after a reload waits here first.
sub reload_applied
{
	my ($node) = @_;
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');

	$node->reload;
	return poll_until(
		'the postmaster to take the reload',
		sub {
			$node->safe_psql('postgres', 'SELECT pg_conf_load_time()') ne $before;
		});
}

# Sets uid settings of $node in postgresql.conf (later lines win) and
# reloads, then waits until a new session has them all: the postmaster
# takes a reload in its own time, and sessions started before it take it
# between statements (sno's ranges also in the middle of one).  Values are
# compared as SHOW prints them.
sub reload_with
{
	my ($node, %set) = @_;

	$node->append_conf('postgresql.conf',
		join("\n", map { "$_ = '$set{$_}'" } sort keys %set));
	$node->reload;
	my $want = join '|', map { $set{$_} } sort keys %set;
	my $show = join ' || \'|\' || ',
	  map { "current_setting('$_')" } sort keys %set;
	return poll_until(
		"the reload of " . join(', ', sort keys %set),
		sub {
			$node->safe_psql('postgres',
				"SELECT count(*) FROM uid_config(); SELECT $show") =~ /\n\Q$want\E$/;
		});
}

# A psql session that LISTENs on $channel of $node, then waits (for a lock
# on table uid_listen_gate that a session of ours holds: no clock reading,
# so a frozen clock is no matter, and no advisory lock, which run_released
# counts) until sno_notifications lets it go; the notifications it received
# then come out with its output.  Returns once it is listening.
sub sno_listener
{
	my ($node, $channel) = @_;

	$node->safe_psql('postgres', 'CREATE TABLE IF NOT EXISTS uid_listen_gate ()');
	my $gate = $node->background_psql('postgres');
	$gate->query_safe('BEGIN');
	$gate->query_safe('LOCK TABLE uid_listen_gate IN ACCESS EXCLUSIVE MODE');
	my $l = start_worker($node, "LISTEN $channel",
		"SELECT 'listening', count(*) FROM uid_listen_gate", "SELECT 'done'");
	poll_until(
		'the listener to listen',
		sub {
			$node->safe_psql('postgres',
				q{SELECT count(*) FROM pg_stat_activity
				  WHERE query LIKE 'SELECT ''listening''%' AND wait_event_type = 'Lock'})
			  eq '1';
		}) or die "the listener did not start: $l->{stderr}";
	$l->{gate} = $gate;
	return $l;
}

# Lets a listener of sno_listener end; returns the payloads it received on
# $channel, decoded from JSON, in the order they came.
sub sno_notifications
{
	my ($l, $channel) = @_;

	$l->{gate}->query_safe('COMMIT');
	$l->{gate}->quit;
	my ($rc, $out, $err) = finish_worker($l);
	my @n;

	die "the listener failed: $err" if $rc != 0;
	require JSON::PP;
	for my $line (split /\n/, $out)
	{
		next
		  unless $line =~
		  /^Asynchronous notification "\Q$channel\E" with payload "(.*)" received from server process with PID \d+\.$/;
		push @n, JSON::PP::decode_json($1);
	}
	return @n;
}

# SQL that makes probe(): one sno and one snowflake_si, as
# 'partition/machine', or the error as 'SQLSTATE: message' (an error would
# end a background psql).  TAP 035 and 036.
sub probe_sql
{
	return q{
	CREATE FUNCTION probe() RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		s sno;
		f snowflake_si;
	BEGIN
		s := sno_new();
		f := snowflake_si_new();
		RETURN sno_partition(s) || '/' || snowflake_si_machine(f);
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$;
};
}

# The helpers below leave no background worker slot free, so that no uid
# settings worker can start (TAP 036 does the same by hand, 039): a server
# with three slots (slot_conf, for its postgresql.conf; the logical
# replication launcher takes none), and a query whose three parallel
# workers sleep, holding them all.

sub slot_conf
{
	return ('max_worker_processes = 3', 'max_parallel_workers = 3',
		'max_logical_replication_workers = 0');
}

# Makes on $node the table and the function the holding query needs.
sub create_slot_holder
{
	my ($node) = @_;
	$node->safe_psql(
		'postgres', q{
		CREATE TABLE big AS SELECT g FROM generate_series(1, 10000) g;
		ALTER TABLE big SET (parallel_workers = 3);
		ANALYZE big;
		-- each parallel worker sleeps at its first row, holding its slot
		CREATE FUNCTION hold(int) RETURNS bool LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
		BEGIN
			PERFORM pg_sleep(600);
			RETURN true;
		END $$;
	});
	return;
}

my $parallel_workers =
  q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'parallel worker'};

# Starts the holding query; returns its worker once its parallel workers
# hold every slot.
sub take_slots
{
	my ($node) = @_;
	my $h = start_worker(
		$node,
		'SET max_parallel_workers_per_gather = 3',
		'SET parallel_setup_cost = 0',
		'SET parallel_tuple_cost = 0',
		'SET min_parallel_table_scan_size = 0',
		'SET parallel_leader_participation = off',
		'SELECT count(*) FROM big WHERE hold(g)');
	poll_until('three parallel workers holding the slots',
		sub { $node->safe_psql('postgres', $parallel_workers) eq '3' });
	return $h;
}

# Cancels the holding query $h; returns once its workers are gone.
sub free_slots
{
	my ($node, $h) = @_;
	$node->safe_psql(
		'postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query LIKE '%hold(g)%' AND backend_type = 'client backend'
		  AND pid <> pg_backend_pid()});
	my (undef, undef, $err) = finish_worker($h);
	like($err, qr/canceling statement/, 'the holding query was canceled');
	poll_until('the parallel workers to exit',
		sub { $node->safe_psql('postgres', $parallel_workers) eq '0' });
	return;
}

# Gives the settings record's writer word to the living process $pid of
# $node's server life, as a uid settings worker stopped mid-publication
# holds it (TAP 036 does the same by hand, 039): no worker publishes until
# that process is gone.  Written in the running server's shared state (the
# state file is read at the start only): the word at offset 1592, the
# server life in the body in force (the bodies at 1616, 136 bytes each, the
# sequence word at 1584 naming the one in force; pinned in src/state.c).
sub hold_record_writer
{
	my ($node, $pid) = @_;

	open(my $fh, '+<:raw', live_state($node)) or die "could not open the shared state: $!";
	seek($fh, 1584, 0) or die;
	read($fh, my $cur, 8) == 8 or die;
	seek($fh, 1616 + (unpack('Q<', $cur) & 1) * 136 + 8, 0) or die;
	read($fh, my $life, 8) == 8 or die;
	seek($fh, 1592, 0) or die;
	print $fh pack('Q<', ((unpack('Q<', $life) >> 32) << 32) | $pid);
	close $fh or die;
	return;
}

# A server's shared state outlives it (src/state.c: the next start of the
# same data directory removes it); a test's data directories do not, so
# at the end the objects in /dev/shm whose postmaster is gone are removed.
# This test's servers are stopped first, each object of theirs removed once
# its postmaster has exited (pg_ctl returns when postmaster.pid is gone,
# which is a moment before the process).
END
{
	my $exit_code = $?;
	my %ours;

	for my $node (@PostgreSQL::Test::Cluster::all_nodes)
	{
		$node->teardown_node;
		my @st = stat($node->data_dir) or next;
		$ours{"$st[0]:$st[1]"} = 1;
	}
	for my $f (glob('/dev/shm/uid.*'))
	{
		next unless $f =~ m{^/dev/shm/uid\.[0-9a-f]{12}\.[0-9a-f]{12}$};
		my $o = live_owner($f);
		next unless $o && $o->{pid} > 0;
		my $until = time() + 10;
		usleep(10_000)
		  while $ours{"$o->{dev}:$o->{ino}"} && kill(0, $o->{pid}) && time() < $until;
		unlink $f if !kill(0, $o->{pid}) && $!{ESRCH};
	}
	$? = $exit_code;
}

1;
