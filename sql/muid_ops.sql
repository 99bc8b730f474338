-- muid: operators, operator classes, index use, sorting.
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
       muid_cmp(a, b) AS cmp
FROM (VALUES ('5D5EAC793E61F-1BFC71B112D-0000000B'::muid, '5D5EAC793E61F-1BFC71B112D-0000000C'::muid),
             ('5D5EAC793E61F-1BFC71B112D-0000000B', '5D5EAC793E61F-1BFC71B112D-0000000B'),
             ('5D5EAC793E61F-1BFC71B112D-FFFFFFFF', '5D5EAC793E61F-1BFC71B112D-00000001'),
             ('5D5EAC793E61F-1BFC71B112E-00000000', '5D5EAC793E61F-1BFC71B112D-FFFFFFFF'),
             ('5D5EAC793E620-00000000000-00000000', '5D5EAC793E61F-FFFFFFFFFFF-FFFFFFFF')) v(a, b);

-- the operators' declared properties
SELECT oprname, oprcanmerge, oprcanhash, oprcom::regoperator, oprnegate::regoperator,
       oprrest, oprjoin
FROM pg_operator WHERE oprleft = 'muid'::regtype ORDER BY oprname;

-- every operator class passes the access method's own validation
SELECT opcname, amname, amvalidate(c.oid), opcdefault
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'muid'::regtype ORDER BY amname, opcname;
SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'muid';
SELECT a.amname, p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE p.amproclefttype = 'muid'::regtype ORDER BY a.amname, p.amprocnum;

-- Sort order = byte order, with abbreviated keys built around the first
-- value sorted: random values; one transaction's many offsets (the first
-- value's timestamp); several transactions and medallions, offsets past
-- 4094 and negative ones, in arbitrary input order.
CREATE TABLE muid_sort (id muid, n int);
INSERT INTO muid_sort
SELECT substring(decode(md5(g::text) || md5((-g)::text), 'hex') FROM 1 FOR 16)::muid, g
FROM generate_series(1, 30000) g;
INSERT INTO muid_sort
SELECT muid_from_parts('2030-01-01 00:00:00.000007+00'::timestamptz + (g % 5) * interval '1 microsecond',
                       CASE WHEN g % 7 = 0 THEN 1099511627777 + g % 3 ELSE 1099511627778 END,
                       CASE WHEN g % 11 = 0 THEN -g ELSE g END), 30000 + g
