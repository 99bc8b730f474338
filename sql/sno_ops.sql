-- Operators, operator classes, index use, sorting.
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
       sno_cmp(a, b) AS cmp
FROM (VALUES ('2222222222222222'::sno, '2222222222222223'::sno),
             ('brpk4q72xwf2m63l', 'brpk4q72xwf2m63l'),
             ('xxxxxxxxxxxxxxxx', 'brpk4q72xwf2m63l'),
             ('x222222222222222', 'wxxxxxxxxxxxxxxx')) v(a, b);

-- the operators' declared properties
SELECT oprname, oprcanmerge, oprcanhash, oprcom::regoperator, oprnegate::regoperator,
       oprrest, oprjoin
FROM pg_operator WHERE oprleft = 'sno'::regtype ORDER BY oprname;

-- every operator class passes the access method's own validation
SELECT opcname, amname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'sno'::regtype ORDER BY amname, opcname;
SELECT opcname, amname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'sno'::regtype ORDER BY amname;
SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'sno';

-- Sort order agrees with byte order, with abbreviated keys (many distinct
-- prefixes) and after they are abandoned (few distinct prefixes).
CREATE TABLE sno_sort (id sno, n int);
INSERT INTO sno_sort
SELECT substring(decode(md5(g::text), 'hex') FROM 1 FOR 10)::sno, g FROM generate_series(1, 50000) g;
INSERT INTO sno_sort
SELECT sno_from_parts('2030-01-01Z', g % 3, 9, g % 65536), 50000 + g FROM generate_series(1, 50000) g;
SET work_mem = '64MB';
WITH a AS (SELECT n, row_number() OVER (ORDER BY id) AS r FROM sno_sort),
     b AS (SELECT n, row_number() OVER (ORDER BY sno_to_bytea(id)) AS r FROM sno_sort)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
SELECT count(*) AS out_of_order FROM (
    SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM sno_sort) s WHERE prev > id;
-- text order = byte order
SELECT count(*) AS text_order_mismatches FROM (
    SELECT id, lag(id) OVER (ORDER BY id::text COLLATE "C") AS prev FROM sno_sort) s WHERE prev > id;
-- few distinct 8-byte prefixes: abbreviation is abandoned, order still right
SELECT count(*) AS out_of_order FROM (
    SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM sno_sort WHERE n > 50000) s WHERE prev > id;
-- the abbreviated key places (metabyte, partition) around the first value's:
-- many IDs per 4 ms unit, mixed metabytes and partitions, arbitrary input order
CREATE TABLE sno_mixed AS
SELECT sno_from_parts('2030-01-01Z'::timestamptz + (g % 3) * interval '4 ms',
                      (g / 3) % 3, (g / 9) % 3, (g * 7) % 65536, (g / 27) % 2) AS id, g AS n
FROM generate_series(1, 60000) g ORDER BY md5(g::text);
WITH a AS (SELECT n, row_number() OVER (ORDER BY id) AS r FROM sno_mixed),
     b AS (SELECT n, row_number() OVER (ORDER BY sno_to_bytea(id)) AS r FROM sno_mixed)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
DROP TABLE sno_mixed;
RESET work_mem;

-- hashing: equal values hash equally; hash joins and hash aggregation work
SELECT sno_hash('brpk4q72xwf2m63l') = sno_hash('BRPK4Q72XWF2M63L') AS same_hash,
       sno_hash_extended('brpk4q72xwf2m63l', 0) = sno_hash_extended('brpk4q72xwf2m63l', 1) AS seed_used;
-- frozen: a hash index depends on these values
SELECT sno_hash('brpk4q72xwf2m63l'), sno_hash_extended('brpk4q72xwf2m63l', 42);
SET enable_sort = off;
SELECT count(*) FROM (SELECT id FROM sno_sort GROUP BY id) s;
RESET enable_sort;
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_sort a JOIN sno_sort b USING (id);
SELECT count(*) FROM sno_sort a JOIN sno_sort b USING (id);
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_sort a JOIN sno_sort b USING (id);
SELECT count(*) FROM sno_sort a JOIN sno_sort b USING (id);
RESET enable_hashjoin; RESET enable_nestloop;

-- btree, hash and BRIN indexes each answer like a sequential scan
ANALYZE sno_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE INDEX sno_sort_bt ON sno_sort (id);
EXPLAIN (COSTS OFF) SELECT n FROM sno_sort WHERE id = sno_from_parts('2030-01-01Z', 1, 9, 1);
SELECT n FROM sno_sort WHERE id = sno_from_parts('2030-01-01Z', 1, 9, 1);
EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_sort WHERE id >= sno_boundary('2030-01-01Z');
SELECT count(*) FROM sno_sort WHERE id >= sno_boundary('2030-01-01Z');
DROP INDEX sno_sort_bt;
CREATE INDEX sno_sort_h ON sno_sort USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM sno_sort WHERE id = sno_from_parts('2030-01-01Z', 1, 9, 1);
SELECT n FROM sno_sort WHERE id = sno_from_parts('2030-01-01Z', 1, 9, 1);
DROP INDEX sno_sort_h;
RESET enable_bitmapscan;
CREATE INDEX sno_sort_brin ON sno_sort USING brin (id);
EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_sort WHERE id >= sno_boundary('2030-01-01Z');
SELECT count(*) FROM sno_sort WHERE id >= sno_boundary('2030-01-01Z');
RESET enable_seqscan;
SELECT count(*) FROM sno_sort WHERE id >= sno_boundary('2030-01-01Z');
SELECT count(*) FROM sno_sort WHERE sno_timestamp(id) >= '2030-01-01Z';

-- support functions: cmp, sortsupport, equalimage (btree deduplication)
SELECT a.amname, p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE p.amproclefttype = 'sno'::regtype ORDER BY a.amname, p.amprocnum;
DROP TABLE sno_sort;
