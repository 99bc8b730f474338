# The generator's state file: made on first use with mode 0600 and its
# blocks allocated, and refused with a clear error when it is damaged
# (doc/design.md, "Invariants of allocation").

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $node = PostgreSQL::Test::Cluster->new('state_file');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');

my $file = state_file($node);
ok(!-e $file, 'no state file before the first ID');
$node->safe_psql('postgres', 'SELECT sno_new()');
ok(-e $file, 'the first ID makes the state file');

my @st = stat($file);
is($st[7], 4096, 'it is 4096 bytes');
is($st[2] & 07777, 0600, 'its mode is 0600');
cmp_ok($st[12] * 512, '>=', 4096, 'its blocks are allocated');
is(scalar(grep { /uid_generator\.state\..*\.tmp$/ } glob($node->data_dir . '/*')),
	0, 'no temporary file is left behind');

# The high-water mark is in the file: a new backend continues above it.
my $last = $node->safe_psql('postgres', 'SELECT sno_new()');
is($node->safe_psql('postgres', "SELECT sno_new() > '$last'"),
	't', 'a new backend continues above the last ID');

# A file of uid 0.6.0 (version 3, the same layout) is taken over: replaced
# by a file of version 4 with a new inode, so that backends of the older
# library still mapping the old one (a package upgraded under a running
# server) refuse at their next renewal of the lease, and the next IDs are
# fenced past it.
$node->stop;
{
	open my $fh, '+<:raw', $file or die "could not open $file: $!";
	seek($fh, 4, 0) or die;
	print $fh pack('V', 3) or die;
	close $fh or die;
}
my $ino = (stat($file))[1];
$node->start;
is($node->safe_psql('postgres', "SELECT sno_new() > '$last'"),
	't', 'after a file of version 3, IDs go on above the last one');
isnt((stat($file))[1], $ino, 'the file of version 3 was replaced by a new one');
is(unpack('V', substr(slurp_file($file), 4, 4)), 4, 'of version 4');
is((stat($file))[2] & 07777, 0600, 'with mode 0600');

# A damaged file is refused, not silently reinitialized.
$node->stop;
truncate($file, 100) or die "could not truncate $file: $!";
$node->start;
my ($rc, $out, $err) =
  $node->psql('postgres', 'SELECT sno_new()');
isnt($rc, 0, 'a truncated state file is an error');
like($err, qr/uid state file ".*uid_generator\.state" is truncated/,
	'the error names the file');
like($err, qr/HINT:.*remove the file/, 'and says what to do');

$node->stop;
open my $fh, '+<', $file or die "could not open $file: $!";
print $fh "garbage!" x 512;
close $fh;
$node->start;
($rc, $out, $err) = $node->psql('postgres', 'SELECT sno_new()');
isnt($rc, 0, 'a state file of another format is an error');
like($err, qr/has an unknown format/, 'saying so');

# After the operator removes it, generation starts again.
$node->stop;
unlink $file or die "could not remove $file: $!";
$node->start;
is($node->safe_psql('postgres', q{SELECT sno_new() IS NOT NULL}),
	't', 'generation works again once the file is removed');

$node->stop;
done_testing();
