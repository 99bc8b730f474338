-- uid60: from_parts, boundaries, generation.
SET TimeZone = 'UTC';

-- from_parts floors to the second; every field out of range is an error
SELECT id, uid60_timestamp(id), uid60_worker(id), uid60_sequence(id), uid60_random(id)
FROM (SELECT uid60_from_parts('2024-06-01 12:00:00.999Z', 5, 6, 7) AS id) s;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT uid60_from_parts('2024-06-01Z', 512, 0, 0)$$),
  ($$SELECT uid60_from_parts('2024-06-01Z', -1, 0, 0)$$),
  ($$SELECT uid60_from_parts('2024-06-01Z', 0, 1024, 0)$$),
  ($$SELECT uid60_from_parts('2024-06-01Z', 0, -1, 0)$$),
  ($$SELECT uid60_from_parts('2024-06-01Z', 0, 0, 512)$$),
  ($$SELECT uid60_from_parts('2024-06-01Z', 0, 0, -1)$$),
  ($$SELECT uid60_from_parts('2018-02-28 23:59:59.999999Z', 0, 0, 0)$$),
  ($$SELECT uid60_from_parts('2154-04-07 06:28:16Z', 0, 0, 0)$$),
  ($$SELECT uid60_from_parts('infinity', 0, 0, 0)$$),
  ($$SELECT uid60_boundary('2154-04-07 06:28:15.000001Z')$$),
  ($$SELECT uid60_boundary('infinity')$$)
) v(stmt);
SELECT uid60_from_parts('2154-04-07 06:28:15.999999Z', 511, 1023, 511) AS last,
       uid60_timestamp('__________') AS last_time, uid60_timestamp('AAAAAAAAAA') AS first_time;

-- boundaries
SELECT uid60_boundary('2024-01-01Z') = uid60_from_parts('2024-01-01Z', 0, 0, 0) AS exact,
       uid60_boundary('2024-01-01 00:00:00.000001Z') = uid60_from_parts('2024-01-01 00:00:01Z', 0, 0, 0) AS rounds_up,
       uid60_boundary('2000-01-01Z') AS before_range, uid60_boundary('-infinity') AS minus_infinity,
       uid60_boundary('2154-04-07 06:28:15Z') AS last_second;
WITH ids AS (
    SELECT uid60_from_parts('2024-01-01Z'::timestamptz + g * interval '0.25 s', g % 512, g % 1024, g % 512) AS id
    FROM generate_series(0, 3999) g)
SELECT count(*) FILTER (WHERE id >= uid60_boundary('2024-01-01 00:01:00.5+00')
                          AND id <  uid60_boundary('2024-01-01 00:02:00+00')) AS by_boundary,
       count(*) FILTER (WHERE uid60_timestamp(id) >= '2024-01-01 00:01:00.5+00'
                          AND uid60_timestamp(id) <  '2024-01-01 00:02:00+00') AS by_time
FROM ids;

-- Generation: the worker is uid.generator (its range is the worker's, 0..511).
SELECT issued AS issued_before, overflow_waits AS waits_before, clock_regressions AS regressions_before FROM uid_stats() WHERE type = 'uid60' \gset
-- (the settings are the server's: ALTER SYSTEM, then a reload that this
-- session has processed)
ALTER SYSTEM SET uid.generator = 511;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '511') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
-- 2,500 IDs in one statement: at most 1024 a second, so they need at
-- least 3 seconds; the generator waits for the next second instead.
-- (The sequence checks below assume no other session of the server makes
-- uid60 IDs meanwhile, as in test/check.sh's own cluster.)
CREATE TABLE u60_event AS
SELECT uid60_new() AS id, g, clock_timestamp() AS made FROM generate_series(1, 2500) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT uid60_timestamp(id)) >= 3 AS three_seconds_or_more,
       bool_and(uid60_worker(id) = 511) AS worker_ok,
       bool_and(uid60_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent,
       bool_and(uid60_timestamp(id) <= made AND made < uid60_timestamp(id) + interval '2 s') AS dated_when_made,
       count(DISTINCT uid60_random(id)) > 400 AS random_bits_vary
FROM u60_event;
-- In the order they were made, the sequence goes up by one modulo 1024,
-- not reset when the second changes, and the second never goes back.  So
-- the IDs rise, but for the one place a second where the sequence wraps
-- from 1023 to 0: IDs of one second sort by sequence, not by when they
-- were made.
SELECT count(*) FILTER (WHERE uid60_sequence(id) <> (uid60_sequence(prev) + 1) % 1024) AS sequence_skips,
       count(*) FILTER (WHERE uid60_timestamp(id) < uid60_timestamp(prev)) AS time_goes_back,
       count(*) FILTER (WHERE uid60_timestamp(id) > uid60_timestamp(prev)) >= 2 AS seconds_changed,
       count(*) FILTER (WHERE id <= prev AND NOT (uid60_sequence(prev) = 1023
                                                 AND uid60_timestamp(id) = uid60_timestamp(prev)))
         AS down_but_not_at_a_wrap
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM u60_event) s WHERE prev IS NOT NULL;
-- at most 1024 a second; the seconds between the first and the last were
-- filled before the generator moved on (it waited only when they were full)
SELECT max(c) <= 1024 AS capacity_ok,
       bool_and(c = 1024) FILTER (WHERE t > lo AND t < hi) AS middle_seconds_full
