# The server's clock steps back (5 s, then an hour, then forward again)
# while sessions generate revts8 IDs, and the server restarts with its
# clock 20 s back.  revts8 is on the same single-timeline allocator as
# snowflake_si, with 64 IDs a millisecond: the generator holds at the
# high-water millisecond and, when its 64 sequences are used up, borrows
# the next one without waiting; it never goes back.  So: no duplicate,
# every session's IDs rise in time order across every step and the
# restart, no ID is dated back to the clock, and generation never stalls;
# while the clock is behind, far more than a millisecond's 64 IDs are
# dated ahead of the clock, which waiting out each full millisecond would
# not allow (counted, not timed: README, guarantees 1, 3 and 4, and
# doc/design.md, the regression policy of snowflake_si, revts8 and uid60).  The steps and checks are UidTest's
# clock_jump_test, shared with snowflake_si.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $generator = 42;
my $cluster = 9;
my $T = { name => 'revts8', seq => 'revts8_sequence', per_ms => 64 };

my $node = faked_node('revts8_clock_jump', "uid.generator = $generator",
	"uid.cluster = $cluster");

clock_jump_test($node, $T, outpaces => 1);

is( $node->safe_psql(
		'postgres', q{
	SELECT min(revts8_generator(id)), max(revts8_generator(id)),
		   min(revts8_cluster(id)), max(revts8_cluster(id)),
		   max(revts8_sequence(id)) < 64
	FROM t}),
	"$generator|$generator|$cluster|$cluster|t",
	"every ID has generator $generator, cluster $cluster and a sequence below 64"
);

set_clock($node, '+0');
$node->stop;

done_testing();
