-- Range partitioning by an ID's time: the bounds of a partition are the IDs
-- T_boundary(a) and T_boundary(b), so that it holds exactly the IDs made in
-- [a, b).  Pruning at plan time and at run time, and uid_create_partitions().
SET TimeZone = 'UTC';
\set SHOW_CONTEXT never

-- The boundary functions' volatility: all IMMUTABLE but snowflake_si's, which
-- reads uid.snowflake_si_epoch (STABLE).  Bound expressions of CREATE TABLE
-- ... PARTITION OF take either: they are evaluated once, at CREATE TABLE.
SELECT p.oid::regprocedure AS boundary, p.provolatile
FROM pg_proc p WHERE p.proname LIKE '%\_boundary' AND p.pronamespace = 'public'::regnamespace AND p.pronargs = 1
ORDER BY p.proname;

-- 1. The pattern by hand: three months of each type.
CREATE TABLE ev_sno (id sno, note text) PARTITION BY RANGE (id);
CREATE TABLE ev_sno_p202610 PARTITION OF ev_sno FOR VALUES FROM (sno_boundary('2026-10-01Z')) TO (sno_boundary('2026-11-01Z'));
CREATE TABLE ev_sno_p202611 PARTITION OF ev_sno FOR VALUES FROM (sno_boundary('2026-11-01Z')) TO (sno_boundary('2026-12-01Z'));
CREATE TABLE ev_sno_p202612 PARTITION OF ev_sno FOR VALUES FROM (sno_boundary('2026-12-01Z')) TO (sno_boundary('2027-01-01Z'));
CREATE TABLE ev_muid (id muid, note text) PARTITION BY RANGE (id);
CREATE TABLE ev_muid_p202610 PARTITION OF ev_muid FOR VALUES FROM (muid_boundary('2026-10-01Z')) TO (muid_boundary('2026-11-01Z'));
CREATE TABLE ev_muid_p202611 PARTITION OF ev_muid FOR VALUES FROM (muid_boundary('2026-11-01Z')) TO (muid_boundary('2026-12-01Z'));
CREATE TABLE ev_muid_p202612 PARTITION OF ev_muid FOR VALUES FROM (muid_boundary('2026-12-01Z')) TO (muid_boundary('2027-01-01Z'));
CREATE TABLE ev_snowflake_si (id snowflake_si, note text) PARTITION BY RANGE (id);
CREATE TABLE ev_snowflake_si_p202610 PARTITION OF ev_snowflake_si FOR VALUES FROM (snowflake_si_boundary('2026-10-01Z')) TO (snowflake_si_boundary('2026-11-01Z'));
CREATE TABLE ev_snowflake_si_p202611 PARTITION OF ev_snowflake_si FOR VALUES FROM (snowflake_si_boundary('2026-11-01Z')) TO (snowflake_si_boundary('2026-12-01Z'));
CREATE TABLE ev_snowflake_si_p202612 PARTITION OF ev_snowflake_si FOR VALUES FROM (snowflake_si_boundary('2026-12-01Z')) TO (snowflake_si_boundary('2027-01-01Z'));
CREATE TABLE ev_revts8 (id revts8, note text) PARTITION BY RANGE (id);
CREATE TABLE ev_revts8_p202610 PARTITION OF ev_revts8 FOR VALUES FROM (revts8_boundary('2026-10-01Z')) TO (revts8_boundary('2026-11-01Z'));
CREATE TABLE ev_revts8_p202611 PARTITION OF ev_revts8 FOR VALUES FROM (revts8_boundary('2026-11-01Z')) TO (revts8_boundary('2026-12-01Z'));
CREATE TABLE ev_revts8_p202612 PARTITION OF ev_revts8 FOR VALUES FROM (revts8_boundary('2026-12-01Z')) TO (revts8_boundary('2027-01-01Z'));
CREATE TABLE ev_uid60 (id uid60, note text) PARTITION BY RANGE (id);
CREATE TABLE ev_uid60_p202610 PARTITION OF ev_uid60 FOR VALUES FROM (uid60_boundary('2026-10-01Z')) TO (uid60_boundary('2026-11-01Z'));
CREATE TABLE ev_uid60_p202611 PARTITION OF ev_uid60 FOR VALUES FROM (uid60_boundary('2026-11-01Z')) TO (uid60_boundary('2026-12-01Z'));
CREATE TABLE ev_uid60_p202612 PARTITION OF ev_uid60 FOR VALUES FROM (uid60_boundary('2026-12-01Z')) TO (uid60_boundary('2027-01-01Z'));

