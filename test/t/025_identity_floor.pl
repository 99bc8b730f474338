# A leased identity's floor.  Two servers that hold one lease id one after
# the other stay apart by time: the first one's IDs end before its lease
# expires, and the next holder's IDs begin at or after its floor, its clock
# read when the claim returned (src/identity.c).  Here a writer claims a
# lease, then its clock steps back 30 s: every type's first IDs under the
# lease must still be dated at or after the claim (held at the floor and
# borrowed ahead, as after any step back), not 30 s before it, where the
# id's previous holder may have made IDs.  sno is used before the step, so
# that the step makes it flip to its other tick-tock timeline, whose marks
# are older still.  A restart with the clock still back keeps the lease and
# the floor.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $coord = PostgreSQL::Test::Cluster->new('floor_coordinator');
$coord->init;
# the writer's clock goes 30 s back: a grace of 120 s keeps it within the
# bound of half of it (031 tests the bound itself)
$coord->append_conf('postgresql.conf', "uid.pool_grace = 120\nfsync = on\n");
$coord->start;
$coord->safe_psql('postgres', 'CREATE EXTENSION uid');
my $conninfo = sprintf("host=%s port=%d dbname=postgres", $coord->host, $coord->port);

my $writer = PostgreSQL::Test::Cluster->new('floor_writer');
$writer->init;
$writer->append_conf('postgresql.conf',
	"session_preload_libraries = 'uid'\nuid.coordinator = '$conninfo'\nuid.pool = 'floor'\n");
start_faked($writer);
$writer->safe_psql('postgres', 'CREATE EXTENSION uid');

my ($id, $token) = split /\|/,
  $writer->safe_psql('postgres', 'SELECT lease_id, token FROM uid_identity_renew()');
is($id, 0, 'the writer claims the lowest id of the pool');
my $claimed = $coord->safe_psql('postgres',
	"SELECT extract(epoch FROM claimed_at) FROM uid_pool_lease WHERE pool = 'floor' AND id = 0");

# sno on one timeline at the claim's time
$writer->safe_psql('postgres', 'CREATE TABLE s (id sno)');
$writer->safe_psql('postgres', 'INSERT INTO s SELECT sno_new(1) FROM generate_series(1, 10)');

set_clock($writer, '-30');
check_clock_offset($writer, -30, 'the writer\'s clock is 30 s back');

my %made = (
	sno => 'sno_new(1)',
	muid => 'muid_new()',
	snowflake_si => 'snowflake_si_new()',
	revts8 => 'revts8_new()',
	uid60 => 'uid60_new()');

# every type's IDs after the step, made in one session each
sub ids_not_before_claim
{
	my ($label) = @_;
	for my $type (sort keys %made)
	{
		my $oldest = $writer->safe_psql(
			'postgres', qq{
			SELECT min(extract(epoch FROM ${type}_timestamp(id)))
			FROM (SELECT $made{$type} AS id FROM generate_series(1, 200)) g});
		# uid60's seconds and sno's 4 ms units are truncated: a tick begins
		# at or after the floor, which is after the claim began
		cmp_ok($oldest, '>=', int($claimed) - 1,
			"$label: $type IDs are not dated before the lease's claim")
		  or diag "oldest $oldest, claimed $claimed";
	}
}

ids_not_before_claim('30 s back');

my $flips = $writer->safe_psql('postgres',
	"SELECT tick_flips FROM uid_stats() WHERE type = 'sno'");
cmp_ok($flips, '>=', 1, 'the step made sno flip to its other timeline');

is( $writer->safe_psql('postgres',
		"SELECT DISTINCT value FROM uid_identity() WHERE field <> 'cluster'"),
	'0', 'every type embeds lease id 0');

# a restart keeps the lease (same id and token) and its floor
$writer->stop;
start_faked($writer);
is( $writer->safe_psql('postgres',
		"SELECT lease_id || '|' || token FROM uid_identity_renew()"),
	"$id|$token", 'a restart keeps the lease: same id, same token');
$writer->safe_psql('postgres', 'SELECT 1');
ids_not_before_claim('after a restart 30 s back');

set_clock($writer, '+0');
$writer->stop;
$coord->stop;

done_testing();
