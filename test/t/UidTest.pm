# Helpers shared by uid's TAP tests: background psql workers and a server
# clock that the test can step with libfaketime.

package UidTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

our @EXPORT = qw(faketime_lib start_faked set_clock server_clock_offset
  start_worker finish_worker poll_while_running check_ids check_ids_by
  faked_node);

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

# Sets the offset of the server's clock from real time: a libfaketime
# relative offset in seconds ("-2", "-3600", "+0").  Written to a new file
# and renamed over the old one, so that a backend reading it mid-write
# never sees an empty or partial file.
sub set_clock
{
	my ($node, $offset) = @_;
	my $file = clock_file($node);

	open my $fh, '>', "$file.tmp" or die "could not write $file.tmp: $!";
	print $fh "$offset\n";
	close $fh or die "could not close $file.tmp: $!";
	rename "$file.tmp", $file or die "could not rename to $file: $!";
	return;
}

# Starts the node under libfaketime with the offset now in its clock file
# (+0 if none was set).  Every backend re-reads the file on each clock
# read (FAKETIME_NO_CACHE), so set_clock moves all of them at once.  Only
# CLOCK_REALTIME moves, as in an NTP step: a monotonic clock that jumped
# would stretch the server's own timeouts.
sub start_faked
{
	my ($node) = @_;

	set_clock($node, '+0') unless -e clock_file($node);
	local $ENV{LD_PRELOAD} = faketime_lib();
	local $ENV{FAKETIME_TIMESTAMP_FILE} = clock_file($node);
	local $ENV{FAKETIME_NO_CACHE} = '1';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$node->start;
	return;
}

# The server's clock minus the real clock, in seconds (to about the cost of
# one psql call).
sub server_clock_offset
{
	my ($node) = @_;
	my $before = time();
	my $server = $node->safe_psql('postgres',
		'SELECT extract(epoch FROM clock_timestamp())');
	my $after = time();
	return $server - ($before + $after) / 2;
}

# Starts psql running the given commands (each its own -c, so each is its
# own transaction) without waiting for it.
sub start_worker
{
	my ($node, @sql) = @_;
	my %w = (stdout => '', stderr => '');
	my @cmd = ('psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres'));

	push @cmd, map { ('-c', $_) } @sql;
	$w{h} = IPC::Run::start(\@cmd, '<', \undef, '>', \$w{stdout},
		'2>', \$w{stderr},
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
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


# A node under libfaketime with the extension created and a fixed sno
# partition: a partition drawn at each start would keep IDs of different
# starts apart by itself and hide a lost or ignored state.  Extra lines go
# to postgresql.conf.
sub faked_node
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init;
	$node->append_conf('postgresql.conf', join("\n", 'uid.partition = 7', @conf));
	start_faked($node);
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return $node;
}

1;
