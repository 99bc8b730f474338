-- uid_identity(): what each type embeds on this server, where it comes from
-- and whether that keeps several servers apart; uid.coordinator's effect on
-- generation when the coordinator cannot be reached.  (The TAP tests
-- 022-025 run real coordinators; this file resets what it sets.)
SET TimeZone = 'UTC';
-- the defaults: sno's partition and muid's medallion are drawn at server
-- start, the others are the built-in 0 on every server: nothing is safe
SELECT type, field, source, value IS NOT NULL AS has_value, pool, lease_id, expires_at,
       several_servers_safe, regexp_replace(note, '[0-9]{3,}', 'N', 'g') AS note
FROM uid_identity();
-- every type has its identity's row (uid_stats() lists codec/registry.h's types)
SELECT s.type AS type_without_identity FROM uid_stats() s
WHERE NOT EXISTS (SELECT FROM uid_identity() i WHERE i.type = s.type);

-- set by hand: safe if every server has its own
ALTER SYSTEM SET uid.generator = 100;
ALTER SYSTEM SET uid.cluster = 3;
ALTER SYSTEM SET uid.partition = 7;
ALTER SYSTEM SET uid.medallion = '2a';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '2a') FROM generate_series(1, 200) \gexec
\set ECHO all
-- uid.generator = 100 fits uid60's worker but not snowflake_si's machine id
-- (0..31 with 8 index bits) nor revts8's generator (0..63)
SELECT type, field, source, value, several_servers_safe, note FROM uid_identity();
SELECT uid_try('SELECT snowflake_si_new()') AS snowflake_si_new,
       uid_try('SELECT revts8_new()') AS revts8_new,
       uid_try('SELECT uid60_new()') AS uid60_new;
SELECT uid60_worker(uid60_new()) AS worker, sno_partition(sno_new(1)) AS partition,
       muid_medallion(muid_new()) AS medallion;

-- uid_identity_renew() needs uid.coordinator, and is not for everyone
SELECT * FROM uid_identity_renew();
CREATE ROLE uid_identity_user;
SET ROLE uid_identity_user;
SELECT * FROM uid_identity_renew();
SELECT count(*) AS rows_for_anyone FROM uid_identity();
RESET ROLE;

-- With uid.coordinator set, every type's identity is leased, and the hand
-- settings no longer apply.  Nothing listens where this one points: the
-- first ID fails to claim a lease, names the pool, and nothing is made.
ALTER SYSTEM SET uid.coordinator = 'host=/nonexistent/uid-test port=1 dbname=postgres';
ALTER SYSTEM SET uid.pool = 'regress';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.pool', 'regress') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT type, field, source, value, pool, lease_id, several_servers_safe, note FROM uid_identity();
SELECT issued AS sno_issued_before FROM uid_stats() WHERE type = 'sno' \gset
SELECT sno_new(1);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT uid_try('SELECT muid_new()') AS muid_new, uid_try('SELECT snowflake_si_new()') AS snowflake_si_new,
       uid_try('SELECT revts8_new()') AS revts8_new, uid_try('SELECT uid60_new()') AS uid60_new;
SELECT issued = :sno_issued_before AS nothing_issued FROM uid_stats() WHERE type = 'sno';
SELECT * FROM uid_identity_renew();
-- That was because sessions do not load uid before their first query (a
-- session that has not loaded it shows uid.coordinator to every role).
-- With uid in session_preload_libraries, the coordinator is tried: nothing
-- listens there, and the client is not told where that was (the server
-- log is).
ALTER SYSTEM SET session_preload_libraries = 'uid';
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'session_preload_libraries', 'uid') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT type, field, source, value, pool, lease_id, several_servers_safe, note FROM uid_identity();
SELECT sno_new(1);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT uid_try('SELECT muid_new()') AS muid_new, uid_try('SELECT snowflake_si_new()') AS snowflake_si_new,
       uid_try('SELECT revts8_new()') AS revts8_new, uid_try('SELECT uid60_new()') AS uid60_new;
SELECT issued = :sno_issued_before AS nothing_issued FROM uid_stats() WHERE type = 'sno';
SELECT * FROM uid_identity_renew();
SELECT name, effective FROM uid_config()
WHERE name IN ('uid.partition', 'uid.medallion', 'uid.generator', 'uid.cluster') ORDER BY name;
-- the connection string may hold a password: a plain role does not see it
SET ROLE uid_identity_user;
SELECT name, setting, effective FROM uid_config() WHERE name = 'uid.coordinator';
\set VERBOSITY sqlstate
SHOW uid.coordinator;
\set VERBOSITY default
RESET ROLE;
SELECT name, setting FROM uid_config() WHERE name = 'uid.coordinator';
DROP ROLE uid_identity_user;

ALTER SYSTEM RESET uid.coordinator;
ALTER SYSTEM RESET session_preload_libraries;
ALTER SYSTEM RESET uid.pool;
ALTER SYSTEM RESET uid.generator;
ALTER SYSTEM RESET uid.cluster;
ALTER SYSTEM RESET uid.partition;
ALTER SYSTEM RESET uid.medallion;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.pool', 'uid') FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT count(*) AS not_default FROM pg_settings WHERE name LIKE 'uid.%' AND source <> 'default';
SELECT sno_new(1) IS NOT NULL AS generates_again;
