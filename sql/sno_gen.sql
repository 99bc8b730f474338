-- Generation: uniqueness, order, settings, and use as a primary key.
SET TimeZone = 'UTC';
CREATE TABLE event (id sno PRIMARY KEY DEFAULT sno_new(1), n int);
INSERT INTO event (n) SELECT g FROM generate_series(1, 10000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids FROM event;
-- strictly increasing in insertion order
SELECT count(*) AS not_increasing FROM (
    SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM event) s WHERE prev >= id;
-- the fields are what the settings say
SELECT count(*) FILTER (WHERE sno_meta(id) <> 1) AS wrong_meta,
       count(DISTINCT sno_partition(id)) AS partitions,
       bool_and(sno_partition(id) = (SELECT effective::int FROM uid_config() WHERE name = 'uid.partition')) AS drawn_partition,
       bool_and(sno_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent
FROM event;
-- the sequence restarts at 0 in each new 4 ms unit and counts up within one
SELECT count(*) FILTER (WHERE t = prev_t AND s <> prev + 1) AS sequence_gaps,
       count(*) FILTER (WHERE t <> prev_t AND s <> 0) AS sequence_not_restarted,
       count(DISTINCT t) > 1 AS several_units
FROM (
    SELECT sno_sequence(id) AS s, lag(sno_sequence(id)) OVER (ORDER BY id) AS prev,
           sno_timestamp(id) AS t, lag(sno_timestamp(id)) OVER (ORDER BY id) AS prev_t
    FROM event) x;

-- the index answers equality and time ranges
ANALYZE event;
EXPLAIN (COSTS OFF) SELECT * FROM event WHERE id = 'brpk4q72xwf2m63l';
EXPLAIN (COSTS OFF) SELECT * FROM event
WHERE id >= sno_boundary('2024-01-01Z') AND id < sno_boundary('2024-01-02Z');
SELECT count(*) FROM event WHERE id >= sno_boundary(now() - interval '1 hour')
                            AND id < sno_boundary(clock_timestamp() + interval '1 s');
SELECT n FROM event WHERE id = (SELECT id FROM event WHERE n = 1234);

-- metabyte and partition settings
SELECT sno_meta(sno_new()) AS default_meta, sno_meta(sno_new(255)) AS meta_255;
-- (the settings are the server's: ALTER SYSTEM, then a reload that this
-- session has processed)
ALTER SYSTEM SET uid.partition = 4242;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.partition', '4242') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.partition;
SELECT sno_partition(sno_new()) AS set_partition;
ALTER SYSTEM RESET uid.partition;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.partition', '-1') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.partition;
SELECT sno_partition(sno_new()) = (SELECT effective::int FROM uid_config() WHERE name = 'uid.partition') AS drawn_again;

-- counters move
CREATE TEMP TABLE before AS SELECT issued FROM uid_stats() WHERE type = 'sno';
SELECT count(sno_new()) FROM generate_series(1, 1000);
SELECT s.issued - b.issued >= 1000 AS counted FROM uid_stats() s, before b WHERE s.type = 'sno';
-- the lease: no ID issued so far reaches it, and WAL holds it (uid_fence)
SELECT lease > (SELECT max(sno_timestamp(id)) FROM event) AS lease_past_ids,
       wal_lease >= lease AS in_wal, renewals > 0 AS renewed, fences > 0 AS fenced
FROM uid_lease();
DROP TABLE event;
