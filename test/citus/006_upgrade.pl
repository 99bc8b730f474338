# ALTER EXTENSION uid UPDATE on a Citus cluster, from the version before
# the default one.  The versions are read, not written here: the default
# version from uid.control (and the server, which must agree: the stage
# installed this tree), the one before it the highest version below it that
# the installation has an install script for (src/upgrade/uid--X.sql, the
# frozen released scripts).  The coordinator creates uid at that version,
# and Citus creates it on each worker it adds; a table keyed by each type
# is written through every node; then ALTER EXTENSION uid UPDATE on the
# coordinator, which Citus runs on every worker: every node is at the
# default version and generates, no duplicate, and the IDs made after the
# update sort above those made before.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types);
use CitusTest;

my $top = "$FindBin::RealBin/../..";
open my $fh, '<', "$top/uid.control" or die "uid.control: $!";
my ($default) = join('', <$fh>) =~ /^default_version = '([^']+)'/m;
close $fh;
die "no default_version in uid.control" unless defined $default;

# A version as a list of numbers, and the order of two of them.
sub parts { return split /\./, $_[0]; }
sub vcmp
{
	my @a = parts($_[0]);
	my @b = parts($_[1]);
	while (@a || @b)
	{
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}
my ($previous) = sort { vcmp($b, $a) } grep { vcmp($_, $default) < 0 }
  map { m{/uid--([0-9.]+)\.sql$} ? $1 : () } glob("$top/src/upgrade/uid--*.sql");
BAIL_OUT("no install script of a version before $default in src/upgrade") unless defined $previous;
note "updating from $previous to $default";

my ($coord, $w1, $w2) = citus_cluster(uid_version => $previous);
is($coord->safe_psql('postgres',
		q{SELECT default_version FROM pg_available_extensions WHERE name = 'uid'}),
	$default, "the installation's default version is uid.control's, $default");

my @nodes = ($coord, $w1, $w2);
my $version = q{SELECT extversion FROM pg_extension WHERE extname = 'uid'};

is($_->safe_psql('postgres', $version), $previous, $_->name . ": uid $previous") for @nodes;

# Round $r: rows through every node.
sub round
{
	my ($r) = @_;
	for my $type (id_types())
	{
		wait_past_ids($coord, "u_$type", $type);
		for my $node (@nodes)
		{
			$node->safe_psql('postgres',
				"INSERT INTO u_$type (node, round) SELECT '" . $node->name . "', $r FROM generate_series(1, 50)");
		}
	}
	return;
}

create_id_table($coord, "u_$_", $_, 'node text, round int') for id_types();
round(0);

$coord->safe_psql('postgres', 'ALTER EXTENSION uid UPDATE');
is($_->safe_psql('postgres', $version), $default, $_->name . ": uid $default after the update")
  for @nodes;
for my $node (@nodes)
{
	for my $type (id_types())
	{
		my ($rc, $out, $err) = $node->psql('postgres', 'SELECT ' . generator_of($type));
		is($rc, 0, $node->name . ": $type generates after the update") or diag $err;
	}
}
round(1);

for my $type (id_types())
{
	check_no_duplicates($coord, "u_$type", $type);
	is($coord->safe_psql('postgres', "SELECT count(*) FROM u_$type"), 300, "$type: every row is there");
	is(out_of_order($coord, "u_$type", 'round'), 0,
		"$type: the IDs made after the update sort above those made before");
}

done_testing();
