-- min() and max() of every type: the same as ORDER BY ... LIMIT 1 in the
-- default btree order, answered from a btree index, and in parallel.
SET TimeZone = 'UTC';
CREATE TABLE agg AS
SELECT g,
       sno_from_parts('2030-01-01Z'::timestamptz + (g % 1000) * interval '4 ms', g % 3, 7, g % 100) AS s,
       muid_from_parts('2030-01-01Z'::timestamptz + (g % 1000) * interval '1 us', 1099511627778 + g % 5, g) AS m,
       snowflake_si_from_parts('2030-01-01Z'::timestamptz + (g % 1000) * interval '1 ms', 1, g % 256) AS f,
       revts8_from_parts('2030-01-01 00:00:00.123Z'::timestamptz + (g % 1000) * interval '1 ms', g % 64, 1, 0) AS r,
       uid60_from_parts('2030-01-01Z'::timestamptz + (g % 1000) * interval '1 s', 1, g % 1024, g % 512) AS u
FROM generate_series(1, 20000) g ORDER BY md5(g::text);
INSERT INTO agg (g) VALUES (0);   -- NULLs are ignored
CREATE VIEW agg_check AS
SELECT min(s) = (SELECT s FROM agg WHERE s IS NOT NULL ORDER BY s LIMIT 1) AS sno_min,
       max(s) = (SELECT s FROM agg WHERE s IS NOT NULL ORDER BY s DESC LIMIT 1) AS sno_max,
       min(m) = (SELECT m FROM agg WHERE m IS NOT NULL ORDER BY m LIMIT 1) AS muid_min,
       max(m) = (SELECT m FROM agg WHERE m IS NOT NULL ORDER BY m DESC LIMIT 1) AS muid_max,
       min(f) = (SELECT f FROM agg WHERE f IS NOT NULL ORDER BY f LIMIT 1) AS snowflake_si_min,
       max(f) = (SELECT f FROM agg WHERE f IS NOT NULL ORDER BY f DESC LIMIT 1) AS snowflake_si_max,
       min(r) = (SELECT r FROM agg WHERE r IS NOT NULL ORDER BY r LIMIT 1) AS revts8_min,
       max(r) = (SELECT r FROM agg WHERE r IS NOT NULL ORDER BY r DESC LIMIT 1) AS revts8_max,
       min(u) = (SELECT u FROM agg WHERE u IS NOT NULL ORDER BY u LIMIT 1) AS uid60_min,
       max(u) = (SELECT u FROM agg WHERE u IS NOT NULL ORDER BY u DESC LIMIT 1) AS uid60_max
FROM agg;
SELECT * FROM agg_check;
-- revts8's min is the earliest, not the smallest in byte order
SELECT revts8_timestamp(min(r)) AS earliest, min(revts8_timestamp(r)) AS earliest_time,
       (SELECT count(*) FROM agg WHERE r ~<~ (SELECT min(r) FROM agg)) AS smaller_in_byte_order
FROM agg;
SELECT min(s) IS NULL AS empty_min, max(m) IS NULL AS empty_max FROM agg WHERE false;
SELECT min(muid_timestamp(m)) = muid_timestamp(min(m)) AS muid_time_order,
       max(uid60_timestamp(u)) = uid60_timestamp(max(u)) AS uid60_time_order
FROM agg;

-- from a btree index
CREATE INDEX agg_m ON agg (m);
CREATE INDEX agg_u ON agg (u);
ANALYZE agg;
SELECT uid_explain('SELECT max(m) FROM agg');
SELECT uid_explain('SELECT min(u) FROM agg');
SELECT * FROM agg_check;

-- in parallel: partial aggregates combined
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT uid_explain('SELECT min(s), max(s), min(m), max(m), min(f), max(f), min(r), max(r), min(u), max(u) FROM agg');
SELECT * FROM agg_check;
RESET ALL;
DROP VIEW agg_check;
DROP TABLE agg;
