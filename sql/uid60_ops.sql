-- uid60: operators, operator classes, indexes, sorting.
SET TimeZone = 'UTC';
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
       uid60_cmp(a, b) AS cmp
FROM (VALUES ('AAAAAAAAAA'::uid60, 'AAAAAAAAAB'::uid60),
             ('AH1fUJZhJ7', 'AH1fUJZhJ7'),
             ('__________', 'AH1fUJZhJ7'),
             -- second 1 is above second 0, though its text sorts below
             ('gAAAAAAAAA', 'AAAAAAAA__')) v(a, b);
SELECT oprname, oprcanmerge, oprcanhash, oprcom::regoperator, oprnegate::regoperator, oprrest, oprjoin
FROM pg_operator WHERE oprleft = 'uid60'::regtype ORDER BY oprname;
SELECT opcname, amname, opcdefault, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'uid60'::regtype ORDER BY amname, opcname;
SELECT a.amname, p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE p.amproclefttype = 'uid60'::regtype ORDER BY a.amname, p.amprocnum;
SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'uid60';
SELECT castsource::regtype, casttarget::regtype, castfunc::regprocedure, castcontext
FROM pg_cast WHERE castsource = 'uid60'::regtype OR casttarget = 'uid60'::regtype ORDER BY 1, 2;

-- hashes are bigint's
SELECT uid60_hash('AH1fUJZhJ7') = hashint8('AH1fUJZhJ7'::uid60::bigint) AS same_as_bigint,
       uid60_hash_extended('AH1fUJZhJ7', 42) = hashint8extended('AH1fUJZhJ7'::uid60::bigint, 42) AS extended_same;

-- the default order is time order: (timestamp, worker, sequence, random),
-- which is the integer order and not the text order
CREATE TABLE u60_sort (id uid60, n int);
INSERT INTO u60_sort
SELECT uid60_from_parts('2024-01-01Z'::timestamptz + (g / 7) * interval '1 s', g % 512, (g * 37) % 1024, g % 509), g
FROM generate_series(0, 49999) g ORDER BY md5(g::text);
SELECT count(*) AS time_order_mismatches FROM (
    SELECT row_number() OVER (ORDER BY id) AS a,
           row_number() OVER (ORDER BY uid60_timestamp(id), uid60_worker(id), uid60_sequence(id), uid60_random(id)) AS b
    FROM u60_sort) s WHERE a <> b;
SELECT count(*) AS differs_from_bigint FROM (
    SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id::bigint) AS b
    FROM u60_sort) s WHERE a <> b;
SELECT count(*) > 10000 AS text_order_is_not_time_order FROM (
    SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id::text COLLATE "C") AS b
    FROM u60_sort) s WHERE a <> b;
SELECT sum(n) AS via_hashagg FROM (SELECT DISTINCT id, n FROM u60_sort) s;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) AS hash_join FROM u60_sort a JOIN u60_sort b USING (id);
RESET enable_mergejoin; SET enable_hashjoin = off;
SELECT count(*) AS merge_join FROM u60_sort a JOIN u60_sort b USING (id);
RESET enable_hashjoin; RESET enable_nestloop;

ANALYZE u60_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE INDEX u60_bt ON u60_sort (id);
EXPLAIN (COSTS OFF) SELECT n FROM u60_sort WHERE id >= uid60_boundary('2024-01-01 00:01:00Z') AND id < uid60_boundary('2024-01-01 00:02:00Z');
SELECT count(*) FROM u60_sort WHERE id >= uid60_boundary('2024-01-01 00:01:00Z') AND id < uid60_boundary('2024-01-01 00:02:00Z');
SELECT count(*) FROM u60_sort WHERE uid60_timestamp(id) >= '2024-01-01 00:01:00Z' AND uid60_timestamp(id) < '2024-01-01 00:02:00Z';
EXPLAIN (COSTS OFF) SELECT id FROM u60_sort ORDER BY id LIMIT 3;
SELECT id, uid60_timestamp(id), uid60_worker(id), uid60_sequence(id), uid60_random(id) FROM u60_sort ORDER BY id LIMIT 3;
SELECT id, uid60_timestamp(id) FROM u60_sort ORDER BY id DESC LIMIT 2;
DROP INDEX u60_bt;
CREATE INDEX u60_hash ON u60_sort USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM u60_sort WHERE id = uid60_from_parts('2024-01-01 00:00:01Z', 7, 259, 7);
SELECT n FROM u60_sort WHERE id = uid60_from_parts('2024-01-01 00:00:01Z', 7, 259, 7);
DROP INDEX u60_hash;
RESET enable_bitmapscan;
CREATE INDEX u60_brin ON u60_sort USING brin (id);
EXPLAIN (COSTS OFF) SELECT count(*) FROM u60_sort WHERE id >= uid60_boundary('2024-01-01 01:00:00Z');
SELECT count(*) FROM u60_sort WHERE id >= uid60_boundary('2024-01-01 01:00:00Z');
RESET enable_seqscan;
SELECT count(*) FROM u60_sort WHERE uid60_timestamp(id) >= '2024-01-01 01:00:00Z';
DROP TABLE u60_sort;
