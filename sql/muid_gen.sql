-- muid: generation, one timestamp per transaction, offsets within it.
SET TimeZone = 'UTC';
-- muid_new() and muid_txn() are per transaction: parallel restricted and volatile
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE proname IN ('muid_new', 'muid_txn', 'muid_timestamp', 'muid_from_parts') ORDER BY proname;

-- one transaction: offsets 1, 2, 3 ... under one timestamp and the medallion
BEGIN;
CREATE TEMP TABLE one_txn AS SELECT g AS n, muid_new() AS id FROM generate_series(1, 1000) g;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE muid_offset(id) <> n) AS wrong_offset,
       count(DISTINCT muid_timestamp(id)) AS timestamps,
       count(DISTINCT muid_medallion(id)) AS medallions,
       bool_and(to_hex(muid_medallion(id)) = lower((SELECT effective FROM uid_config() WHERE name = 'uid.medallion'))) AS medallion_setting,
       bool_and(muid_timestamp(id) >= now() AND muid_timestamp(id) <= clock_timestamp()) AS timestamp_in_transaction
FROM one_txn;
-- muid_txn() is the offset-0 muid of the same transaction
SELECT muid_txn() = muid_from_parts(muid_timestamp(id), muid_medallion(id), 0) AS txn_is_offset_0,
       muid_txn() < id AS txn_sorts_first, muid_offset(muid_txn()) AS txn_offset
FROM one_txn WHERE n = 1;
SELECT muid_offset(muid_new()) AS next_offset;
COMMIT;
-- the next transaction has a later timestamp and starts again at offset 1
SELECT muid_offset(id) AS first_offset,
       muid_timestamp(id) > (SELECT max(muid_timestamp(o.id)) FROM one_txn o) AS later
FROM (SELECT muid_new() AS id) s;

-- a rolled-back savepoint does not make an offset reappear; nor does an
-- error caught in a subtransaction
BEGIN;
SELECT muid_offset(muid_new()) AS o1;
SAVEPOINT s;
SELECT muid_offset(muid_new()) AS o2, muid_offset(muid_new()) AS o3;
ROLLBACK TO SAVEPOINT s;
SELECT muid_offset(muid_new()) AS o4;
DO $$
BEGIN
    BEGIN
        PERFORM muid_new();
        RAISE EXCEPTION 'undo';
    EXCEPTION WHEN OTHERS THEN
        NULL;
    END;
END $$;
SELECT muid_offset(muid_new()) AS o6;
SELECT count(DISTINCT muid_timestamp(x)) AS one_timestamp
FROM (VALUES (muid_txn()), (muid_new())) v(x);
COMMIT;

-- muid_txn() first: it takes the timestamp, muid_new() then gives offset 1
BEGIN;
CREATE TEMP TABLE txn_first AS SELECT muid_txn() AS t;
SELECT muid_offset(n) AS first_offset, muid_timestamp(n) = muid_timestamp(t) AS same_timestamp,
       muid_txn() = t AS txn_stable
FROM txn_first, (SELECT muid_new() AS n) s;
COMMIT;
-- an aborted transaction's timestamp is not reused
BEGIN;
CREATE TEMP TABLE aborted AS SELECT muid_new() AS id;
\copy aborted TO 'results/muid_aborted.copy'
ROLLBACK;
CREATE TEMP TABLE aborted (id muid);
\copy aborted FROM 'results/muid_aborted.copy'
SELECT muid_offset(n) AS offset_after_abort, muid_timestamp(n) > muid_timestamp(a.id) AS later
FROM aborted a, (SELECT muid_new() AS n) s;

-- many transactions: each takes its own timestamp, strictly increasing
CREATE TABLE many_txn (i int, id muid, t muid);
DO $$
BEGIN
    FOR i IN 1..2000 LOOP
        INSERT INTO many_txn VALUES (i, muid_new(), muid_txn());
        INSERT INTO many_txn VALUES (-i, muid_new(), muid_txn());
        COMMIT;
    END LOOP;
