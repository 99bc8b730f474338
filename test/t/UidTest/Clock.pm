# test/t/UidTest/Clock.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): a server clock that the test steps
# with libfaketime, and restarts with the clock set back.

package UidTest::Clock;

use strict;
use warnings;

use Exporter 'import';
use Test::More;
use Time::HiRes qw(time usleep);

our @EXPORT = qw(faketime_lib start_faked set_clock server_clock_offset
  check_clock_offset restart_faked restart_behind);

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

1;
