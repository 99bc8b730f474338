-- Settings: ranges, validation, superuser-only, uid_config() and uid_stats().
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

SET uid.generator = 511;
SET uid.generator = 512;
SET uid.generator = -1;
SET uid.cluster = 15;
SET uid.cluster = 16;
SET uid.partition = 65535;
SET uid.partition = 65536;
SET uid.partition = -2;
SET uid.medallion = '1bfc71b112d';
SET uid.medallion = '123456789abc';
SET uid.medallion = 'xyz';
SET uid.medallion = 'FFFFFFFFFFF';
SET uid.medallion = '';
-- The snowflake_si layout is server-wide: one session cannot change it ...
SET uid.snowflake_si_epoch = '2004-01-01 00:00:00+00';
SET uid.snowflake_si_index_bits = 4;
-- ... but postgresql.conf and ALTER SYSTEM can, with the values validated.
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
ALTER SYSTEM RESET uid.snowflake_si_epoch;
ALTER SYSTEM RESET uid.snowflake_si_index_bits;
SELECT name, context FROM pg_settings WHERE name LIKE 'uid.%' ORDER BY name;
SELECT name, setting, effective FROM uid_config()
WHERE name NOT IN ('uid.partition', 'uid.medallion') ORDER BY name;
SET uid.partition = 7;
SET uid.medallion = '1bfc71b112d';
SELECT name, setting, effective FROM uid_config() WHERE name IN ('uid.partition', 'uid.medallion') ORDER BY name;
SET uid.medallion = '2a';
SELECT effective FROM uid_config() WHERE name = 'uid.medallion';
RESET ALL;
SELECT name, setting FROM uid_config() ORDER BY name;
SET uid.no_such_setting = 1;

-- Only a superuser may set them: a user who could would mint another node's IDs.
CREATE ROLE uid_plain_user;
SET ROLE uid_plain_user;
SET uid.generator = 3;
SET uid.partition = 3;
SET uid.medallion = '1bfc71b112d';
SELECT name, setting FROM uid_config() WHERE name IN ('uid.generator', 'uid.partition') ORDER BY name;
RESET ROLE;
DROP ROLE uid_plain_user;

SELECT type, issued >= 0 AS issued_ok, overflow_waits >= 0 AS waits_ok,
       clock_regressions >= 0 AS regressions_ok, tick_flips >= 0 AS flips_ok
FROM uid_stats();
