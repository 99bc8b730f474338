-- snowflake_si: from_parts, boundaries, settings and generation.
SET TimeZone = 'UTC';

-- from_parts floors to the millisecond; every field out of range is an error
SELECT snowflake_si_from_parts('2024-06-01 12:00:00.1239+00', 3, 200) AS id,
       snowflake_si_timestamp(snowflake_si_from_parts('2024-06-01 12:00:00.1239+00', 3, 200)) AS ts;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 32, 0)$$),
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', -1, 0)$$),
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 0, 256)$$),
  ($$SELECT snowflake_si_from_parts('2023-12-31 23:59:59.999Z', 0, 0)$$),
  ($$SELECT snowflake_si_from_parts('2059-01-01Z', 0, 0)$$),
  ($$SELECT snowflake_si_machine('8192', 0)$$),
  ($$SELECT snowflake_si_index('8192', 14)$$),
  ($$SELECT snowflake_si_timestamp('8192', '2003-03-18 07:20:19.224+00')$$),
  ($$SELECT snowflake_si_timestamp('8192', '2004-01-01 00:00:00.0005+00')$$),
  ($$SELECT snowflake_si_timestamp('8192', 'infinity')$$),
  ($$SELECT snowflake_si_boundary('2059-01-01Z')$$)
) v(stmt);
-- the field layout follows the index width
SELECT id AS k4, snowflake_si_machine(id, 4) AS mid, snowflake_si_index(id, 4) AS uin,
       snowflake_si_timestamp(id, '2024-01-01Z') AS ts
FROM (SELECT snowflake_si_from_parts('2024-06-01Z', 511, 15, '2024-01-01Z', 4) AS id) s;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 512, 0, '2024-01-01Z', 4)$$),
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 0, 16, '2024-01-01Z', 4)$$),
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 0, 0, '2024-01-01Z', 0)$$),
  ($$SELECT snowflake_si_from_parts('2024-06-01Z', 0, 0, '2003-01-01Z', 8)$$),
  ($$SELECT snowflake_si_from_parts('2003-06-01Z', 0, 0, '2004-01-01Z', 8)$$)
) v(stmt);
-- The last base clock: its IDs' times, to the 40-bit end, have their Unix
-- microseconds in a bigint.  The next millisecond is refused, as is every
-- later timestamptz; so is the setting (config).
SELECT snowflake_si_from_parts('294212-03-08 08:07:07+00', 0, 0, '294212-03-08 08:07:07+00', 8) AS first,
       snowflake_si_from_parts('294247-01-10 04:00:54.775999+00', 31, 255, '294212-03-08 08:07:07+00', 8) AS last;
SELECT id, snowflake_si_timestamp(id, '294212-03-08 08:07:07+00') AS ts,
       snowflake_si_from_parts(snowflake_si_timestamp(id, '294212-03-08 08:07:07+00'),
                               snowflake_si_machine(id), snowflake_si_index(id),
                               '294212-03-08 08:07:07+00', 8) = id AS round_trips
FROM (VALUES ('0'::snowflake_si), ('8192'), ('9007199254740991')) v(id);
SELECT snowflake_si_from_parts('294247-01-10 04:00:54.776+00', 0, 0, '294212-03-08 08:07:07+00', 8);
SELECT snowflake_si_timestamp('9007199254740991', '294212-03-08 08:07:07.001+00');
SELECT snowflake_si_from_parts('294212-03-08 08:07:07.001+00', 0, 0, '294212-03-08 08:07:07.001+00', 8);
SELECT snowflake_si_timestamp('0', '294276-12-31 23:59:59.999+00');
-- uid_citus_agree() notes a layout by the same rule (read back in microseconds)
SELECT uid_citus_agree('294212-03-08 08:07:07.001+00', 8);

-- boundaries
SELECT snowflake_si_boundary('2024-01-01Z') AS at_epoch,
       snowflake_si_boundary('2020-01-01Z') AS before_epoch,
       snowflake_si_boundary('2024-01-01 00:00:00.0001Z') AS rounds_up,
       snowflake_si_boundary('2024-01-01 00:00:00.001Z') AS next_ms;
WITH ids AS (
    SELECT snowflake_si_from_parts('2024-01-01Z'::timestamptz + g * interval '0.5 ms', g % 32, g % 256) AS id
    FROM generate_series(0, 999) g)
SELECT count(*) FILTER (WHERE id >= snowflake_si_boundary('2024-01-01 00:00:00.1+00')
                          AND id <  snowflake_si_boundary('2024-01-01 00:00:00.2+00')) AS by_boundary,
       count(*) FILTER (WHERE snowflake_si_timestamp(id) >= '2024-01-01 00:00:00.1+00'
                          AND snowflake_si_timestamp(id) <  '2024-01-01 00:00:00.2+00') AS by_time
FROM ids;

-- generation: a machine id that does not fit is an error naming the setting
-- (the settings are the server's: ALTER SYSTEM, then a reload that this
-- session has processed)
ALTER SYSTEM SET uid.generator = 32;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '32') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
SELECT snowflake_si_new();
ALTER SYSTEM SET uid.generator = 31;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '31') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
SELECT snowflake_si_machine(snowflake_si_new()) AS largest_that_fits;
ALTER SYSTEM SET uid.generator = 9;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '9') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
CREATE TABLE sf_event (id snowflake_si PRIMARY KEY DEFAULT snowflake_si_new(), n int);
INSERT INTO sf_event (n) SELECT g FROM generate_series(1, 10000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id::bigint > 9007199254740991) AS not_javascript_safe,
       bool_and(snowflake_si_machine(id) = 9) AS machine_ok,
       bool_and(snowflake_si_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent,
       max(snowflake_si_index(id)) <= 255 AS index_ok
FROM sf_event;
SELECT count(*) AS not_increasing FROM (
    SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM sf_event) s WHERE prev >= id;
-- at most 2^k per millisecond, the index counting from 0 in each
SELECT max(c) <= 256 AS capacity_ok FROM (
    SELECT count(*) AS c FROM sf_event GROUP BY snowflake_si_timestamp(id)) s;
SELECT count(*) AS index_not_restarted FROM (
    SELECT snowflake_si_index(id) AS i, snowflake_si_timestamp(id) AS t,
           lag(snowflake_si_timestamp(id)) OVER (ORDER BY id) AS prev_t
    FROM sf_event) x WHERE t <> prev_t AND i <> 0;
ANALYZE sf_event;
EXPLAIN (COSTS OFF) SELECT * FROM sf_event
WHERE id >= snowflake_si_boundary('2024-01-01Z') AND id < snowflake_si_boundary('2024-01-02Z');
ALTER SYSTEM RESET uid.generator;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.generator', '0') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.generator;
DROP TABLE sf_event;
SELECT proname, provolatile, proparallel, pg_get_function_arguments(oid)
FROM pg_proc WHERE proname LIKE 'snowflake\_si\_%' AND proname NOT SIMILAR TO
  'snowflake_si_(in|out|recv|send|eq|ne|lt|le|gt|ge)'
ORDER BY proname, pronargs;
