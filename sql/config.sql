-- Settings: the server's alone (no session sets them), validated by ALTER
-- SYSTEM, applied by a reload; uid_config() and uid_stats().
-- (The suite runs on a server whose uid.* settings are the defaults; this
-- file resets what it sets with ALTER SYSTEM RESET and a reload.)
SET TimeZone = 'UTC';
SELECT name, setting FROM uid_config() ORDER BY name;
-- Drawn values have the documented shapes.
SELECT effective::int BETWEEN 0 AND 65535 AS partition_ok
FROM uid_config() WHERE name = 'uid.partition';
SELECT ('x' || lpad(effective, 16, '0'))::bit(64)::bigint BETWEEN 2^40 + 1 AND 2^41 - 1 AS medallion_ok,
       effective ~ '^1[0-9A-F]{10}$' AS medallion_shape
FROM uid_config() WHERE name = 'uid.medallion';
-- The drawn values are stable across calls and backends of one server start.
SELECT count(DISTINCT effective) FROM (
    SELECT effective FROM uid_config() WHERE name = 'uid.partition'
    UNION ALL SELECT effective FROM uid_config() WHERE name = 'uid.partition') s;

-- Every setting goes into the IDs, so every one is the server's
-- (postgresql.conf or ALTER SYSTEM, and a reload): a session that could
-- choose its own would mint another server's IDs.  Not even a superuser's
-- session can set one, in any way, valid value or not.
SELECT name, context FROM pg_settings WHERE name LIKE 'uid.%' ORDER BY name;
SET uid.generator = 511;
SET uid.generator = 512;
SET uid.cluster = 15;
SET uid.partition = 65535;
SET uid.medallion = '1bfc71b112d';
SET uid.medallion = '';
SET uid.snowflake_si_epoch = '2004-01-01 00:00:00+00';
SET uid.snowflake_si_index_bits = 4;
SET uid.coordinator = 'host=elsewhere';
SET uid.pool = 'other';
SET uid.pool_size = 64;
SET uid.pool_ttl = 10;
SET uid.pool_grace = 0;
SET uid.coordinator_timeout = 1000;
SELECT uid_try('SET uid.generator = 511') AS set,
       uid_try('SET LOCAL uid.generator = 511') AS set_local,
       uid_try($$SELECT set_config('uid.generator', '511', false)$$) AS set_config,
       uid_try('RESET uid.generator') AS reset;
-- nor can a role's or a database's setting
CREATE ROLE uid_plain_user;
ALTER ROLE uid_plain_user SET uid.generator = 3;
SELECT uid_try(format('ALTER DATABASE %I SET uid.partition = 3', current_database())) AS alter_database;
SELECT count(*) AS stored_settings FROM pg_db_role_setting WHERE array_to_string(setconfig, ',') LIKE '%uid.%';
SELECT name, setting FROM uid_config() ORDER BY name;

