# test/t/UidTest/Session.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): psql sessions beside the test's
# own (background workers, sessions released together, a listener), polls
# that give up when a worker died or time ran out, an attempt that reads the
# error it met, and reloads waited for.

package UidTest::Session;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

our @EXPORT = qw(start_worker finish_worker poll_while_running poll_until
  wait_for_primary attempt run_released reload_applied reload_with
  sno_listener sno_notifications);

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

# Runs $n sessions that start generating at the same moment: each first
# queues behind an advisory lock that a session of ours holds, and all of
# them are let go at once.  $sql_of->($s) gives the commands of session s
# (1 .. $n): a string, or an array of parts; then every session waits,
# after each part, until all have done it (another lock), so that the
# sessions overlap by construction, however the machine schedules them:
# each one's first part comes before every one's last.  Options: env_of,
# a function giving session s's extra environment as a hash ref (PGUSER,
# PGOPTIONS: who connects, and with what startup options); what, a prefix
# for the test names.  Returns the seconds from the release to the end of
# the last session.
sub run_released
{
	my ($node, $n, $sql_of, %o) = @_;
	my $what = defined $o{what} ? "$o{what} " : '';
	my $gate = $node->background_psql('postgres');
	my @parts = map { my $x = $sql_of->($_); ref $x ? $x : [$x] } 1 .. $n;
	my $stages = 0;

	$stages = @$_ > $stages ? scalar @$_ : $stages for @parts;
	$gate->query_safe("SELECT pg_advisory_lock(4242 + $_)") for 0 .. $stages - 1;
	my @workers = map {
		my $s = $_;
		local %ENV = (%ENV, %{ $o{env_of} ? $o{env_of}->($s) : {} });
		start_worker($node,
			map { ("SELECT pg_advisory_lock_shared(4242 + $_)", $parts[ $s - 1 ][$_] // 'SELECT') }
			  0 .. $stages - 1)
	} 1 .. $n;
	my $started;
	for my $k (0 .. $stages - 1)
	{
		ok( $node->poll_query_until(
				'postgres',
				"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242 + $k AND NOT granted",
				$n),
			$what
			  . ($n == 2 ? 'both' : "all $n")
			  . ' sessions wait at the barrier'
			  . ($k ? " after part $k" : ''));
		$started //= time();
		$gate->query_safe("SELECT pg_advisory_unlock(4242 + $k)");
	}
	$gate->quit;

	for my $s (1 .. $n)
	{
		my ($rc, $out, $err) = finish_worker($workers[ $s - 1 ]);
		is($rc, 0, "${what}session $s inserted its IDs") or diag $err;
	}
	return time() - $started;
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

1;