FROM generate_series(1, 30000) g;
INSERT INTO muid_sort
SELECT muid_from_parts('2030-01-01 00:00:00.000009+00', 1099511627778, g), 60000 + g
FROM generate_series(1, 30000) g;
SET work_mem = '64MB';
-- input orders that put different values first (the abbreviation's reference)
CREATE TABLE muid_shuffled AS SELECT * FROM muid_sort ORDER BY md5(n::text);
CREATE TABLE muid_bulk_first AS SELECT * FROM muid_sort ORDER BY n DESC;
CREATE TABLE muid_mixed_first AS SELECT * FROM muid_sort ORDER BY (n = 30007) DESC, md5(n::text);
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids, (SELECT count(*) FROM (
    SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM muid_sort) s WHERE prev > id) AS out_of_order
FROM muid_sort;
WITH a AS (SELECT n, row_number() OVER (ORDER BY id, n) AS r FROM muid_shuffled),
     b AS (SELECT n, row_number() OVER (ORDER BY muid_to_bytea(id), n) AS r FROM muid_shuffled)
SELECT 'shuffled' AS input, count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
WITH a AS (SELECT n, row_number() OVER (ORDER BY id, n) AS r FROM muid_bulk_first),
     b AS (SELECT n, row_number() OVER (ORDER BY muid_to_bytea(id), n) AS r FROM muid_bulk_first)
SELECT 'bulk first' AS input, count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
WITH a AS (SELECT n, row_number() OVER (ORDER BY id, n) AS r FROM muid_mixed_first),
     b AS (SELECT n, row_number() OVER (ORDER BY muid_to_bytea(id), n) AS r FROM muid_mixed_first)
SELECT 'mixed first' AS input, count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
-- only the many-offsets part, and only the generated-like part
WITH a AS (SELECT n, row_number() OVER (ORDER BY id, n) AS r FROM muid_shuffled WHERE n > 30000),
     b AS (SELECT n, row_number() OVER (ORDER BY muid_to_bytea(id), n) AS r FROM muid_shuffled WHERE n > 30000)
SELECT 'generated only' AS input, count(*) AS rows, count(*) FILTER (WHERE a.r = b.r) AS same_position FROM a JOIN b USING (n);
-- text order = byte order
SELECT count(*) AS text_order_mismatches FROM (
    SELECT id, lag(id) OVER (ORDER BY id::text COLLATE "C") AS prev FROM muid_sort) s WHERE prev > id;
-- uuid order of the same bytes agrees too
SELECT count(*) AS uuid_order_mismatches FROM (
    SELECT id, lag(id) OVER (ORDER BY id::uuid) AS prev FROM muid_sort) s WHERE prev > id;
DROP TABLE muid_shuffled, muid_bulk_first, muid_mixed_first;
RESET work_mem;

-- hashing: equal values hash equally; hash joins and hash aggregation work
SELECT muid_hash('5D5EAC793E61F-1BFC71B112D-0000000B') = muid_hash('5d5eac793e61f-1bfc71b112d-0000000b') AS same_hash,
       muid_hash_extended('5D5EAC793E61F-1BFC71B112D-0000000B', 0) = muid_hash_extended('5D5EAC793E61F-1BFC71B112D-0000000B', 1) AS seed_used;
-- frozen: a hash index depends on these values
SELECT muid_hash('5D5EAC793E61F-1BFC71B112D-0000000B'), muid_hash_extended('5D5EAC793E61F-1BFC71B112D-0000000B', 42);
SET enable_sort = off;
SELECT count(*) FROM (SELECT id FROM muid_sort GROUP BY id) s;
RESET enable_sort;
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM muid_sort a JOIN muid_sort b USING (id);
SELECT count(*) FROM muid_sort a JOIN muid_sort b USING (id);
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_hashjoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM muid_sort a JOIN muid_sort b USING (id);
SELECT count(*) FROM muid_sort a JOIN muid_sort b USING (id);
RESET enable_hashjoin; RESET enable_nestloop;

-- btree, hash and BRIN indexes each answer like a sequential scan
ANALYZE muid_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE INDEX muid_sort_bt ON muid_sort (id);
EXPLAIN (COSTS OFF) SELECT n FROM muid_sort WHERE id = muid_from_parts('2030-01-01 00:00:00.000009+00', 1099511627778, 77);
SELECT n FROM muid_sort WHERE id = muid_from_parts('2030-01-01 00:00:00.000009+00', 1099511627778, 77);
EXPLAIN (COSTS OFF) SELECT count(*) FROM muid_sort
WHERE id >= muid_boundary('2030-01-01 00:00:00.000008+00') AND id < muid_boundary('2030-01-01 00:00:00.00001+00');
SELECT count(*) FROM muid_sort
WHERE id >= muid_boundary('2030-01-01 00:00:00.000008+00') AND id < muid_boundary('2030-01-01 00:00:00.00001+00');
DROP INDEX muid_sort_bt;
CREATE INDEX muid_sort_h ON muid_sort USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM muid_sort WHERE id = muid_from_parts('2030-01-01 00:00:00.000009+00', 1099511627778, 77);
SELECT n FROM muid_sort WHERE id = muid_from_parts('2030-01-01 00:00:00.000009+00', 1099511627778, 77);
DROP INDEX muid_sort_h;
RESET enable_bitmapscan;
CREATE INDEX muid_sort_brin ON muid_sort USING brin (id);
EXPLAIN (COSTS OFF) SELECT count(*) FROM muid_sort WHERE id >= muid_boundary('2030-01-01 00:00:00.000008+00');
SELECT count(*) FROM muid_sort WHERE id >= muid_boundary('2030-01-01 00:00:00.000008+00');
RESET enable_seqscan;
SELECT count(*) FROM muid_sort WHERE id >= muid_boundary('2030-01-01 00:00:00.000008+00');
SELECT count(*) FROM muid_sort WHERE muid_timestamp(id) >= '2030-01-01 00:00:00.000008+00';
DROP TABLE muid_sort;
