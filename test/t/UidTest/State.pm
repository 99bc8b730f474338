# test/t/UidTest/State.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): where a node keeps its generator's
# state (the state file, the live state in shared memory and its owner),
# and, at the end of a test, the removal of the live state of its servers
# that are gone.

package UidTest::State;

use strict;
use warnings;

use Exporter 'import';
use Time::HiRes qw(time usleep);

our @EXPORT = qw(state_file postmaster_pid live_objects live_state);

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
