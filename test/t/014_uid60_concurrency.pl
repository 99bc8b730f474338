# Many backends calling uid60_new() at once never get the same ID, and no
# second holds more than the format's 1024 IDs of one worker: past that the
# generator waits for the next second (README, guarantees 1 and 5).  All
# backends share one sequence, the original's: it goes up by one modulo
# 1024 and is not reset each second, so that it wraps within a second and
# IDs of one second sort by sequence, not by when they were made; their
# time never goes back.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

my $sessions = 4;
my $per_session = 2_000;
my $total = $sessions * $per_session;
my $worker = 300;
my $T = { name => 'uid60', seq => 'uid60_sequence', tick => 1, per_tick => 1024 };

# The format holds 1024 IDs a second: 8,000 of them span 8 seconds at
# least, however many backends ask for them.
my $node = PostgreSQL::Test::Cluster->new('uid60_concurrency');
$node->init;
$node->append_conf('postgresql.conf', "uid.generator = $worker");
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id uid60 NOT NULL, s int NOT NULL, n int NOT NULL);
	CREATE UNIQUE INDEX t_id ON t (id);
});

is( $node->safe_psql('postgres',
		q{SELECT setting FROM uid_config() WHERE name = 'uid.generator'}),
	$worker,
	"uid.generator is $worker");

my $elapsed = run_released($node, $sessions,
	sub {
		my ($s) = @_;
		my $half = int($per_session / 2);

		# two parts: every session's first before every session's last
		[	"INSERT INTO t SELECT uid60_new(), $s, g FROM generate_series(1, $half) g",
			"INSERT INTO t SELECT uid60_new(), $s, g FROM generate_series($half + 1, $per_session) g"
		];
	});
note sprintf('%d IDs in %.2f s: %.0f IDs/s', $total, $elapsed, $total / $elapsed);

# Read at once, before the clock moves on much: a generator that borrowed
# ahead instead of waiting would have dated IDs in the future.
check_not_ahead($node, $T);
# The IDs span 8 seconds at least, none of them ahead of the clock: the
# clock crossed 7 second boundaries during the run.
cmp_ok($elapsed, '>', $total / 1024 - 2,
	'the run took as long as 1024 IDs a second allow');

is( $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id) FROM t'),
	"$total|$total",
	"$total IDs, all distinct");
check_ids_wrap($node, 'uid60', 's');

is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM (SELECT s FROM t GROUP BY s HAVING count(*) = $per_session) x"
	),
	$sessions,
	"each session made $per_session IDs");

# All backends use one worker id, and the random bits may repeat: only the
# shared state keeps their IDs apart.
is( $node->safe_psql('postgres',
		'SELECT min(uid60_worker(id)), max(uid60_worker(id)) FROM t'),
	"$worker|$worker",
	"every ID has worker $worker");

# The accessors agree with the layout (doc/formats.md): n = ts << 28 | worker
# << 19 | seq << 9 | rand, ts in seconds since 2018-03-01; from_parts is
# their inverse, and the text comes back as the same ID.
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM t
	WHERE uid60_timestamp(id) <> timestamptz '2018-03-01 00:00:00+00'
			+ (id::bigint >> 28) * interval '1 s'
	   OR uid60_worker(id) <> (id::bigint >> 19) & 511
	   OR uid60_sequence(id) <> (id::bigint >> 9) & 1023
	   OR uid60_random(id) <> id::bigint & 511
	   OR uid60_from_parts(uid60_timestamp(id), uid60_worker(id), uid60_sequence(id),
						   uid60_random(id)) <> id
	   OR id::text::uid60 <> id}),
	'0',
	'the accessors, casts and text decode the bit layout');

