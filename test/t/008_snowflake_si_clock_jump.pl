# The server's clock steps back (5 s, then an hour, then forward again)
# while sessions generate snowflake_si IDs, and the server restarts with its
# clock 20 s back.  snowflake_si has a single timeline: the generator holds
# at the high-water millisecond and, when its 256 indexes are used up,
# borrows the next one without waiting; it never goes back.  So: no
# duplicate, every session's IDs rise across every step and the restart, no
# ID is dated back to the clock, and generation never stalls (README,
# guarantees 1, 3 and 4, and doc/design.md, the regression policy of
# snowflake_si, revts8 and uid60).  The
# steps and checks are UidTest's clock_jump_test, shared with revts8.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $machine = 5;
# 2^k IDs a millisecond, k = uid.snowflake_si_index_bits (default 8)
my $T = { name => 'snowflake_si', seq => 'snowflake_si_index', per_ms => 256 };

my $node = faked_node('snowflake_si_clock_jump', "uid.generator = $machine");

clock_jump_test($node, $T);

is( $node->safe_psql(
		'postgres',
		'SELECT min(snowflake_si_machine(id)), max(snowflake_si_machine(id)), max(snowflake_si_index(id)) < 256 FROM t'
	),
	"$machine|$machine|t",
	"every ID has machine id $machine and an index below 256");

set_clock($node, '+0');
$node->stop;

done_testing();
