-- sno's sequence sharding (uid.sno_sequence_min/max), back-fill
-- (sno_new_at, uid.sno_backfill_min/max), the overflow channel setting and
-- sno_snapshot().  The settings are the server's: ALTER SYSTEM and a reload
-- that this session has processed (waited for as in config.sql); the file
-- resets them at its end.  Back-fill ranges, once used, stay in the state
-- file for good, so the ranges used here are chosen below every one used
-- before (a server that ran this file before), and the messages that name
-- them show them by role.
SET TimeZone = 'UTC';
SELECT count(*) > 0 AS library_loaded FROM uid_config();

-- The settings: the server's, with their bounds.
SELECT name, context, setting, min_val, max_val FROM pg_settings
WHERE name ~ '^uid\.sno_' ORDER BY name;
SELECT uid_try('SET uid.sno_sequence_min = 10') AS set_min,
       uid_try('SET uid.sno_backfill_max = 10') AS set_backfill_max,
       uid_try('SET uid.sno_overflow_channel = ''x''') AS set_channel;
-- each end on its own: a range needs 4 sequences, so min <= 65532, max >= 3
ALTER SYSTEM SET uid.sno_sequence_min = 65533;
ALTER SYSTEM SET uid.sno_sequence_min = -1;
ALTER SYSTEM SET uid.sno_sequence_max = 2;
ALTER SYSTEM SET uid.sno_sequence_max = 65536;
ALTER SYSTEM SET uid.sno_backfill_min = -2;
ALTER SYSTEM SET uid.sno_backfill_min = 65533;
ALTER SYSTEM SET uid.sno_backfill_max = 2;
ALTER SYSTEM SET uid.sno_backfill_max = 0;
ALTER SYSTEM SET uid.sno_overflow_channel = 'cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc';
SELECT name, setting, effective FROM uid_config() WHERE name ~ '^uid\.sno_' ORDER BY name;
-- (up to the back-fill ranges used before, if any: see below)
SELECT sequence_min, sequence_max = coalesce(backfill_used_min - 1, 65535) AS sequence_max_ok,
       capacity_per_tick = sequence_max + 1 AS capacity_ok,
       capacity_per_second = 250 * capacity_per_tick AS per_second_ok
FROM sno_snapshot();

-- A range of 4: every ID in it, at most 4 in any 4 ms unit of a timeline,
-- and a call that finds its unit used up waits for the next one.
ALTER SYSTEM SET uid.sno_sequence_min = 100;
ALTER SYSTEM SET uid.sno_sequence_max = 103;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_sequence_max', '103') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT name, setting, effective FROM uid_config() WHERE name LIKE 'uid.sno_sequence%' ORDER BY name;
SELECT sequence_min, sequence_max, capacity_per_tick, capacity_per_second FROM sno_snapshot();
CREATE TEMP TABLE before AS SELECT overflow_waits FROM uid_stats() WHERE type = 'sno';
CREATE TEMP TABLE shard AS SELECT sno_new() AS id, g FROM generate_series(1, 40) g;
SELECT count(DISTINCT id) AS distinct_ids,
       min(sno_sequence(id)) AS lowest, max(sno_sequence(id)) AS highest
FROM shard;
SELECT max(c) AS fullest_unit, count(*) >= 10 AS enough_units
FROM (SELECT count(*) AS c FROM shard GROUP BY sno_timestamp(id), sno_tick(id)) u;
-- one session, so its IDs rise, and each unit's begin at 100
SELECT count(*) FILTER (WHERE prev >= id) AS not_increasing,
       count(*) FILTER (WHERE t <> prev_t AND s <> 100) AS not_at_lower_bound
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev, sno_sequence(id) AS s,
             sno_timestamp(id) AS t, lag(sno_timestamp(id)) OVER (ORDER BY g) AS prev_t
      FROM shard) x;
SELECT s.overflow_waits - b.overflow_waits >= 9 AS waited
FROM uid_stats() s, before b WHERE s.type = 'sno';
SELECT timeline0_sequence BETWEEN 100 AND 103 AS mark_in_range FROM sno_snapshot();