FROM (SELECT uid60_timestamp(id) AS t, count(*) AS c,
             min(min(uid60_timestamp(id))) OVER () AS lo, max(max(uid60_timestamp(id))) OVER () AS hi
      FROM u60_event GROUP BY 1) s;
-- the next statement's sequence goes on from there
SELECT uid60_sequence(uid60_new()) = (SELECT (uid60_sequence(id) + 1) % 1024 FROM u60_event ORDER BY g DESC LIMIT 1)
  AS sequence_goes_on;
-- and across a second that ended before its sequence ran out: no restart
CREATE TABLE u60_gap AS SELECT uid60_new() AS id;
SELECT pg_sleep(1.1);
SELECT uid60_timestamp(n) > uid60_timestamp(id) AS later_second,
       uid60_sequence(n) = (uid60_sequence(id) + 1) % 1024 AS sequence_goes_on
FROM u60_gap, uid60_new() n;
DROP TABLE u60_gap;
-- and in a new session too, even one whose first ID is a sno: the uid60
-- slot was fenced by another session, and the sequence's origin (drawn with
-- the state file) is the same in every backend
SELECT uid60_sequence(uid60_new()) AS last_sequence \gset
\c
SELECT sno_new() IS NOT NULL AS a_sno_first;
SELECT uid60_sequence(uid60_new()) = (:last_sequence + 1) % 1024 AS sequence_goes_on_in_a_new_session;
SET TimeZone = 'UTC';
SELECT issued - :issued_before >= 2503 AS issued_counted, overflow_waits > :waits_before AS waits_counted,
       clock_regressions = :regressions_before AS no_regression, tick_flips = 0 AS no_flips
FROM uid_stats() WHERE type = 'uid60';
ANALYZE u60_event;
EXPLAIN (COSTS OFF) SELECT * FROM u60_event WHERE id >= uid60_boundary('2024-01-01Z') AND id < uid60_boundary('2024-01-02Z');
ALTER SYSTEM RESET uid.generator;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '0') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
SELECT uid60_worker(uid60_new()) AS default_worker;
DROP TABLE u60_event;
SELECT proname, provolatile, proparallel, pg_get_function_arguments(oid)
FROM pg_proc WHERE proname LIKE 'uid60\_%' AND proname NOT SIMILAR TO
  'uid60_(in|out|recv|send|eq|ne|lt|le|gt|ge)'
ORDER BY proname, pronargs;

-- The lease reaches a second past the later of the clock and the newest
-- ID's tick start, not past uid60's whole second (doc/design.md, "The lease
-- and the fence jump"): a uid60 made early in its second once pushed the
-- lease, and with it every type's fence after a restart, up to two seconds
-- past the clock.  Made in the first half of a second, the old lease was at
-- least 1.5 s past the tick's start.
DO $$BEGIN
    WHILE extract(microseconds FROM clock_timestamp())::bigint % 1000000 > 400000 LOOP
        PERFORM pg_sleep(0.01);
    END LOOP;
END$$;
SELECT lease <= greatest(clock_timestamp(), uid60_timestamp(x.id)) + interval '1 s' AS lease_reach
FROM (SELECT uid60_new() AS id) x, LATERAL uid_lease();