END $$;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT muid_timestamp(id)) AS timestamps,
       count(*) FILTER (WHERE muid_offset(id) <> CASE WHEN i > 0 THEN 1 ELSE 2 END) AS wrong_offset,
       count(*) FILTER (WHERE muid_timestamp(t) <> muid_timestamp(id) OR muid_offset(t) <> 0) AS wrong_txn
FROM many_txn;
SELECT count(*) AS not_increasing FROM (
    SELECT id, lag(id) OVER (ORDER BY abs(i), i DESC) AS prev FROM many_txn) s WHERE prev >= id;
DROP TABLE many_txn;

-- as a primary key: one INSERT is one transaction
CREATE TABLE thing (id muid PRIMARY KEY DEFAULT muid_new(), n int);
INSERT INTO thing (n) SELECT g FROM generate_series(1, 10000) g;
INSERT INTO thing (n) SELECT g FROM generate_series(10001, 10100) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT muid_timestamp(id)) AS timestamps,
       count(*) FILTER (WHERE muid_offset(id) <> CASE WHEN n <= 10000 THEN n ELSE n - 10000 END) AS wrong_offset
FROM thing;
SELECT count(*) AS not_increasing FROM (
    SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM thing) s WHERE prev >= id;
-- the time in a query, and a time range through the index
SELECT muid_timestamp(id) >= now() - interval '1 minute' AS recent, count(*)
FROM thing GROUP BY 1;
ANALYZE thing;
EXPLAIN (COSTS OFF) SELECT count(*) FROM thing
WHERE id >= muid_boundary('2024-01-01Z') AND id < muid_boundary('2024-01-02Z');
SELECT count(*) FROM thing WHERE id >= muid_boundary(now() - interval '1 hour')
                            AND id < muid_boundary(clock_timestamp() + interval '1 minute');
DROP TABLE thing;

-- the medallion setting (the server's: ALTER SYSTEM, then a reload that
-- this session has processed)
ALTER SYSTEM SET uid.medallion = '1bfc71b112d';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '1bfc71b112d') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.medallion;
SELECT to_hex(muid_medallion(muid_new())) AS set_medallion;
-- a transaction keeps the medallion it started with: the server's changes
-- in the middle of it (ALTER SYSTEM cannot run in a transaction block; the
-- reload is processed between the transaction's statements)
ALTER SYSTEM SET uid.medallion = '2a';
BEGIN;
SELECT to_hex(muid_medallion(muid_new())) AS medallion;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '2a') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.medallion;
SELECT to_hex(muid_medallion(muid_new())) AS kept, to_hex(muid_medallion(muid_txn())) AS txn_kept;
COMMIT;
SELECT to_hex(muid_medallion(muid_new())) AS short_medallion;
ALTER SYSTEM RESET uid.medallion;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.medallion;
SELECT to_hex(muid_medallion(muid_new())) = lower((SELECT effective FROM uid_config() WHERE name = 'uid.medallion')) AS drawn_again;

-- counters move
CREATE TEMP TABLE before AS SELECT issued FROM uid_stats() WHERE type = 'muid';
SELECT count(muid_new()) FROM generate_series(1, 1000);
SELECT s.issued - b.issued >= 1000 AS counted FROM uid_stats() s, before b WHERE s.type = 'muid';

-- a wrapper wrongly marked PARALLEL SAFE cannot take a timestamp in a worker
CREATE FUNCTION wrongly_safe() RETURNS muid LANGUAGE plpgsql PARALLEL SAFE AS
$$ BEGIN RETURN muid_new(); END $$;
-- (force_parallel_mode became debug_parallel_query in PostgreSQL 16)
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END,
                  'regress', false) AS parallel;
SELECT wrongly_safe();
RESET ALL;
SET TimeZone = 'UTC';
SELECT muid_offset(wrongly_safe()) AS in_the_leader;
DROP FUNCTION wrongly_safe();