-- Ends that make no range of 4 are refused where they are used, naming both
-- settings (a reload assigns them one at a time, so neither is refused on
-- its own for the other's value).
ALTER SYSTEM SET uid.sno_sequence_min = 200;
ALTER SYSTEM SET uid.sno_sequence_max = 202;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_sequence_max', '202') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT sno_new();
SELECT name, effective FROM uid_config() WHERE name LIKE 'uid.sno_sequence%' ORDER BY name;
SELECT sequence_min IS NULL AND capacity_per_tick IS NULL AS no_live_range FROM sno_snapshot();
ALTER SYSTEM SET uid.sno_sequence_max = 150;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_sequence_max', '150') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT sno_new();
SELECT name, effective FROM uid_config() WHERE name = 'uid.sno_sequence_min';

-- Back-fill.  Off by default: sno_new_at() needs a range of its own.
ALTER SYSTEM RESET uid.sno_sequence_min;
ALTER SYSTEM RESET uid.sno_sequence_max;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_sequence_max', '65535') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT sno_new_at(0, '2015-06-01 12:00:00+00');

-- The ranges for this run: the first (bf_lo..bf_hi) below every back-fill
-- range used before, the second (bf_lo2..bf_hi2) below that, and a live
-- range (10..live_hi) below both.  Messages show the five-digit numbers
-- that name these ranges as N.
SELECT coalesce(backfill_used_min, 65536) - 4 AS bf_lo,
       coalesce(backfill_used_min, 65536) - 1 AS bf_hi,
       coalesce(backfill_used_min, 65536) - 8 AS bf_lo2,
       coalesce(backfill_used_min, 65536) - 5 AS bf_hi2,
       coalesce(backfill_used_min, 65536) - 6 AS bf_mid_lo,
       coalesce(backfill_used_min, 65536) - 3 AS bf_mid_hi,
       coalesce(backfill_used_min, 65536) - 9 AS live_hi,
       coalesce(backfill_used_max, 65535) AS bf_used_hi
FROM sno_snapshot() \gset
CREATE FUNCTION pg_temp.named(t text) RETURNS text LANGUAGE sql
AS $$ SELECT regexp_replace(t, '\m\d{5}\M', 'N', 'g') $$;
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE sql
AS $$ SELECT left(r, 7) || pg_temp.named(substr(r, 8)) FROM uid_try(stmt) r $$;
ALTER SYSTEM SET uid.sno_backfill_min = :bf_lo;
ALTER SYSTEM SET uid.sno_backfill_max = :bf_hi;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', :'bf_hi') FROM generate_series(1, 200) \gexec
\set ECHO all
-- it must keep clear of the live range (here still 0..65535)
SELECT pg_temp.try($$SELECT sno_new_at(0, '2015-06-01 12:00:00+00')$$) AS overlapping;
SELECT name, pg_temp.named(effective) AS effective FROM uid_config() WHERE name = 'uid.sno_backfill_min';
ALTER SYSTEM SET uid.sno_sequence_min = 10;
ALTER SYSTEM SET uid.sno_sequence_max = :live_hi;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_sequence_max', :'live_hi') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT name, pg_temp.named(effective) AS effective
FROM uid_config() WHERE name ~ '^uid\.sno_' ORDER BY name;

-- An ID dated at the given time, floored to its 4 ms unit, with tick bit
-- 0, the metabyte given, this server's partition and a back-fill sequence.
CREATE TEMP TABLE bf AS
SELECT sno_new_at(5, '2015-06-01 12:00:00.0055+00') AS id, 1 AS g;
SELECT sno_timestamp(id), sno_tick(id), sno_meta(id),
       sno_partition(id) = (SELECT effective::int FROM uid_config() WHERE name = 'uid.partition') AS partition_ok,
       sno_sequence(id) - :bf_lo AS sequence_from_lo
FROM bf;
-- The unit holds the range's 4: lane 0 takes the lower half, lane 1 the
-- upper; one session gets them in increasing order.  A fifth is refused,
-- never a repeat, and so is a fifth with another metabyte (the sequences
-- are the server's, whatever the metabyte).
INSERT INTO bf SELECT sno_new_at(5, '2015-06-01 12:00:00.004+00'), g FROM generate_series(2, 4) g;
SELECT array_agg(sno_sequence(id) - :bf_lo ORDER BY g) AS sequences_from_lo,
       count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE prev >= id) AS not_increasing
FROM (SELECT id, g, lag(id) OVER (ORDER BY g) AS prev FROM bf) x;
SELECT pg_temp.try($$SELECT sno_new_at(5, '2015-06-01 12:00:00.007+00')$$) AS unit_used_up;
SELECT pg_temp.try($$SELECT sno_new_at(6, '2015-06-01 12:00:00.004+00')$$) AS other_meta;
-- Later times go on; a time both lanes have passed is refused.
SELECT sno_timestamp(sno_new_at(5, '2015-06-01 12:00:00.008+00')) AS later,
       sno_sequence(sno_new_at(5, '2015-06-01 12:00:00.012+00')) - :bf_lo AS lane0_again;
SELECT sno_sequence(sno_new_at(5, '2015-06-01 12:00:00.012+00')) - :bf_lo AS lane0_second;
-- A read-only transaction refuses back-fill as it does sno_new() (read_only).
BEGIN READ ONLY;
SELECT pg_temp.try($$SELECT sno_new_at(5, '2015-06-01 12:00:00.016+00')$$) AS read_only;
COMMIT;
SELECT pg_temp.try($$SELECT sno_new_at(5, '2015-06-01 12:00:00.000+00')$$) AS passed;
SELECT pg_temp.try($$SELECT sno_new_at(5, '2015-06-01 11:00:00+00')$$) AS passed_long_ago;
-- Two stretches of time at once: each lane goes forward on its own.
SELECT sno_sequence(sno_new_at(1, '2016-01-01 00:00:00+00')) - :bf_lo AS a1,
       sno_sequence(sno_new_at(1, '2015-06-01 12:00:01+00')) - :bf_lo AS b1,
       sno_sequence(sno_new_at(1, '2016-01-01 00:00:00.004+00')) - :bf_lo AS a2,
       sno_sequence(sno_new_at(1, '2015-06-01 12:00:01.004+00')) - :bf_lo AS b2;
SELECT backfill_min = :bf_lo AS range_lo, backfill_max = :bf_hi AS range_hi,
       backfill_used_min = :bf_lo AS used_lo, backfill_used_max = :bf_used_hi AS used_hi,
       backfill_lane0_time, backfill_lane0_sequence - :bf_lo AS lane0_sequence,
       backfill_lane1_time, backfill_lane1_sequence - :bf_lo AS lane1_sequence
FROM sno_snapshot();

-- The time must be in sno's range; the metabyte 0..255; NULL gives NULL.
SELECT uid_try($$SELECT sno_new_at(0, '2009-12-31 23:59:59.999+00')$$) AS before_epoch;
SELECT uid_try($$SELECT sno_new_at(0, '2079-09-07 15:47:35.552+00')$$) AS after_range;
SELECT uid_try($$SELECT sno_new_at(0, 'infinity')$$) AS infinite;
SELECT uid_try($$SELECT sno_new_at(-1, '2015-06-01 12:00:00+00')$$) AS meta_low,
       uid_try($$SELECT sno_new_at(256, '2015-06-01 12:00:00+00')$$) AS meta_high;
SELECT sno_new_at(NULL, '2015-06-01 12:00:00+00') IS NULL AS null_meta,
       sno_new_at(0, NULL) IS NULL AS null_time;
-- Back-fill dates IDs at times that have passed: a time after the clock is
-- refused (22008), even the range's last unit, and leaves the lanes as they
-- were; the clock's own time is not refused.
SELECT backfill_lane0_time AS lane0, backfill_lane1_time AS lane1 FROM sno_snapshot() \gset
SELECT uid_try($$SELECT sno_new_at(0, '2079-09-07 15:47:35.548+00')$$) AS future;
SELECT uid_try($$SELECT sno_new_at(0, clock_timestamp() + interval '1 minute')$$) ~ '^22008' AS next_minute;
SELECT backfill_lane0_time = :'lane0' AND backfill_lane1_time = :'lane1' AS lanes_kept FROM sno_snapshot();
SELECT sno_new_at(0, clock_timestamp() - interval '1 second') IS NOT NULL AS a_second_ago;
-- Only the roles an administrator chose may back-fill: a role that could
-- would move the lanes for everyone (two calls far ahead ended back-fill).
CREATE ROLE uid_plain_backfill;
SET ROLE uid_plain_backfill;
SELECT uid_try($$SELECT sno_new_at(0, '2015-06-01 12:00:00+00')$$) AS plain_role;
RESET ROLE;
SELECT has_function_privilege('public', 'sno_new_at(integer, timestamptz)', 'EXECUTE') AS public_may;
DROP ROLE uid_plain_backfill;

-- A new back-fill range begins a new pass, in which the earlier times are
-- free again.  It must keep clear of every range used before.
ALTER SYSTEM SET uid.sno_backfill_min = :bf_mid_lo;
ALTER SYSTEM SET uid.sno_backfill_max = :bf_mid_hi;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', :'bf_mid_hi') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT pg_temp.try($$SELECT sno_new_at(0, '2015-06-01 12:00:00+00')$$) AS overlapping_used;
ALTER SYSTEM SET uid.sno_backfill_min = :bf_lo2;
ALTER SYSTEM SET uid.sno_backfill_max = :bf_hi2;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', :'bf_hi2') FROM generate_series(1, 200) \gexec
\set ECHO all
INSERT INTO bf SELECT sno_new_at(5, '2015-06-01 12:00:00.004+00'), 100 + g FROM generate_series(1, 4) g;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE sno_sequence(id) BETWEEN :bf_lo2 AND :bf_hi2) AS in_second_range
FROM bf WHERE sno_timestamp(id) = '2015-06-01 12:00:00.004+00';
SELECT backfill_min = :bf_lo2 AS range_lo, backfill_used_min = :bf_lo2 AS used_lo,
       backfill_used_max = :bf_used_hi AS used_hi
