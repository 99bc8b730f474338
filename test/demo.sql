-- What uid does, type by type.  Run by test/demo.sh.
DROP EXTENSION IF EXISTS uid CASCADE;
CREATE EXTENSION uid;
SET TimeZone = 'UTC';

-- The identity that every type embeds is the server's (one per server): set it
-- with ALTER SYSTEM (or postgresql.conf) and reload.  A session cannot SET it.
ALTER SYSTEM SET uid.partition = 4242;
ALTER SYSTEM SET uid.generator = 5;
ALTER SYSTEM SET uid.cluster = 3;
ALTER SYSTEM SET uid.medallion = '1bfc71b112d';
SELECT pg_reload_conf();
-- (a session takes a reload between statements: wait until this one has)
\set ECHO none
\set QUIET on
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.medallion', '1bfc71b112d') FROM generate_series(1, 200) \gexec
\set QUIET off
\set ECHO all
SELECT * FROM uid_config();

-- sno: 10 bytes, 16 sortable characters, 4 ms units, metabyte and partition
CREATE TABLE event (id sno PRIMARY KEY DEFAULT sno_new(1), body text);
INSERT INTO event (body) SELECT 'event ' || g FROM generate_series(1, 5) g;
SELECT id, sno_timestamp(id), sno_meta(id), sno_partition(id), sno_sequence(id), sno_tick(id), body
FROM event ORDER BY id;
SELECT id::bytea AS bytes FROM event ORDER BY id LIMIT 1;
SELECT sno_from_parts('2031-05-08 23:03:34.976+00', 255, 39434, 4147) AS from_parts,
       'brpk4q72xwf2m63l'::sno = sno_from_parts('2031-05-08 23:03:34.976+00', 255, 39434, 4147) AS matches_reference;
-- time ranges use the index
EXPLAIN (COSTS OFF) SELECT * FROM event
WHERE id >= sno_boundary(now() - interval '1 hour') AND id < sno_boundary(now() + interval '1 hour');

-- muid: 16 bytes; one timestamp per transaction, offsets 1, 2, 3 ... inside it
CREATE TABLE thing (id muid PRIMARY KEY DEFAULT muid_new(), body text);
BEGIN;
INSERT INTO thing (body) VALUES ('first'), ('second'), ('third');
SELECT muid_txn() AS this_transaction;
COMMIT;
INSERT INTO thing (body) VALUES ('next transaction');
SELECT id, muid_timestamp(id), to_hex(muid_medallion(id)) AS medallion, muid_offset(id), body
FROM thing ORDER BY id;
SELECT id::uuid AS as_uuid FROM thing ORDER BY id LIMIT 1;
-- doc/formats.md's vector
SELECT muid_from_parts('2022-01-19 08:00:30.975519+00', 1923190821165, 11) AS from_parts,
       muid_timestamp('5D5EAC793E61F-1BFC71B112D-FFFFFFFF') AS its_time,
       muid_offset('5D5EAC793E61F-1BFC71B112D-FFFFFFFF') AS its_offset;
DROP TABLE thing;

-- snowflake_si: 53-bit integers, safe in JavaScript; machine id from uid.generator
CREATE TABLE job (id snowflake_si PRIMARY KEY DEFAULT snowflake_si_new(), name text);
INSERT INTO job (name) SELECT 'job ' || g FROM generate_series(1, 5) g;
SELECT id, id::bigint <= 9007199254740991 AS javascript_safe, snowflake_si_timestamp(id),
       snowflake_si_machine(id), snowflake_si_index(id), name
FROM job ORDER BY id;
-- doc/formats.md's vector: base clock 2004-01-01, machine 1, index 0
SELECT snowflake_si_timestamp('5170397184000256', '2004-01-01Z') AS decoded_time,
       snowflake_si_machine('5170397184000256', 8) AS machine;
DROP TABLE job;

-- revts8: 8 bytes with a bit-reversed timestamp; sorts by time by default;
-- generator and cluster from uid.generator and uid.cluster
CREATE TABLE row_key (id revts8 PRIMARY KEY DEFAULT revts8_new(), v int);
INSERT INTO row_key (v) SELECT g FROM generate_series(1, 5) g;
SELECT id, id::bytea AS bytes, revts8_timestamp(id), revts8_sequence(id), revts8_generator(id),
       revts8_cluster(id), v
FROM row_key ORDER BY id;
-- the raw byte order that a row-key store sees
SELECT id, v FROM row_key ORDER BY id USING ~<~;
SELECT 'cb54ecf284000000'::revts8 AS reference, revts8_timestamp('cb54ecf284000000') AS its_time;
DROP TABLE row_key;

-- uid60: 60-bit integers shown as 10 characters; at most 1024 a second per server;
-- worker from uid.generator
CREATE TABLE post (id uid60 PRIMARY KEY DEFAULT uid60_new(), title text);
INSERT INTO post (title) SELECT 'post ' || g FROM generate_series(1, 5) g;
SELECT id, id::bigint AS n, uid60_timestamp(id), uid60_worker(id), uid60_sequence(id), uid60_random(id), title
FROM post ORDER BY id;
-- doc/formats.md's vector: n = 0x800000000000000
SELECT x'800000000000000'::bigint::uid60 AS reference;
DROP TABLE post;

-- every type has min() and max()
SELECT min(id) AS first_event, max(id) AS last_event FROM event;

-- counters, and the lease that WAL holds past every ID (see the README)
SELECT * FROM uid_stats();
SELECT * FROM uid_lease();

-- Several servers: instead of hand settings, a server can lease its identity from a
-- coordinator, any database with uid (here this same server; see the README).  Such a
-- server loads uid in every session, so that no session shows uid.coordinator to all.
ALTER SYSTEM SET session_preload_libraries = 'uid';
\getenv host PGHOST
\getenv port PGPORT
SELECT format('ALTER SYSTEM SET uid.coordinator = %L',
              format('host=%s port=%s dbname=postgres', :'host', :'port')) \gexec
ALTER SYSTEM SET uid.pool = 'demo';
SELECT pg_reload_conf();
\set ECHO none
\set QUIET on
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.pool', 'demo') FROM generate_series(1, 200) \gexec
\set QUIET off
\set ECHO all
-- the first ID claims the lowest free id of the pool, and every type embeds it
INSERT INTO event (body) VALUES ('made under a leased identity');
SELECT id, sno_partition(id), body FROM event ORDER BY id DESC LIMIT 1;
SELECT type, field, value, source, pool, lease_id, expires_at, several_servers_safe FROM uid_identity();
SELECT pool, id, holder, token, state FROM uid_pool_leases();
DROP TABLE event;
ALTER SYSTEM RESET ALL;
SELECT pg_reload_conf();