-- The catalog keeps the bounds as IDs (revts8's text is its reversed bytes,
-- snowflake_si's depends on the base clock the bounds were computed under).
SELECT c.oid::regclass AS partition, pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent IN ('ev_sno'::regclass, 'ev_muid'::regclass, 'ev_snowflake_si'::regclass,
                      'ev_revts8'::regclass, 'ev_uid60'::regclass)
ORDER BY c.relname;

-- The first ID of a month is its boundary; the last ID of the month before
-- (its last tick, every other field at its largest) is just below it.
SELECT sno_from_parts('2026-11-01Z', 0, 0, 0, 0) = sno_boundary('2026-11-01Z') AS sno,
       muid_from_parts('2026-11-01Z', 0, 0) = muid_boundary('2026-11-01Z') AS muid,
       snowflake_si_from_parts('2026-11-01Z', 0, 0) = snowflake_si_boundary('2026-11-01Z') AS snowflake_si,
       revts8_from_parts('2026-11-01Z', 0, 0, 0) = revts8_boundary('2026-11-01Z') AS revts8,
       uid60_from_parts('2026-11-01Z', 0, 0, 0) = uid60_boundary('2026-11-01Z') AS uid60;

-- Rows at chosen times: the last ID of each month, the first of the next,
-- one in the middle.
INSERT INTO ev_sno VALUES
    (sno_from_parts('2026-10-31 23:59:59.999Z', 255, 65535, 65535, 1), 'last of October'),
    (sno_boundary('2026-11-01Z'), 'first of November'),
    (sno_from_parts('2026-11-15 12:00Z', 7, 1, 2), 'mid November'),
    (sno_from_parts('2026-11-30 23:59:59.999Z', 255, 65535, 65535, 1), 'last of November'),
    (sno_from_parts('2026-12-01Z', 0, 0, 0, 0), 'first of December'),
    (sno_from_parts('2026-12-31 23:59:59.999Z', 255, 65535, 65535, 1), 'last of December');
INSERT INTO ev_muid VALUES
    (muid_from_parts('2026-10-31 23:59:59.999999Z', 17592186044415, -1), 'last of October'),
    (muid_boundary('2026-11-01Z'), 'first of November'),
    (muid_from_parts('2026-11-15 12:00Z', 42, 1), 'mid November'),
    (muid_from_parts('2026-11-30 23:59:59.999999Z', 17592186044415, -1), 'last of November'),
    (muid_from_parts('2026-12-01Z', 0, 0), 'first of December'),
    (muid_from_parts('2026-12-31 23:59:59.999999Z', 17592186044415, -1), 'last of December');
INSERT INTO ev_snowflake_si VALUES
    (snowflake_si_from_parts('2026-10-31 23:59:59.999Z', 31, 255), 'last of October'),
    (snowflake_si_boundary('2026-11-01Z'), 'first of November'),
    (snowflake_si_from_parts('2026-11-15 12:00Z', 3, 4), 'mid November'),
    (snowflake_si_from_parts('2026-11-30 23:59:59.999Z', 31, 255), 'last of November'),
    (snowflake_si_from_parts('2026-12-01Z', 0, 0), 'first of December'),
    (snowflake_si_from_parts('2026-12-31 23:59:59.999Z', 31, 255), 'last of December');
INSERT INTO ev_revts8 VALUES
    (revts8_from_parts('2026-10-31 23:59:59.999Z', 63, 63, 15), 'last of October'),
    (revts8_boundary('2026-11-01Z'), 'first of November'),
    (revts8_from_parts('2026-11-15 12:00Z', 1, 2, 3), 'mid November'),
    (revts8_from_parts('2026-11-30 23:59:59.999Z', 63, 63, 15), 'last of November'),
    (revts8_from_parts('2026-12-01Z', 0, 0, 0), 'first of December'),
    (revts8_from_parts('2026-12-31 23:59:59.999Z', 63, 63, 15), 'last of December');
INSERT INTO ev_uid60 VALUES
    (uid60_from_parts('2026-10-31 23:59:59Z', 511, 1023, 511), 'last of October'),
    (uid60_boundary('2026-11-01Z'), 'first of November'),
    (uid60_from_parts('2026-11-15 12:00Z', 1, 2, 3), 'mid November'),
    (uid60_from_parts('2026-11-30 23:59:59Z', 511, 1023, 511), 'last of November'),
    (uid60_from_parts('2026-12-01Z', 0, 0, 0), 'first of December'),
    (uid60_from_parts('2026-12-31 23:59:59Z', 511, 1023, 511), 'last of December');

-- Each row is in the partition of its month.
SELECT note, sno_timestamp(id), tableoid::regclass FROM ev_sno ORDER BY id;
SELECT note, muid_timestamp(id), tableoid::regclass FROM ev_muid ORDER BY id;
SELECT note, snowflake_si_timestamp(id), tableoid::regclass FROM ev_snowflake_si ORDER BY id;
SELECT note, revts8_timestamp(id), tableoid::regclass FROM ev_revts8 ORDER BY id;
SELECT note, uid60_timestamp(id), tableoid::regclass FROM ev_uid60 ORDER BY id;
-- and each partition holds exactly the rows of its month
SELECT tableoid::regclass, count(*),
       bool_and(sno_timestamp(id) >= to_date(right(tableoid::regclass::text, 6), 'YYYYMM')) AS after_start,
       bool_and(sno_timestamp(id) < to_date(right(tableoid::regclass::text, 6), 'YYYYMM') + interval '1 month') AS before_end
FROM ev_sno GROUP BY 1 ORDER BY tableoid::regclass::text;

-- The first ID after the last partition has nowhere to go.
SELECT uid_try($$INSERT INTO ev_sno VALUES (sno_boundary('2027-01-01Z'))$$);
SELECT uid_try($$INSERT INTO ev_snowflake_si VALUES (snowflake_si_boundary('2027-01-01Z'))$$);
SELECT uid_try($$INSERT INTO ev_uid60 VALUES (uid60_from_parts('2026-09-30 23:59:59Z', 511, 1023, 511))$$);

-- 2. Pruning.  An IMMUTABLE boundary of a constant is folded into an ID
-- constant when the query is planned: the plan has the one partition.
EXPLAIN (COSTS OFF)
SELECT * FROM ev_sno WHERE id >= sno_boundary('2026-11-01Z') AND id < sno_boundary('2026-12-01Z');
EXPLAIN (COSTS OFF)
SELECT * FROM ev_uid60 WHERE id >= uid60_boundary('2026-11-01Z') AND id < uid60_boundary('2026-12-01Z');
EXPLAIN (COSTS OFF)
SELECT * FROM ev_revts8 WHERE id >= revts8_boundary('2026-12-01Z');
-- snowflake_si_boundary() is STABLE: the planner keeps the call, and the
-- partitions are pruned when the executor starts ("Subplans Removed").
EXPLAIN (COSTS OFF)
SELECT * FROM ev_snowflake_si WHERE id >= snowflake_si_boundary('2026-11-01Z') AND id < snowflake_si_boundary('2026-12-01Z');
-- the same IDs as IMMUTABLE expressions (a base clock and index width given;
-- a whole millisecond's from_parts with machine and index 0 is its boundary)
-- or as constants are pruned when the query is planned
EXPLAIN (COSTS OFF)
SELECT * FROM ev_snowflake_si
WHERE id >= snowflake_si_from_parts('2026-11-01Z', 0, 0, '2024-01-01Z', 8)
  AND id < snowflake_si_from_parts('2026-12-01Z', 0, 0, '2024-01-01Z', 8);
EXPLAIN (COSTS OFF)
SELECT * FROM ev_snowflake_si WHERE id >= '732561408000000' AND id < '753795072000000';
-- a STABLE argument (a timestamp without time zone becomes a timestamptz in
-- the session's TimeZone) keeps an IMMUTABLE boundary from being folded
EXPLAIN (COSTS OFF)
SELECT * FROM ev_sno WHERE id >= sno_boundary('2026-12-01'::timestamp);
-- The rows are those of the month, however it was pruned.
SELECT count(*) FROM ev_snowflake_si WHERE id >= snowflake_si_boundary('2026-11-01Z') AND id < snowflake_si_boundary('2026-12-01Z');
SELECT count(*) FROM ev_sno WHERE id >= sno_boundary('2026-11-01Z') AND id < sno_boundary('2026-12-01Z');

-- now() is STABLE: "the last day" is pruned when the executor starts.  The
-- table has two months in the past and one partition for everything after
-- them, so the plan is the same whenever the test runs.
CREATE TABLE recent (id sno) PARTITION BY RANGE (id);
CREATE TABLE recent_p202001 PARTITION OF recent FOR VALUES FROM (sno_boundary('2020-01-01Z')) TO (sno_boundary('2020-02-01Z'));
CREATE TABLE recent_p202002 PARTITION OF recent FOR VALUES FROM (sno_boundary('2020-02-01Z')) TO (sno_boundary('2020-03-01Z'));
CREATE TABLE recent_later PARTITION OF recent FOR VALUES FROM (sno_boundary('2020-03-01Z')) TO (MAXVALUE);
EXPLAIN (COSTS OFF)
SELECT * FROM recent WHERE id >= sno_boundary(now() - interval '1 day');
-- A generic plan of a prepared statement is pruned when the executor starts,
-- a custom plan when it is planned.
PREPARE since(timestamptz) AS SELECT * FROM ev_sno WHERE id >= sno_boundary($1);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE since('2026-12-01Z');
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE since('2026-12-01Z');
RESET plan_cache_mode;
DEALLOCATE since;
-- A bound that a subquery computes is known only while the query runs: the
-- partitions it excludes are never executed.
SELECT line FROM uid_explain('SELECT count(*) FROM ev_sno WHERE id >= (SELECT sno_boundary(''2026-12-01Z''))') AS line;
SELECT uid_explain('SELECT count(*) FROM ev_sno WHERE id >= (SELECT sno_boundary(''2026-12-01Z''))',
                   ', ANALYZE, TIMING OFF, SUMMARY OFF, BUFFERS OFF');

-- 3. uid_create_partitions(parent, count, start, width): whole months (or
-- days, weeks, years) in UTC, named parent_pYYYYMM in the parent's schema.
CREATE TABLE fn_sno (id sno, note text) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('fn_sno', 3, '2026-11-15 12:00Z');
-- the same bounds as by hand
SELECT pg_get_expr(c.relpartbound, c.oid) = pg_get_expr(h.relpartbound, h.oid) AS same_bounds
FROM pg_class c JOIN pg_class h ON h.relname = 'ev_sno_p202611' WHERE c.relname = 'fn_sno_p202611';
-- A second call creates only what is missing.  The session's TimeZone plays
-- no part: 09:00 on 1 November in Auckland is still October in UTC.
SET TimeZone = 'Pacific/Auckland';
SELECT partition, from_time AT TIME ZONE 'UTC' AS from_utc, to_time AT TIME ZONE 'UTC' AS to_utc
FROM uid_create_partitions('fn_sno', 4, '2026-11-01 09:00+13');
SET TimeZone = 'UTC';
SELECT * FROM uid_create_partitions('fn_sno', 4, '2026-11-15 12:00Z');
-- A partition with the right bounds counts, whatever its name.
CREATE TABLE fn_sno_march PARTITION OF fn_sno FOR VALUES FROM (sno_boundary('2027-03-01Z')) TO (sno_boundary('2027-04-01Z'));
SELECT * FROM uid_create_partitions('fn_sno', 6, '2026-11-15 12:00Z');
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'fn_sno'::regclass ORDER BY 2;

-- every type; rows land where the hand-made partitions put them
CREATE TABLE fn_muid (id muid) PARTITION BY RANGE (id);
CREATE TABLE fn_snowflake_si (id snowflake_si) PARTITION BY RANGE (id);
CREATE TABLE fn_revts8 (id revts8) PARTITION BY RANGE (id);
CREATE TABLE fn_uid60 (id uid60) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('fn_muid', 3, '2026-10-01Z');
SELECT * FROM uid_create_partitions('fn_snowflake_si', 3, '2026-10-31 23:59:59.999Z');
SELECT * FROM uid_create_partitions('fn_revts8', 3, '2026-10-01Z');
SELECT * FROM uid_create_partitions('fn_uid60', 3, '2026-10-01Z');
INSERT INTO fn_muid SELECT id FROM ev_muid;
INSERT INTO fn_snowflake_si SELECT id FROM ev_snowflake_si;
INSERT INTO fn_revts8 SELECT id FROM ev_revts8;
INSERT INTO fn_uid60 SELECT id FROM ev_uid60;
SELECT 'muid' AS type, count(*) AS rows,
       count(*) FILTER (WHERE right(e.tableoid::regclass::text, 6) = right(f.tableoid::regclass::text, 6)) AS same_month
FROM ev_muid e JOIN fn_muid f USING (id)
UNION ALL
SELECT 'snowflake_si', count(*),
       count(*) FILTER (WHERE right(e.tableoid::regclass::text, 6) = right(f.tableoid::regclass::text, 6))
FROM ev_snowflake_si e JOIN fn_snowflake_si f USING (id)
UNION ALL
SELECT 'revts8', count(*),
       count(*) FILTER (WHERE right(e.tableoid::regclass::text, 6) = right(f.tableoid::regclass::text, 6))
FROM ev_revts8 e JOIN fn_revts8 f USING (id)
UNION ALL
SELECT 'uid60', count(*),
       count(*) FILTER (WHERE right(e.tableoid::regclass::text, 6) = right(f.tableoid::regclass::text, 6))
FROM ev_uid60 e JOIN fn_uid60 f USING (id);

-- Days, ISO weeks (from Monday) and years.
CREATE TABLE fn_day (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('fn_day', 3, '2026-12-31 23:00Z', '1 day');
CREATE TABLE fn_week (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('fn_week', 2, '2026-12-31Z', '1 week');
CREATE TABLE fn_year (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('fn_year', 2, '2026-06-01Z', '1 year');
INSERT INTO fn_day SELECT id FROM ev_sno WHERE id >= sno_boundary('2026-12-31Z');
INSERT INTO fn_week SELECT id FROM ev_sno WHERE id >= sno_boundary('2026-12-28Z');
INSERT INTO fn_year SELECT id FROM ev_sno;
SELECT 'day' AS width, tableoid::regclass::text AS partition, count(*) FROM fn_day GROUP BY 2
UNION ALL
SELECT 'week', tableoid::regclass::text, count(*) FROM fn_week GROUP BY 2
UNION ALL
SELECT 'year', tableoid::regclass::text, count(*) FROM fn_year GROUP BY 2
ORDER BY 1, 2;

-- Names: quoted where they must be, in the parent's schema; a long parent's
-- name is cut so that the suffix stays.
CREATE SCHEMA "Part ""Schema""";
CREATE TABLE "Part ""Schema"""."Ev ent" (id uid60) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('"Part ""Schema"""."Ev ent"', 2, '2026-11-01Z');
CREATE TABLE event_table_with_a_rather_long_name_that_nearly_fills_the_limit (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('event_table_with_a_rather_long_name_that_nearly_fills_the_limit', 1, '2026-11-01Z');
-- The generators' IDs go to the current month's partition.
CREATE TABLE now_sno (id sno DEFAULT sno_new()) PARTITION BY RANGE (id);
CREATE TABLE now_muid (id muid DEFAULT muid_new()) PARTITION BY RANGE (id);
CREATE TABLE now_snowflake_si (id snowflake_si DEFAULT snowflake_si_new()) PARTITION BY RANGE (id);
CREATE TABLE now_revts8 (id revts8 DEFAULT revts8_new()) PARTITION BY RANGE (id);
CREATE TABLE now_uid60 (id uid60 DEFAULT uid60_new()) PARTITION BY RANGE (id);
-- (this month and the next, in case the month ends while the test runs)
CREATE TEMP TABLE made AS
SELECT * FROM uid_create_partitions('now_sno', 2)
UNION ALL SELECT * FROM uid_create_partitions('now_muid', 2)
UNION ALL SELECT * FROM uid_create_partitions('now_snowflake_si', 2)
UNION ALL SELECT * FROM uid_create_partitions('now_revts8', 2)
UNION ALL SELECT * FROM uid_create_partitions('now_uid60', 2);
SELECT count(*) AS made, bool_and(from_time <= now() + interval '1 month' AND to_time > now()) AS around_now FROM made;
INSERT INTO now_sno DEFAULT VALUES;
INSERT INTO now_muid DEFAULT VALUES;
INSERT INTO now_snowflake_si DEFAULT VALUES;
INSERT INTO now_revts8 DEFAULT VALUES;
INSERT INTO now_uid60 DEFAULT VALUES;
SELECT t.type, m.from_time <= t.made AND t.made < m.to_time AS in_its_period
FROM (SELECT 'sno' AS type, tableoid::regclass AS p, sno_timestamp(id) AS made FROM now_sno
      UNION ALL SELECT 'muid', tableoid::regclass, muid_timestamp(id) FROM now_muid
      UNION ALL SELECT 'snowflake_si', tableoid::regclass, snowflake_si_timestamp(id) FROM now_snowflake_si
      UNION ALL SELECT 'revts8', tableoid::regclass, revts8_timestamp(id) FROM now_revts8
      UNION ALL SELECT 'uid60', tableoid::regclass, uid60_timestamp(id) FROM now_uid60) t
JOIN made m ON m.partition = t.p
ORDER BY 1;

-- Errors, and nothing made: a call that fails creates none of its partitions.
SELECT * FROM uid_create_partitions('fn_sno', 0);
SELECT * FROM uid_create_partitions(NULL);
SELECT * FROM uid_create_partitions('fn_sno', 1, '2026-11-01Z', '30 days');
SELECT * FROM uid_create_partitions('fn_sno', 1, '2026-11-01Z', '24 hours');
SELECT * FROM uid_create_partitions('fn_sno', 1, '2026-11-01Z', '2 months');
SELECT * FROM uid_create_partitions('pg_class');
CREATE TABLE bad_list (id sno) PARTITION BY LIST (id);
SELECT * FROM uid_create_partitions('bad_list');
CREATE TABLE bad_hash (id sno) PARTITION BY HASH (id);
SELECT * FROM uid_create_partitions('bad_hash');
CREATE TABLE bad_two (id sno, n integer) PARTITION BY RANGE (id, n);
SELECT * FROM uid_create_partitions('bad_two');
CREATE TABLE bad_expr (id sno) PARTITION BY RANGE ((sno_timestamp(id)));
SELECT * FROM uid_create_partitions('bad_expr');
CREATE TABLE bad_type (id bigint) PARTITION BY RANGE (id);
SELECT * FROM uid_create_partitions('bad_type');
CREATE TABLE bad_order (id revts8) PARTITION BY RANGE (id revts8_bytes_ops);
SELECT * FROM uid_create_partitions('bad_order');
-- before the type's time range (snowflake_si's starts at its base clock),
-- and after it
SELECT * FROM uid_create_partitions('fn_snowflake_si', 1, '2023-12-01Z');
SELECT uid_try($$SELECT * FROM uid_create_partitions('fn_uid60', 2, '2154-03-15Z')$$);
-- a partition that covers part of a period: PostgreSQL's error, with the period
CREATE TABLE fn_sno_odd PARTITION OF fn_sno FOR VALUES FROM (sno_boundary('2027-05-15Z')) TO (sno_boundary('2027-06-15Z'));
SELECT * FROM uid_create_partitions('fn_sno', 8, '2026-11-15 12:00Z');
SELECT count(*) AS partitions FROM pg_inherits WHERE inhparent = 'fn_sno'::regclass;
-- the name taken by another relation, or by another partition
CREATE TABLE fn_sno_p202708 (id sno);
SELECT * FROM uid_create_partitions('fn_sno', 1, '2027-08-01Z');
DROP TABLE fn_sno_p202708;
CREATE TABLE fn_sno_p202708 PARTITION OF fn_sno FOR VALUES FROM (sno_boundary('2027-08-02Z')) TO (sno_boundary('2027-08-03Z'));
SELECT * FROM uid_create_partitions('fn_sno', 1, '2027-08-01Z');
SELECT count(*) AS partitions FROM pg_inherits WHERE inhparent = 'fn_sno'::regclass;

-- The caller's privileges: a role that does not own the table cannot add
-- partitions to it.
CREATE ROLE regress_uid_partition;
GRANT CREATE ON SCHEMA public TO regress_uid_partition;
SET ROLE regress_uid_partition;
SELECT * FROM uid_create_partitions('fn_sno', 1, '2027-09-01Z');
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_uid_partition;
DROP ROLE regress_uid_partition;

DROP TABLE ev_sno, ev_muid, ev_snowflake_si, ev_revts8, ev_uid60, recent,
    fn_sno, fn_muid, fn_snowflake_si, fn_revts8, fn_uid60, fn_day, fn_week, fn_year,
    event_table_with_a_rather_long_name_that_nearly_fills_the_limit,
    now_sno, now_muid, now_snowflake_si, now_revts8, now_uid60;
DROP SCHEMA "Part ""Schema""" CASCADE;

-- 4. uid_maintain_partitions(parent, premake, retention, retention_action,
-- width, batch_size, as_of): what a pg_cron job runs.  as_of stands for now().

-- An OID that is no relation (a job's stored OID of a table dropped since):
-- 42P01 naming it, from each of the three functions (not P0002 "query
-- returned no rows").
DO $$
BEGIN
    PERFORM uid_partition_key(4000000000::oid::regclass);
EXCEPTION WHEN undefined_table THEN RAISE NOTICE 'uid_partition_key: 42P01: %', SQLERRM;
END $$;
DO $$
BEGIN
    PERFORM uid_create_partitions(4000000000::oid::regclass);
EXCEPTION WHEN undefined_table THEN RAISE NOTICE 'uid_create_partitions: 42P01: %', SQLERRM;
END $$;
DO $$
BEGIN
    PERFORM uid_maintain_partitions(4000000000::oid::regclass);
EXCEPTION WHEN undefined_table THEN RAISE NOTICE 'uid_maintain_partitions: 42P01: %', SQLERRM;
END $$;

-- Premake: the period of as_of and premake more, in the width of the newest
-- partition; a second run has nothing to do.
CREATE TABLE mt_sno (id sno PRIMARY KEY, note text) PARTITION BY RANGE (id);
SELECT * FROM uid_partition_key('mt_sno');
SELECT * FROM uid_create_partitions('mt_sno', 1, '2026-11-01Z');
SELECT * FROM uid_maintain_partitions('mt_sno', 2, as_of => '2026-11-15 12:00Z');
SELECT * FROM uid_maintain_partitions('mt_sno', 2, as_of => '2026-11-15 12:00Z');
-- premake 0: the current period alone; a null premake creates nothing
SELECT * FROM uid_maintain_partitions('mt_sno', 0, as_of => '2027-03-02Z');
SELECT * FROM uid_maintain_partitions('mt_sno', NULL, as_of => '2027-09-02Z');
-- Every type, and the width of the newest partition: a day, an ISO week, a
-- month, a year.  snowflake_si's first month starts at 0 (its base clock).
CREATE TABLE mt_muid (id muid) PARTITION BY RANGE (id);
CREATE TABLE mt_snowflake_si (id snowflake_si) PARTITION BY RANGE (id);
CREATE TABLE mt_revts8 (id revts8) PARTITION BY RANGE (id);
CREATE TABLE mt_uid60 (id uid60) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_create_partitions('mt_muid', 1, '2026-12-31Z', '1 day');
SELECT count(*) FROM uid_create_partitions('mt_snowflake_si', 1, '2024-01-01Z');
SELECT count(*) FROM uid_create_partitions('mt_revts8', 1, '2026-12-31Z', '1 week');
SELECT count(*) FROM uid_create_partitions('mt_uid60', 1, '2026-12-31Z', '1 year');
SELECT * FROM uid_maintain_partitions('mt_muid', 2, as_of => '2026-12-31 23:59:59.999999Z');
SELECT * FROM uid_maintain_partitions('mt_snowflake_si', 1, as_of => '2024-01-31Z');
SELECT * FROM uid_maintain_partitions('mt_revts8', 1, as_of => '2027-01-04Z');
SELECT * FROM uid_maintain_partitions('mt_uid60', 1, as_of => '2027-06-01Z');
-- The session's TimeZone plays no part: 09:00 on 1 February in Auckland is
-- still January in UTC, so January, February and March, not April.
SET TimeZone = 'Pacific/Auckland';
SELECT action, partition, from_time AT TIME ZONE 'UTC' AS from_utc, to_time AT TIME ZONE 'UTC' AS to_utc
FROM uid_maintain_partitions('mt_sno', 2, as_of => '2027-02-01 09:00+13');
SET TimeZone = 'UTC';

-- The width cannot be inferred without a partition, or from one that is no
-- whole UTC period: the call says so, and a width given is used.
CREATE TABLE mt_empty (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_maintain_partitions('mt_empty', 1, as_of => '2026-11-15Z');
SELECT * FROM uid_maintain_partitions('mt_empty', 1, width => '1 week', as_of => '2026-11-15Z');
-- (nothing to create and nothing to retire: no width is needed)
CREATE TABLE mt_odd (id sno) PARTITION BY RANGE (id);
SELECT * FROM uid_maintain_partitions('mt_odd', NULL, '1 year', as_of => '2026-11-15Z');
CREATE TABLE mt_odd_a PARTITION OF mt_odd FOR VALUES FROM (sno_boundary('2026-11-01Z')) TO (sno_boundary('2026-11-15Z'));
SELECT * FROM uid_maintain_partitions('mt_odd', 1, as_of => '2026-11-15Z');
CREATE TABLE mt_odd_b PARTITION OF mt_odd FOR VALUES FROM (sno_boundary('2026-11-15Z')) TO (MAXVALUE);
SELECT * FROM uid_maintain_partitions('mt_odd', 1, as_of => '2026-11-15Z');
-- a local month (Paris) is not a UTC month
CREATE TABLE mt_paris (id sno) PARTITION BY RANGE (id);
CREATE TABLE mt_paris_p202611 PARTITION OF mt_paris
    FOR VALUES FROM (sno_boundary('2026-11-01 00:00 Europe/Paris')) TO (sno_boundary('2026-12-01 00:00 Europe/Paris'));
SELECT * FROM uid_maintain_partitions('mt_paris', 1, as_of => '2026-11-15Z');

-- Retention: the partitions whose every ID was made before as_of - retention
-- (UTC arithmetic) are detached, oldest first; the one that ends after the
-- cutoff stays, a partition FROM MINVALUE counts, TO MAXVALUE and the
-- default never do.  Detached partitions are tables of their own.
CREATE TABLE mt_ret (id uid60) PARTITION BY RANGE (id);
CREATE TABLE mt_ret_old PARTITION OF mt_ret FOR VALUES FROM (MINVALUE) TO (uid60_boundary('2026-01-01Z'));
SELECT count(*) FROM uid_create_partitions('mt_ret', 6, '2026-01-01Z');
CREATE TABLE mt_ret_later PARTITION OF mt_ret FOR VALUES FROM (uid60_boundary('2026-07-01Z')) TO (MAXVALUE);
CREATE TABLE mt_ret_default PARTITION OF mt_ret DEFAULT;
INSERT INTO mt_ret VALUES (uid60_from_parts('2026-03-31 23:59:59Z', 1, 2, 3)), (uid60_boundary('2026-04-01Z'));
-- cutoff 2026-04-01: March ends there, April begins there
SELECT * FROM uid_maintain_partitions('mt_ret', NULL, '3 months', as_of => '2026-07-01Z');
SELECT c.relname, c.relispartition
FROM pg_class c WHERE c.relname IN ('mt_ret_old', 'mt_ret_p202601', 'mt_ret_p202602', 'mt_ret_p202603') ORDER BY 1;
SELECT uid60_timestamp(id) AS in_detached_march FROM mt_ret_p202603;
SELECT tableoid::regclass, uid60_timestamp(id) FROM mt_ret;
-- drop; a second run has nothing to do
SELECT * FROM uid_maintain_partitions('mt_ret', NULL, '1 month', 'drop', as_of => '2026-07-01Z');
SELECT * FROM uid_maintain_partitions('mt_ret', NULL, '1 month', 'drop', as_of => '2026-07-01Z');
SELECT c.relname FROM pg_class c WHERE c.relname LIKE 'mt\_ret\_p%' ORDER BY 1;
-- The cutoff is computed in UTC: Auckland's clocks went forward on 27
-- September 2026, so 12:30 that day in Auckland less one day of Auckland's
-- calendar would be 00:30 on the 26th in UTC and retire the 25th; in UTC
-- it is 23:30 on the 25th, and only the 24th goes.
CREATE TABLE mt_utc (id sno) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_create_partitions('mt_utc', 2, '2026-09-24Z', '1 day');
SET TimeZone = 'Pacific/Auckland';
SELECT action, partition, from_time AT TIME ZONE 'UTC' AS from_utc, to_time AT TIME ZONE 'UTC' AS to_utc
FROM uid_maintain_partitions('mt_utc', NULL, '1 day', as_of => '2026-09-27 12:30+13');
SET TimeZone = 'UTC';

-- The DEFAULT partition's rows: each period that has rows there gets its
-- partition, and the rows move into it, batch_size rows a statement.  The
-- default's columns are in another order than the parent's; generated and
-- identity columns keep their values; a row without a key stays.
CREATE TABLE mt_def (id sno, note text, loud text GENERATED ALWAYS AS (upper(note)) STORED,
                     n integer GENERATED ALWAYS AS IDENTITY) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_create_partitions('mt_def', 1, '2026-11-01Z');
CREATE TABLE mt_def_rest (note text, n integer NOT NULL, id sno, loud text GENERATED ALWAYS AS (upper(note)) STORED);
ALTER TABLE mt_def ATTACH PARTITION mt_def_rest DEFAULT;
INSERT INTO mt_def (id, note)
SELECT sno_from_parts(t, 0, 0, 0, 0), 'row at ' || to_char(t, 'YYYY-MM-DD HH24:MI')
FROM (VALUES ('2026-09-30 23:59:59.996Z'::timestamptz), ('2026-10-01Z'), ('2026-10-02Z'), ('2026-10-03Z'),
             ('2026-10-04Z'), ('2026-10-31 23:59:59.996Z'), ('2026-11-20Z'), ('2027-02-03Z')) v (t);
INSERT INTO mt_def (id, note) VALUES (NULL, 'no key');
SELECT tableoid::regclass, count(*) FROM mt_def GROUP BY 1 ORDER BY tableoid::regclass::text;
SELECT * FROM uid_maintain_partitions('mt_def', 1, batch_size => 2, as_of => '2026-11-15Z');
SELECT tableoid::regclass, n, id, note, loud FROM mt_def ORDER BY n;
-- the identity goes on from where it was
INSERT INTO mt_def (id, note) VALUES (sno_boundary('2026-11-21Z'), 'after') RETURNING n;
-- nothing left to move
SELECT * FROM uid_maintain_partitions('mt_def', 1, batch_size => 2, as_of => '2026-11-15Z');

-- Rows of a period that another partition covers in part: PostgreSQL's
-- error, and nothing moved.
CREATE TABLE mt_part (id sno) PARTITION BY RANGE (id);
CREATE TABLE mt_part_half PARTITION OF mt_part FOR VALUES FROM (sno_boundary('2026-11-01Z')) TO (sno_boundary('2026-11-15Z'));
CREATE TABLE mt_part_default PARTITION OF mt_part DEFAULT;
INSERT INTO mt_part VALUES (sno_boundary('2026-11-20Z'));
SELECT * FROM uid_maintain_partitions('mt_part', NULL, width => '1 month', as_of => '2026-11-20Z');
SELECT tableoid::regclass, count(*) FROM mt_part GROUP BY 1;
-- A foreign key that references the table: moving a row would delete it.
CREATE TABLE mt_ref (id sno PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE mt_ref_default PARTITION OF mt_ref DEFAULT;
CREATE TABLE mt_refs (ref sno REFERENCES mt_ref ON DELETE CASCADE);
INSERT INTO mt_ref VALUES (sno_boundary('2026-11-20Z'));
INSERT INTO mt_refs VALUES (sno_boundary('2026-11-20Z'));
SELECT * FROM uid_maintain_partitions('mt_ref', 1, width => '1 month', as_of => '2026-11-20Z');
SELECT count(*) AS referencing FROM mt_refs;
-- The same action on the DEFAULT partition and on a partition, not on the
-- table: a foreign key that references the DEFAULT partition itself fires on
-- the move's DELETE just as one to the table does (uid 0.7.0 before this
-- test: ON DELETE CASCADE deleted every referencing row, SET NULL nulled
-- every reference, RESTRICT and NO ACTION failed with the key's own 23503
-- after the rows had left the default), so it is refused before any row
-- moves, naming the key; one that references another partition is untouched
-- by the move, and keeps every row.  Each case in a subtransaction of its
-- own, rolled back.
CREATE TABLE mt_fk (id sno PRIMARY KEY, note text) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_create_partitions('mt_fk', 1, '2026-10-01Z');
CREATE TABLE mt_fk_default PARTITION OF mt_fk DEFAULT;
INSERT INTO mt_fk SELECT sno_from_parts(t, 0, 0, 0, 0), 'old'
FROM generate_series('2026-10-02Z'::timestamptz, '2026-10-11Z', '1 day') t;
INSERT INTO mt_fk SELECT sno_from_parts(t, 0, 0, 0, 0), 'in the default'
FROM generate_series('2026-11-02Z'::timestamptz, '2026-11-11Z', '1 day') t;
SELECT tableoid::regclass, count(*) FROM mt_fk GROUP BY 1 ORDER BY tableoid::regclass::text;
CREATE FUNCTION mt_fk_case(target text, action text, OUT moved bigint, OUT error text,
                           OUT referencing bigint, OUT references_kept bigint)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE mt_fk_refs (ref sno REFERENCES %s ON DELETE %s)', target, action);
    EXECUTE format('INSERT INTO mt_fk_refs SELECT id FROM %s', target);
    BEGIN
        SELECT sum(m.rows_moved) INTO moved
        FROM uid_maintain_partitions('mt_fk', NULL, width => '1 month', as_of => '2026-11-20Z') m;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS error = RETURNED_SQLSTATE;
    END;
    SELECT count(*), count(*) FILTER (WHERE r.ref IN (SELECT id FROM mt_fk))
    INTO referencing, references_kept FROM mt_fk_refs r;
    RAISE EXCEPTION 'rolled back' USING ERRCODE = 'P0099';
EXCEPTION WHEN SQLSTATE 'P0099' THEN
    RETURN;
END
$$;
SELECT t.target, a.action, c.*
FROM (VALUES ('mt_fk_default'), ('mt_fk_p202610'), ('mt_fk')) t (target),
     (VALUES ('CASCADE'), ('SET NULL'), ('RESTRICT'), ('NO ACTION')) a (action),
     mt_fk_case(t.target, a.action) c
ORDER BY 1, 2;
-- the refusal, in full; a key whose table is partitioned too (its clones
-- reference the default) is named once
CREATE TABLE mt_fk_refs (ref sno, CONSTRAINT mt_fk_refs_to_default FOREIGN KEY (ref) REFERENCES mt_fk_default ON DELETE SET NULL)
    PARTITION BY HASH (ref);
CREATE TABLE mt_fk_refs_0 PARTITION OF mt_fk_refs FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE mt_fk_refs_1 PARTITION OF mt_fk_refs FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE mt_fk_refs_too (ref sno REFERENCES mt_fk ON DELETE SET NULL);
INSERT INTO mt_fk_refs SELECT id FROM mt_fk_default;
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, width => '1 month', as_of => '2026-11-20Z');
SELECT count(*) AS referencing, count(ref) AS references FROM mt_fk_refs;
SELECT tableoid::regclass, count(*) FROM mt_fk GROUP BY 1 ORDER BY tableoid::regclass::text;
DROP TABLE mt_fk_refs, mt_fk_refs_too;
-- the way out the HINT gives for a key to the table: every reference kept
CREATE TABLE mt_fk_refs (ref sno CONSTRAINT mt_fk_refs_to_table REFERENCES mt_fk ON DELETE CASCADE DEFERRABLE);
INSERT INTO mt_fk_refs SELECT id FROM mt_fk;
INSERT INTO mt_fk SELECT sno_from_parts(t, 0, 0, 0, 0), 'in the default'
FROM generate_series('2027-01-02Z'::timestamptz, '2027-01-11Z', '1 day') t;
INSERT INTO mt_fk_refs SELECT id FROM mt_fk_default;
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, width => '1 month', as_of => '2026-11-20Z');
BEGIN;
ALTER TABLE mt_fk_refs DROP CONSTRAINT mt_fk_refs_to_table;
SELECT action, partition, rows_moved FROM uid_maintain_partitions('mt_fk', NULL, width => '1 month', as_of => '2026-11-20Z');
ALTER TABLE mt_fk_refs ADD CONSTRAINT mt_fk_refs_to_table FOREIGN KEY (ref) REFERENCES mt_fk(id) ON DELETE CASCADE DEFERRABLE;
COMMIT;
SELECT count(*) AS referencing, count(*) FILTER (WHERE ref IN (SELECT id FROM mt_fk)) AS references_kept FROM mt_fk_refs;
SELECT tableoid::regclass, count(*) FROM mt_fk GROUP BY 1 ORDER BY tableoid::regclass::text;
DROP TABLE mt_fk_refs;
-- Retention never deletes a row either: PostgreSQL refuses to drop a
-- partition that a foreign key references, and to detach one whose rows a
-- key to the table still references; a partition detached keeps the rows a
-- key to it references.
CREATE TABLE mt_fk_refs (ref sno REFERENCES mt_fk_p202610 ON DELETE CASCADE);
INSERT INTO mt_fk_refs SELECT id FROM mt_fk_p202610;
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, '1 month', 'drop', width => '1 month', as_of => '2026-12-15Z');
BEGIN;
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, '1 month', 'detach', width => '1 month', as_of => '2026-12-15Z');
SELECT count(*) AS referencing, count(*) FILTER (WHERE ref IN (SELECT id FROM mt_fk_p202610)) AS references_kept FROM mt_fk_refs;
ROLLBACK;
DROP TABLE mt_fk_refs;
CREATE TABLE mt_fk_refs (ref sno REFERENCES mt_fk ON DELETE CASCADE);
INSERT INTO mt_fk_refs SELECT id FROM mt_fk_p202610;
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, '1 month', 'drop', width => '1 month', as_of => '2026-12-15Z');
-- (the key's clone on the partition is named by PostgreSQL, differently
-- from 18 on: its SQLSTATE only)
\set VERBOSITY sqlstate
SELECT * FROM uid_maintain_partitions('mt_fk', NULL, '1 month', 'detach', width => '1 month', as_of => '2026-12-15Z');
\set VERBOSITY default
SELECT count(*) AS referencing FROM mt_fk_refs;
DROP TABLE mt_fk_refs;
DROP FUNCTION mt_fk_case;

-- Errors.
SELECT * FROM uid_maintain_partitions('mt_sno', -1);
SELECT * FROM uid_maintain_partitions('mt_sno', retention => '0');
SELECT * FROM uid_maintain_partitions('mt_sno', retention => '-1 month');
SELECT * FROM uid_maintain_partitions('mt_sno', retention => '1 month', retention_action => 'archive');
SELECT * FROM uid_maintain_partitions('mt_sno', batch_size => 0);
SELECT * FROM uid_maintain_partitions('mt_sno', width => '30 days');
SELECT * FROM uid_maintain_partitions('mt_sno', as_of => NULL);
SELECT * FROM uid_maintain_partitions(NULL);
SELECT * FROM uid_maintain_partitions('pg_class');
SELECT * FROM uid_maintain_partitions('bad_list');
SELECT * FROM uid_maintain_partitions('bad_two');
SELECT * FROM uid_maintain_partitions('bad_type');
SELECT * FROM uid_maintain_partitions('bad_order');
-- a role that does not own the table
CREATE ROLE regress_uid_partition;
SET ROLE regress_uid_partition;
SELECT * FROM uid_maintain_partitions('mt_sno', 1, as_of => '2027-09-01Z');
RESET ROLE;
DROP ROLE regress_uid_partition;

DROP TABLE mt_sno, mt_muid, mt_snowflake_si, mt_revts8, mt_uid60, mt_empty, mt_odd, mt_paris,
    mt_ret, mt_ret_old, mt_ret_p202601, mt_ret_p202602, mt_ret_p202603, mt_utc, mt_utc_p20260924,
    mt_def, mt_part,
    mt_refs, mt_ref, mt_fk;
DROP TABLE bad_list, bad_hash, bad_two, bad_expr, bad_type, bad_order;
