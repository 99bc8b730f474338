# A clock outside a format's time range is an error, never a wrapped or
# clipped ID: snowflake_si's 2^40 ms from its base clock end in 2038 for
# the earliest base clock the format allows, and a clock before the base
# clock has no MAB at all.  The allocator in the generator core checks every
# tick it issues, fresh or borrowed.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $node = faked_node('out_of_range',
	"uid.snowflake_si_epoch = '2003-03-18 07:20:19.225+00'");

sub seconds_to
{
	my ($when) = @_;
	return $node->safe_psql('postgres',
		"SELECT round(extract(epoch FROM '$when'::timestamptz - clock_timestamp()))::bigint");
}

# Before any ID, a clock before the base clock (2002) has no MAB: an error.
my $to_2002 = seconds_to('2002-01-01Z');
set_clock($node, $to_2002);
my ($rc, $out, $err) = $node->psql('postgres', 'SELECT snowflake_si_new()');
isnt($rc, 0, 'a clock before the base clock is an error');
like($err, qr/the system clock is before "uid\.snowflake_si_epoch"/, 'saying so');

set_clock($node, '+0');
my $first = $node->safe_psql('postgres', 'SELECT snowflake_si_new()');
ok($first > 0, 'generation works with the clock in range');

# 2038-01-19 03:14:07.000Z is the last millisecond; go 2 years past it.
set_clock($node, '+' . seconds_to('2040-01-19Z'));
($rc, $out, $err) = $node->psql('postgres', 'SELECT snowflake_si_new()');
isnt($rc, 0, 'a clock past the end of the range is an error');
like($err, qr/type snowflake_si has run out of time/, 'saying the format ran out of time');

# Once IDs exist, a clock back before the base clock is a regression like any
# other: generation holds at the last ID's millisecond.
set_clock($node, seconds_to('2002-01-01Z'));
is($node->safe_psql('postgres', "SELECT snowflake_si_new() > '$first'"),
	't', 'behind the base clock after IDs exist, generation holds at the mark');

set_clock($node, '+0');
is($node->safe_psql('postgres', "SELECT snowflake_si_new() > '$first'"),
	't', 'and goes on when the clock is back');
$node->stop;
done_testing();
