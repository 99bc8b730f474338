# Many backends calling sno_new() at once never get the same ID, and each
# backend's IDs are strictly increasing (README, guarantees 1 and 3).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $sessions = 8;
my $per_session = 200_000;
my $total = $sessions * $per_session;

my $node = PostgreSQL::Test::Cluster->new('concurrency');
$node->init;
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id sno NOT NULL, s int NOT NULL, n int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
});

# A barrier (run_released): every worker queues behind an advisory lock,
# so that all of them start generating at the same moment.
run_released($node, $sessions,
	sub {
		my ($s) = @_;
		my $half = int($per_session / 2);

		# two parts: every session's first before every session's last
		[	"INSERT INTO t SELECT sno_new(1), $s, g FROM generate_series(1, $half) g",
			"INSERT INTO t SELECT sno_new(1), $s, g FROM generate_series($half + 1, $per_session) g"
		];
	});

is( $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t'),
	"$total|$total",
	"$total IDs, all distinct");

# The clock does not go back during this test, so there is one timeline
# and a session's IDs must rise in plain btree order.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM (
		SELECT id <= lag(id) OVER (PARTITION BY s ORDER BY n) AS bad FROM t
	) x WHERE bad}),
	'0',
	'each session\'s IDs are strictly increasing');

# Guarantee 3 to the letter (per timeline), which holds even if the tick
# bit flipped.
check_ids($node, 's');

is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM (SELECT s FROM t GROUP BY s HAVING count(*) = $per_session) x"
	),
	$sessions,
	"each session made $per_session IDs");

# All backends use one partition, so only the shared state keeps their IDs
# apart: the uniqueness above is not a gift of the partition field.
is( $node->safe_psql('postgres',
		'SELECT count(DISTINCT sno_partition(id)), count(DISTINCT sno_meta(id)) FROM t'),
	'1|1',
	'every ID has the same partition and metabyte');

check_overlap($node);

is( $node->safe_psql('postgres',
		"SELECT issued >= $total FROM uid_stats() WHERE type = 'sno'"),
	't',
	'uid_stats counts the IDs issued');

# A backend whose clock reading was overtaken by another backend's must not
# pass for a clock that went back: the tick bit flips on a real regression
# only.
note 'uid_stats: ',
  $node->safe_psql('postgres', "SELECT * FROM uid_stats() WHERE type = 'sno'");
is( $node->safe_psql('postgres',
		"SELECT tick_flips FROM uid_stats() WHERE type = 'sno'"),
	'0',
	'no tick flip');
is($node->safe_psql('postgres', 'SELECT DISTINCT sno_tick(id) FROM t'),
	'0', 'every ID is on the first timeline');

$node->stop;

done_testing();