-- ALTER SYSTEM validates the values, without a reload.  (Only in a session
-- that has loaded the library, as uid_config() did above: core writes an
-- unknown uid.* value unchecked.)
ALTER SYSTEM SET uid.generator = 511;
ALTER SYSTEM SET uid.generator = 512;
ALTER SYSTEM SET uid.generator = -1;
ALTER SYSTEM SET uid.cluster = 15;
ALTER SYSTEM SET uid.cluster = 16;
ALTER SYSTEM SET uid.partition = 65535;
ALTER SYSTEM SET uid.partition = 65536;
ALTER SYSTEM SET uid.partition = -2;
ALTER SYSTEM SET uid.medallion = '1bfc71b112d';
ALTER SYSTEM SET uid.medallion = '123456789abc';
ALTER SYSTEM SET uid.medallion = 'xyz';
ALTER SYSTEM SET uid.medallion = 'FFFFFFFFFFF';
ALTER SYSTEM SET uid.medallion = '';
ALTER SYSTEM SET uid.snowflake_si_index_bits = 0;
ALTER SYSTEM SET uid.snowflake_si_index_bits = 14;
ALTER SYSTEM SET uid.snowflake_si_index_bits = 13;
ALTER SYSTEM SET uid.snowflake_si_epoch = '2004-01-01 00:00:00+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2003-03-18 07:20:19.225+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2003-03-18 07:20:19.224+00';
-- a base clock in the future is accepted; generation refuses until the clock reaches it
ALTER SYSTEM SET uid.snowflake_si_epoch = '2999-01-01 00:00:00+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = 'now';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2020-01-01 00:00:00.0005+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = 'garbage';
-- uid.coordinator takes any value here: one that libpq cannot parse, or
-- that holds a password, is refused when a reload assigns it, in the server
-- log only (core would show a value it refuses to the client; TAP 030).
-- Reset before the reload below.  The pool settings have ranges.
ALTER SYSTEM SET uid.coordinator = 'host=coordinator.example port';
ALTER SYSTEM SET uid.coordinator = 'postgresql://[::1';
ALTER SYSTEM SET uid.coordinator = 'postgresql://coordinator.example/ids';
ALTER SYSTEM RESET uid.coordinator;
ALTER SYSTEM SET uid.pool = '';
ALTER SYSTEM SET uid.pool = 'pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp';
ALTER SYSTEM SET uid.pool_size = 0;
ALTER SYSTEM SET uid.pool_size = 65537;
-- (only the SQLSTATE of the durations' range errors: 17 words them with units)
\set VERBOSITY sqlstate
ALTER SYSTEM SET uid.pool_ttl = 1;
ALTER SYSTEM SET uid.pool_grace = -1;
ALTER SYSTEM SET uid.coordinator_timeout = 99;
\set VERBOSITY default
ALTER SYSTEM SET uid.pool_ttl = '2 min';
ALTER SYSTEM SET uid.pool_grace = '1d 1s';
ALTER SYSTEM RESET uid.pool_ttl;
-- A base clock without a zone is read as UTC, never in the session's
-- TimeZone: read in New York's, the first would be accepted (12:20 UTC) and
-- the second would not (02:20 UTC).
SET TimeZone = 'America/New_York';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2003-03-18 07:20:19.224';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2003-03-18 02:20:19.225';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2003-03-18 07:20:19.225';
-- A plain role may not ALTER SYSTEM either, nor SET any of them.
SET ROLE uid_plain_user;
ALTER SYSTEM SET uid.generator = 3;
SET uid.generator = 3;
SET uid.cluster = 3;
SET uid.partition = 3;
SET uid.medallion = '1bfc71b112d';
SET uid.snowflake_si_epoch = '2004-01-01 00:00:00+00';
SET uid.snowflake_si_index_bits = 4;
SET uid.coordinator = '';
SET uid.pool = 'other';
RESET ROLE;
-- Nothing applies before a reload.
SELECT name, setting FROM uid_config() ORDER BY name;

-- After a reload (processed while the session's TimeZone is New York's)
-- every session has the server's values.
ALTER SYSTEM SET uid.partition = 7;
ALTER SYSTEM SET uid.medallion = '1bfc71b112d';
ALTER SYSTEM SET uid.snowflake_si_epoch = '2020-01-01 00:00:00';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.snowflake_si_epoch', '2020-01-01 00:00:00') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.snowflake_si_epoch;
SET TimeZone = 'UTC';
SELECT name, setting, effective FROM uid_config() ORDER BY name;
SELECT name, context, setting, source FROM pg_settings WHERE name LIKE 'uid.%' ORDER BY name;
-- a short medallion is zero-padded
ALTER SYSTEM SET uid.medallion = '2a';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '2a') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.medallion;
SELECT effective FROM uid_config() WHERE name = 'uid.medallion';
-- RESET ALL, SET and a plain role's session leave the server's values alone.
RESET ALL;
SET TimeZone = 'UTC';
SELECT name, setting, effective FROM uid_config() ORDER BY name;
SET uid.generator = 0;
SET ROLE uid_plain_user;
SELECT name, setting FROM uid_config() WHERE name IN ('uid.generator', 'uid.partition') ORDER BY name;
RESET ROLE;
DROP ROLE uid_plain_user;
SET uid.no_such_setting = 1;

-- The last base clock (snowflake_si_gen): the settings' functions count
-- from it to the end of the format; the next millisecond is refused.
ALTER SYSTEM SET uid.snowflake_si_epoch = '294212-03-08 08:07:07.001+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = '294276-12-31 23:59:59.999+00';
ALTER SYSTEM SET uid.snowflake_si_epoch = '294212-03-08 08:07:07+00';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.snowflake_si_epoch', '294212-03-08 08:07:07+00') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT effective FROM uid_config() WHERE name = 'uid.snowflake_si_epoch';
SELECT b AS boundary, snowflake_si_timestamp(b) AS ts,
       snowflake_si_from_parts(snowflake_si_timestamp(b), 0, 0) = b AS round_trips
FROM (VALUES (snowflake_si_boundary('294212-03-08 08:07:07+00')),
             (snowflake_si_boundary('294212-03-08 08:07:07.0001+00')),
             (snowflake_si_boundary('294247-01-10 04:00:54.775+00'))) v(b);
SELECT snowflake_si_boundary('294247-01-10 04:00:54.7751+00');
SELECT snowflake_si_new();

-- Back to the defaults (the last one reset is the one waited for).
ALTER SYSTEM RESET uid.generator;
ALTER SYSTEM RESET uid.cluster;
ALTER SYSTEM RESET uid.partition;
ALTER SYSTEM RESET uid.medallion;
ALTER SYSTEM RESET uid.snowflake_si_index_bits;
ALTER SYSTEM RESET uid.snowflake_si_epoch;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.snowflake_si_epoch', '2024-01-01 00:00:00+00') FROM generate_series(1, 200) \gexec
\set ECHO all
SHOW uid.snowflake_si_epoch;
SELECT name, setting FROM uid_config() ORDER BY name;
SELECT count(*) AS not_default FROM pg_settings WHERE name LIKE 'uid.%' AND source <> 'default';
-- uid_reload()'s timeout counts a month as 30 days: past bigint microseconds
-- it is bigint's end on its side, not wrapped to the other's
SELECT uid_reload('100000000 years') IS NOT NULL AS reloaded;
SELECT uid_reload('-100000000 years');

SELECT type, issued >= 0 AS issued_ok, overflow_waits >= 0 AS waits_ok,
       clock_regressions >= 0 AS regressions_ok, tick_flips >= 0 AS flips_ok
FROM uid_stats();