# The capacity: never more than 1024 IDs in one second, from all the
# backends together, each with its own sequence number.
my ($seconds, $fullest, $repeats) = split /\|/,
  $node->safe_psql(
	'postgres', q{
	SELECT count(*), max(c), count(*) FILTER (WHERE c <> seqs)
	FROM (SELECT count(*) AS c, count(DISTINCT uid60_sequence(id)) AS seqs
		  FROM t GROUP BY uid60_timestamp(id)) x});
note "$seconds seconds used, the fullest has $fullest IDs";
cmp_ok($fullest, '<=', 1024, 'at most 1024 IDs in any second');
cmp_ok($seconds, '>=', $total / 1024, 'the IDs span at least total / 1024 seconds');
is($repeats, '0', 'no sequence number twice in a second');

check_overlap($node);

# Two small batches, each in a later second: seconds that did not fill up
# follow each other, and the sequence must go on across them.
for my $batch (1 .. 2)
{
	usleep(1_100_000);
	$node->safe_psql('postgres',
		"INSERT INTO t SELECT uid60_new(), 10 + $batch, g FROM generate_series(1, 10) g");
}

# The sequence rule: in each second the sequence numbers are one run,
# modulo 1024, and a second that is not full starts where the last one
# that was not full ended (a full second starts and ends where the one
# before it left off).  No second restarts the sequence.
my ($broken, $restarted, $partial) = split /\|/,
  $node->safe_psql(
	'postgres', q{
	WITH s AS (SELECT DISTINCT uid60_timestamp(id) AS t, uid60_sequence(id) AS q FROM t),
	ends AS (
		SELECT t, count(*) AS c,
			   count(*) FILTER (WHERE NOT EXISTS (
					SELECT 1 FROM s n WHERE n.t = s.t AND n.q = (s.q + 1) % 1024)) AS runs,
			   min(q) FILTER (WHERE NOT EXISTS (
					SELECT 1 FROM s n WHERE n.t = s.t AND n.q = (s.q + 1) % 1024)) AS last_q,
			   min(q) FILTER (WHERE NOT EXISTS (
					SELECT 1 FROM s p WHERE p.t = s.t AND p.q = (s.q + 1023) % 1024)) AS first_q
		FROM s GROUP BY t)
	SELECT count(*) FILTER (WHERE runs <> (c < 1024)::int),
		   count(*) FILTER (WHERE c < 1024 AND first_q <> (
				SELECT (e.last_q + 1) % 1024 FROM ends e
				WHERE e.t < ends.t AND e.c < 1024 ORDER BY e.t DESC LIMIT 1)),
		   count(*) FILTER (WHERE c < 1024)
	FROM ends});
cmp_ok($partial, '>=', 3, "$partial seconds were not full");
is($broken, '0', "each second's sequence numbers are one run modulo 1024");
is($restarted, '0', 'each second goes on from where the one before left off');

# 4 backends ask for more than 1024 IDs a second: the capacity was hit.
check_capacity_stats($node, 'uid60', $total);

# Waits for the next second can be canceled: a statement timeout stops a
# statement that would wait through 100 seconds, promptly (the latch or the
# signal ends the sleep, and the wait checks for interrupts).  Counted: in
# its 200 ms the statement crossed one second boundary at most, so it began
# at most two waits (uid_stats' overflow_waits), where ignoring the cancel
# would have taken 100.  Timed too, but with a bound that a machine many
# times slower meets, far below the 100 s.
my $waits = type_stats($node, 'uid60')->{waits};
my $start = time();
my ($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '200ms'; SELECT count(uid60_new()) FROM generate_series(1, 102400)");
my $cancel = time() - $start;
my $waited = type_stats($node, 'uid60')->{waits} - $waits;
like($err, qr/canceling statement due to statement timeout/,
	'a statement that has to wait for the next second can be canceled');
cmp_ok($waited, '<=', 2,
	"the cancel ended it within its first waits ($waited), not after the 100 it needed");
cmp_ok($cancel, '<', 40, "and promptly (${cancel}s), not after 100 s of waits");

$node->stop;

done_testing();
