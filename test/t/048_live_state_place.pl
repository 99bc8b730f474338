# Where the live state lives (src/state.c, uid_live_posix): where
# PostgreSQL keeps its own dynamic shared memory.  With
# dynamic_shared_memory_type = mmap or sysv (what initdb picks where
# /dev/shm is not writable), a file in the data directory's pg_dynshmem,
# which a restart replaces and pg_basebackup does not copy; with posix, a
# POSIX shared memory object of at most 31 characters, and where that
# cannot be made, every generator refuses with the cause and the fix while
# the server runs on.

use strict;
use warnings;

use File::Basename;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my %calls = generator_calls(1);

sub issued
{
	my ($node, $type) = @_;
	return $node->safe_psql('postgres',
		"SELECT issued FROM uid_stats() WHERE type = '$type'");
}

# What a backend maps of uid's live state (Linux's /proc/PID/maps): the
# paths of its mappings named uid.*, whatever their layout.
sub mapped_by
{
	my ($pid) = @_;
	my %paths;
	open my $fh, '<', "/proc/$pid/maps" or die "could not read /proc/$pid/maps: $!";
	while (my $line = <$fh>)
	{
		$paths{$1} = 1 if $line =~ m{\s(/\S*/uid\.[0-9a-f]+\.[-.0-9a-f]+)(?: \(deleted\))?$};
	}
	close $fh;
	return sort keys %paths;
}

# IDs of every type from three sessions at once: none twice, and the
# server's counters count every one, so the sessions share one state.
# Returns the path of the object all three map ('' unless one and the
# same).
sub generate_from_sessions
{
	my ($node, $what) = @_;
	my @sessions = map { $node->background_psql('postgres') } 1 .. 3;

	for my $type (id_types())
	{
		my $before = issued($node, $type);
		my %seen;
		my $made = 0;
		for my $round (1 .. 2)
		{
			for my $s (@sessions)
			{
				$seen{$_}++ for split /\n/,
				  $s->query_safe("SELECT $calls{$type} FROM generate_series(1, 10)");
				$made += 10;
			}
		}
		is(scalar(keys %seen), $made, "$what: $made ${type}s from three sessions, none twice");
		is(issued($node, $type), $before + $made, "$what: one state counts every $type");
	}
	my %mapped;
	$mapped{$_}++
	  for map { mapped_by($_->query_safe('SELECT pg_backend_pid()')) } @sessions;
	is(join(' ', values %mapped), '3', "$what: the three sessions map one object")
	  or diag explain \%mapped;
	$_->quit for @sessions;
	return keys %mapped == 1 ? (keys %mapped)[0] : '';
}

