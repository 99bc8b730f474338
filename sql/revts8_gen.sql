-- revts8: from_parts, boundaries, generation.
SET TimeZone = 'UTC';
SELECT id, revts8_timestamp(id), revts8_sequence(id), revts8_generator(id), revts8_cluster(id)
FROM (SELECT revts8_from_parts('2024-06-01 12:00:00.1239Z', 5, 6, 7) AS id) s;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT revts8_from_parts('2024-06-01Z', 64, 0, 0)$$),
  ($$SELECT revts8_from_parts('2024-06-01Z', 0, 64, 0)$$),
  ($$SELECT revts8_from_parts('2024-06-01Z', 0, 0, 16)$$),
  ($$SELECT revts8_from_parts('2024-06-01Z', -1, 0, 0)$$),
  ($$SELECT revts8_from_parts('1969-12-31 23:59:59.999Z', 0, 0, 0)$$),
  ($$SELECT revts8_from_parts('2109-05-15 07:35:11.104Z', 0, 0, 0)$$),
  ($$SELECT revts8_boundary('2109-05-15 07:35:11.104Z')$$),
  ($$SELECT revts8_boundary('infinity')$$)
) v(stmt);
SELECT revts8_from_parts('2109-05-15 07:35:11.103Z', 63, 63, 15) AS last,
       revts8_timestamp('ffffffffffff03ff') AS last_time;
SELECT revts8_boundary('2024-01-01Z') AS exact, revts8_boundary('2024-01-01 00:00:00.0001Z') AS rounds_up,
       revts8_boundary('1960-01-01Z') AS before_range;
WITH ids AS (
    SELECT revts8_from_parts('2024-01-01Z'::timestamptz + g * interval '0.25 ms', g % 64, g % 64, g % 16) AS id
    FROM generate_series(0, 3999) g)
SELECT count(*) FILTER (WHERE id >= revts8_boundary('2024-01-01 00:00:00.1+00')
                          AND id <  revts8_boundary('2024-01-01 00:00:00.2+00')) AS by_boundary,
       count(*) FILTER (WHERE revts8_timestamp(id) >= '2024-01-01 00:00:00.1+00'
                          AND revts8_timestamp(id) <  '2024-01-01 00:00:00.2+00') AS by_time
FROM ids;

-- a generator id above 63 is an error naming the setting and the range
-- (the settings are the server's: ALTER SYSTEM, then a reload that this
-- session has processed)
ALTER SYSTEM SET uid.generator = 64;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '64') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
SELECT revts8_new();
ALTER SYSTEM SET uid.generator = 63;
ALTER SYSTEM SET uid.cluster = 15;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.cluster', '15') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.cluster;
CREATE TABLE rv_event (id revts8 PRIMARY KEY DEFAULT revts8_new(), n int);
INSERT INTO rv_event (n) SELECT g FROM generate_series(1, 10000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       bool_and(revts8_generator(id) = 63 AND revts8_cluster(id) = 15) AS settings_ok,
       bool_and(revts8_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent
FROM rv_event;
SELECT count(*) AS not_increasing FROM (
    SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM rv_event) s WHERE prev >= id;
SELECT max(c) <= 64 AS capacity_ok, count(*) >= 157 AS enough_ms FROM (
    SELECT count(*) AS c FROM rv_event GROUP BY revts8_timestamp(id)) s;
SELECT count(*) AS sequence_not_restarted FROM (
    SELECT revts8_sequence(id) AS s, revts8_timestamp(id) AS t, lag(revts8_timestamp(id)) OVER (ORDER BY id) AS prev_t
    FROM rv_event) x WHERE t <> prev_t AND s <> 0;
ANALYZE rv_event;
EXPLAIN (COSTS OFF) SELECT * FROM rv_event WHERE id >= revts8_boundary('2024-01-01Z') AND id < revts8_boundary('2024-01-02Z');
ALTER SYSTEM RESET uid.generator;
ALTER SYSTEM RESET uid.cluster;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.cluster', '0') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.cluster;
-- a reload reaches the IDs of a session that generated before it
SELECT revts8_generator(x.id) AS generator, revts8_cluster(x.id) AS cluster
FROM (SELECT revts8_new() AS id) x;
DROP TABLE rv_event;
SELECT proname, provolatile, proparallel, pg_get_function_arguments(oid)
FROM pg_proc WHERE proname LIKE 'revts8\_%' AND proname NOT SIMILAR TO
  'revts8_(in|out|recv|send|eq|ne|lt|le|gt|ge|bytes_lt|bytes_le|bytes_gt|bytes_ge)'
ORDER BY proname, pronargs;
