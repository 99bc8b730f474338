-- What uid does, type by type.  Run by test/demo.sh.
DROP EXTENSION IF EXISTS uid CASCADE;
CREATE EXTENSION uid;
SET TimeZone = 'UTC';

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

-- settings and counters
SELECT * FROM uid_config();
SELECT * FROM uid_stats();
DROP TABLE event;