# The object $mapped that the sessions map is the node's live state: in the
# place named (posix: /dev/shm; mmap: pg_dynshmem), named
# uid.<data directory>.<life>, its owner the node's postmaster; and no
# object of its data directory is in the other place.
sub check_place
{
	my ($node, $place, $what, $mapped) = @_;
	my $dir = $place eq 'posix' ? '/dev/shm' : $node->data_dir . '/pg_dynshmem';
	my @other = live_objects($node, $place eq 'posix' ? 'mmap' : 'posix');

	is(dirname($mapped), $dir, "$what: the live state is an object in $dir");
	like(basename($mapped), qr/^uid\.[0-9a-f]{12}\.[0-9a-f]{12}$/,
		"$what: named uid.<data directory>.<life>");
	is(eval { live_state($node) } // 'none', $mapped, "$what: its owner is this postmaster");
	is(scalar @other, 0, "$what: nothing of this server's is in the other place")
	  or diag "found: @other";
	return $mapped;
}

sub dsm_node
{
	my ($name, $type, @init) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init(@init);
	$node->append_conf('postgresql.conf',
		"uid.partition = 7\ndynamic_shared_memory_type = $type");
	return $node;
}

# 1. mmap: a file in pg_dynshmem; a restart replaces it; a base backup
# does not carry it.
my $mmap = dsm_node('mmap', 'mmap', allows_streaming => 1);
$mmap->start;
$mmap->safe_psql('postgres', 'CREATE EXTENSION uid');
my $first = check_place($mmap, 'mmap', 'mmap', generate_from_sessions($mmap, 'mmap'));

$mmap->backup('base');
my $copied = $mmap->backup_dir . '/base/pg_dynshmem';
ok(-d $copied, 'mmap: the base backup has pg_dynshmem');
ok($first ne '' && -e $first, 'mmap: the file was there while pg_basebackup ran');
is(join(' ', glob("$copied/*")), '', 'mmap: pg_basebackup copied none of its files');

# Beside it, with its prefix: a copy of it as an earlier life of this
# data directory left it (another postmaster pid), and one of another data
# directory whose hash is the same (another system identifier).  A start
# removes the first only.
my ($earlier, $foreign) =
  map { $mmap->data_dir . '/pg_dynshmem/' . substr(basename($first), 0, 17) . $_ }
  '000000000001', '000000000002';
for ([ $earlier, 24, 1 ], [ $foreign, 0, 12345 ])
{
	last if $first eq '';
	my ($path, $at, $value) = @$_;
	my $img = slurp_file($first);
	substr($img, 4096 + 32 + $at, 8) = pack('q<', $value);
	open my $fh, '>:raw', $path or die "could not write $path: $!";
	print $fh $img;
	close $fh or die;
}

$mmap->restart;
my $second = check_place($mmap, 'mmap', 'mmap, restarted',
	generate_from_sessions($mmap, 'mmap, restarted'));
isnt($second, $first, 'mmap, restarted: a new life has a new file');
ok($first ne '' && !-e $first, "mmap, restarted: the old life's file is removed");
ok($first ne '' && !-e $earlier, "mmap, restarted: another earlier life's file is removed");
ok(-e $foreign, "mmap, restarted: another data directory's file of the same prefix stays");
$mmap->stop;

# 2. sysv: the file in pg_dynshmem too (a System V segment has no name).
my $sysv = dsm_node('sysv', 'sysv');
$sysv->start;
$sysv->safe_psql('postgres', 'CREATE EXTENSION uid');
my $sysv_obj = check_place($sysv, 'mmap', 'sysv', generate_from_sessions($sysv, 'sysv'));

# Its name is a hash: a backend that finds another server's owner in the
# object at its name refuses it (here the owner's postmaster pid, at byte 24
# of the owner, is changed in place), and maps it again once it is its own.
sub poke_owner_pid
{
	my ($path, $pid) = @_;
	open(my $fh, '+<:raw', $path) or die "could not open $path: $!";
	seek($fh, 4096 + 32 + 24, 0) or die;
	read($fh, my $old, 8) == 8 or die;
	seek($fh, 4096 + 32 + 24, 0) or die;
	print $fh pack('q<', $pid);
	close $fh or die;
	return unpack('q<', $old);
}
my $own = poke_owner_pid($sysv_obj, 1);
my ($rc, $out, $err) = $sysv->psql('postgres', 'SELECT sno_new(1)');
like($err,
	qr{ERROR:  shared memory segment "\Q$sysv_obj\E" belongs to another server\n.*DETAIL:  It holds the uid state of postmaster 1 of database system \d+, and this server's postmaster is $own of database system \d+\.}s,
	'sysv: an object of another owner at its name is refused');
poke_owner_pid($sysv_obj, $own);
is(scalar $sysv->psql('postgres', 'SELECT sno_new(1)'), 0,
	'sysv: its own again, it is mapped');
$sysv->stop;

# 3. posix where shm_open() is refused (as where /dev/shm is not writable):
# a shim preloaded in the server fails it with EACCES for uid's names while
# the file $deny exists.  PostgreSQL's own segments are not uid's.
my $cc = $ENV{CC} // 'cc';
my $shim = PostgreSQL::Test::Utils::tempdir() . '/shm_deny';
my $deny = "$shim.on";
open my $src, '>', "$shim.c" or die "could not write $shim.c: $!";
print $src <<'C';
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int
shm_open(const char *name, int oflag, mode_t mode)
{
	static int	(*real) (const char *, int, mode_t);
	const char *deny = getenv("UID_TEST_SHM_DENY");

	if (deny != NULL && strncmp(name, "/uid.", 5) == 0 && access(deny, F_OK) == 0)
	{
		errno = EACCES;
		return -1;
	}
	if (real == NULL)
		real = (int (*) (const char *, int, mode_t)) dlsym(RTLD_NEXT, "shm_open");
	return real(name, oflag, mode);
}
C
close $src;
system($cc, '-shared', '-fPIC', '-o', "$shim.so", "$shim.c", '-ldl') == 0
  or die "could not build the shm_open shim with $cc";
open my $on, '>', $deny or die "could not create $deny: $!";
close $on;

my $posix = dsm_node('posix', 'posix');
{
	local $ENV{LD_PRELOAD} = "$shim.so";
	local $ENV{UID_TEST_SHM_DENY} = $deny;
	$posix->start;
}
$posix->safe_psql('postgres', 'CREATE EXTENSION uid');
my $pm = postmaster_pid($posix);
for my $gen (id_generators())
{
	my ($rc, $out, $err) =
	  $posix->psql('postgres', "\\set VERBOSITY verbose\nSELECT $gen()");
	isnt($rc, 0, "posix, refused: $gen() fails");
	like(
		$err,
		qr{ERROR:  42501: could not open shared memory segment "/uid\.[0-9a-f]{12}\.[0-9a-f]{12}": Permission denied},
		"posix, refused: $gen() names the object and the cause");
	like(
		$err,
		qr{DETAIL:  uid keeps its live state in a POSIX shared memory object because dynamic_shared_memory_type is "posix"\.},
		"posix, refused: $gen() says why there");
	like(
		$err,
		qr{HINT:  Make /dev/shm a writable tmpfs, or set dynamic_shared_memory_type = mmap and restart the server\.},
		"posix, refused: $gen() gives the fix");
}
is($posix->safe_psql('postgres', 'SELECT 1'), '1', 'posix, refused: the server runs on');
is(postmaster_pid($posix), $pm, 'posix, refused: the same postmaster');
unlike(slurp_file($posix->logfile), qr/terminating any other active server processes/,
	'posix, refused: no backend crashed');

# Once it can be made, it is, with no restart.
unlink $deny or die "could not remove $deny: $!";
my $obj = check_place($posix, 'posix', 'posix', generate_from_sessions($posix, 'posix'));
my $name = '/' . basename($obj);
ok($obj ne '' && length $name <= 31,
	"posix: the object's name $name is at most 31 characters");
$posix->stop;

done_testing();