FROM sno_snapshot();
-- the first range again: refused, it was used
ALTER SYSTEM SET uid.sno_backfill_min = :bf_lo;
ALTER SYSTEM SET uid.sno_backfill_max = :bf_hi;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', :'bf_hi') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT pg_temp.try($$SELECT sno_new_at(0, '2015-06-01 12:00:00+00')$$) AS used_before;

-- sno_new() leaves the back-fill range in use out of its own, even when
-- the settings reach into it: the larger part beside it.
ALTER SYSTEM RESET uid.sno_sequence_min;
ALTER SYSTEM RESET uid.sno_sequence_max;
ALTER SYSTEM RESET uid.sno_backfill_min;
ALTER SYSTEM RESET uid.sno_backfill_max;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', '-1') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT sequence_min, sequence_max = backfill_used_min - 1 AS below_backfill,
       capacity_per_tick = backfill_used_min AS capacity
FROM sno_snapshot();
SELECT max(sno_sequence(id)) < (SELECT backfill_used_min FROM sno_snapshot()) AS clear_of_backfill
FROM (SELECT sno_new() AS id FROM generate_series(1, 1000)) s;

-- The overflow channel: a channel name, or empty (off).
ALTER SYSTEM SET uid.sno_overflow_channel = 'sno_overflow';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_overflow_channel', 'sno_overflow') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT name, effective FROM uid_config() WHERE name = 'uid.sno_overflow_channel';
ALTER SYSTEM RESET uid.sno_overflow_channel;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_overflow_channel', '') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT count(*) AS not_default FROM pg_settings WHERE name LIKE 'uid.%' AND source <> 'default';

-- sno_snapshot(): its columns, and a state it reads without changing it.
SELECT * FROM sno_snapshot() WHERE false \gdesc
SELECT a.timeline0_time IS NOT DISTINCT FROM b.timeline0_time AND
       a.timeline0_sequence IS NOT DISTINCT FROM b.timeline0_sequence AND
       a.backfill_lane0_time IS NOT DISTINCT FROM b.backfill_lane0_time AS unchanged,
       a.timeline IN (0, 1) AS timeline_ok, a.flips >= 0 AS flips_ok,
       a.clock_high >= a.timeline0_time AS clock_high_ok
FROM sno_snapshot() a, sno_snapshot() b;
SELECT s.timeline0_time = sno_timestamp(x.id) AND s.timeline0_sequence = sno_sequence(x.id) AS mark_is_last_id
FROM (SELECT sno_new() AS id) x, LATERAL sno_snapshot() s
WHERE sno_tick(x.id) = 0;
DROP TABLE shard, bf, before;
