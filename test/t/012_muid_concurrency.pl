# muid: 8 sessions run many short transactions at once.  Every transaction
# takes a timestamp that no other transaction of the server has, muid_new()
# numbers the IDs of a transaction 1, 2, 3 ... under it, and no muid is
# made twice (README guarantees 1 and 3, muid rules).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $sessions = 8;
my $txns = 5000;       # transactions per session
my $per_txn = 4;       # muid_new() calls per transaction

my $node = PostgreSQL::Test::Cluster->new('muid_concurrency');
$node->init;
# A fixed medallion: transactions can then be told apart by timestamp only.
$node->append_conf('postgresql.conf',
	"uid.medallion = '1bfc71b112d'\nmax_prepared_transactions = 2");
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id muid NOT NULL, txn muid NOT NULL, s int NOT NULL,
					x int NOT NULL, k int NOT NULL, n int NOT NULL);
	-- One transaction per iteration: per IDs and the transaction's own muid.
	CREATE PROCEDURE gen(sess int, txns int, per int) LANGUAGE plpgsql AS $$
	BEGIN
		SET synchronous_commit = off;
		FOR i IN 1..txns LOOP
			INSERT INTO t SELECT muid_new(), muid_txn(), sess, i, g, i * per + g
			FROM generate_series(1, per) g;
			COMMIT;
		END LOOP;
	END $$;
});

my $secs = run_released($node, $sessions,
	sub { "CALL gen($_[0], $txns, $per_txn)" });
my $all = $sessions * $txns;
note sprintf('%d transactions in %.1f s (%.0f a second)', $all, $secs, $all / $secs);

my $total = check_ids_by($node, 's');
is($total, $all * $per_txn, 'every session made all its IDs');

sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

# One timestamp per transaction, and no two transactions share one.
is(query('SELECT count(DISTINCT (s, x)) FROM t'), $all, "$all transactions");
is(query('SELECT count(DISTINCT muid_timestamp(id)) FROM t'),
	$all, 'every transaction has its own timestamp, server-wide');
is( query(
		'SELECT count(*) FROM (SELECT s, x FROM t GROUP BY s, x
		   HAVING count(DISTINCT muid_timestamp(id)) <> 1) g'),
	'0',
	'the IDs of a transaction share its timestamp');
is( query(
		"SELECT count(*) FROM t WHERE muid_offset(id) <> k
			OR muid_medallion(id) <> x'1bfc71b112d'::bigint"),
	'0',
	'offsets are 1, 2, 3 ... within each transaction, under the medallion');
is( query(
		'SELECT count(*) FROM t WHERE muid_offset(txn) <> 0
			OR muid_timestamp(txn) <> muid_timestamp(id)
			OR muid_medallion(txn) <> muid_medallion(id)'),
	'0',
	"muid_txn() is each transaction's offset-0 muid");
# Each session's transactions take rising timestamps.
is( query(
		'SELECT count(*) FROM (
			SELECT muid_timestamp(txn) <= lag(muid_timestamp(txn)) OVER (PARTITION BY s ORDER BY n) AS bad
			FROM t WHERE k = 1) y WHERE bad'),
	'0',
	"each session's transactions have rising timestamps");
check_overlap($node);
# Timestamps are the clock's microseconds, not a counter run far ahead.
is( query(
		"SELECT max(muid_timestamp(id)) <= clock_timestamp() + interval '1 s'
			AND min(muid_timestamp(id)) >= clock_timestamp() - interval '10 min' FROM t"),
	't',
	'the timestamps follow the clock');
cmp_ok(query("SELECT issued FROM uid_stats() WHERE type = 'muid'"),
	'>=', $total, 'uid_stats counted every muid_new()');

# PREPARE TRANSACTION ends the transaction for its backend: the next one
# takes a new timestamp and starts again at offset 1, while the prepared
# transaction's muids stay its own.
my $twophase = $node->safe_psql(
	'postgres', q{
	CREATE TABLE p (id muid, tag text);
	BEGIN;
	INSERT INTO p SELECT muid_new(), 'prepared' FROM generate_series(1, 3);
	PREPARE TRANSACTION 'muid_2pc';
	INSERT INTO p SELECT muid_new(), 'after' FROM generate_series(1, 2);
	COMMIT PREPARED 'muid_2pc';
	SELECT tag, count(*), count(DISTINCT muid_timestamp(id)), min(muid_offset(id)),
		   max(muid_offset(id))
	FROM p GROUP BY tag ORDER BY tag;
	SELECT (SELECT id FROM p WHERE tag = 'after' ORDER BY id LIMIT 1)
		 > (SELECT id FROM p WHERE tag = 'prepared' ORDER BY id DESC LIMIT 1);
});
is( $twophase,
	"after|2|1|1|2\nprepared|3|1|1|3\nt",
	'after PREPARE TRANSACTION the session takes a new, later timestamp and offsets restart');

$node->stop;

done_testing();
