-- revts8: time order by default, byte order in revts8_bytes_ops; operators,
-- operator classes and the indexes that use them.
SET TimeZone = 'UTC';
-- consecutive milliseconds: time order and byte order disagree
SELECT a, b, a < b AS time_lt, a ~<~ b AS bytes_lt, revts8_cmp(a, b), revts8_bytes_cmp(a, b)
FROM (SELECT revts8_from_parts('2024-01-01 00:00:00.001Z', 0, 0, 0) AS a,
             revts8_from_parts('2024-01-01 00:00:00.002Z', 0, 0, 0) AS b) s;
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
       a ~<~ b AS blt, a ~<=~ b AS ble, a ~>~ b AS bgt, a ~>=~ b AS bge
FROM (VALUES ('0000000000000000'::revts8, '0000000000000001'::revts8),
             ('cb54ecf284000000', 'cb54ecf284000000'),
             ('8000000000000000', '4000000000000000')) v(a, b);
SELECT oprname, oprcanmerge, oprcanhash, oprcom::regoperator, oprnegate::regoperator, oprrest
FROM pg_operator WHERE oprleft = 'revts8'::regtype ORDER BY oprname;
SELECT opcname, amname, opcdefault, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'revts8'::regtype ORDER BY amname, opcname;
SELECT f.opfname, p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE p.amproclefttype = 'revts8'::regtype ORDER BY f.opfname, p.amprocnum;
SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'revts8';

CREATE TABLE rv_sort (id revts8, n int);
INSERT INTO rv_sort
SELECT revts8_from_parts('2024-01-01Z'::timestamptz + (g / 7) * interval '1 ms', g % 7, g % 64, g % 16), g
FROM generate_series(0, 49999) g ORDER BY md5(g::text);
-- default order = (timestamp, sequence, generator, cluster); bytes order = bytea order
SELECT count(*) AS time_order_mismatches FROM (
    SELECT row_number() OVER (ORDER BY id) AS a,
           row_number() OVER (ORDER BY revts8_timestamp(id), revts8_sequence(id), revts8_generator(id), revts8_cluster(id)) AS b
    FROM rv_sort) s WHERE a <> b;
SELECT count(*) AS byte_order_mismatches FROM (
    SELECT row_number() OVER (ORDER BY id USING ~<~) AS a, row_number() OVER (ORDER BY id::bytea) AS b
    FROM rv_sort) s WHERE a <> b;
SELECT count(*) AS time_and_bytes_differ FROM (
    SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id USING ~<~) AS b
    FROM rv_sort) s WHERE a <> b;
SELECT sum(n) AS via_hashagg FROM (SELECT DISTINCT id, n FROM rv_sort) s;

-- both btree classes are used by an index, for their own operators and order
ANALYZE rv_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE INDEX rv_time ON rv_sort (id);
CREATE INDEX rv_bytes ON rv_sort (id revts8_bytes_ops);
EXPLAIN (COSTS OFF) SELECT n FROM rv_sort WHERE id >= revts8_boundary('2024-01-01 00:00:05Z') AND id < revts8_boundary('2024-01-01 00:00:06Z');
SELECT count(*) FROM rv_sort WHERE id >= revts8_boundary('2024-01-01 00:00:05Z') AND id < revts8_boundary('2024-01-01 00:00:06Z');
SELECT count(*) FROM rv_sort WHERE revts8_timestamp(id) >= '2024-01-01 00:00:05Z' AND revts8_timestamp(id) < '2024-01-01 00:00:06Z';
EXPLAIN (COSTS OFF) SELECT id FROM rv_sort ORDER BY id LIMIT 3;
SELECT id, revts8_timestamp(id) FROM rv_sort ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM rv_sort ORDER BY id USING ~<~ LIMIT 3;
SELECT id FROM rv_sort ORDER BY id USING ~<~ LIMIT 3;
EXPLAIN (COSTS OFF) SELECT n FROM rv_sort WHERE id ~>=~ '8000000000000000' AND id ~<~ '8100000000000000';
SELECT count(*) FROM rv_sort WHERE id ~>=~ '8000000000000000' AND id ~<~ '8100000000000000';
SELECT count(*) FROM rv_sort WHERE substring(id::bytea FROM 1 FOR 1) = '\x80';
DROP INDEX rv_time, rv_bytes;
CREATE INDEX rv_hash ON rv_sort USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM rv_sort WHERE id = revts8_from_parts('2024-01-01 00:00:00.001Z', 0, 7, 7);
SELECT n FROM rv_sort WHERE id = revts8_from_parts('2024-01-01 00:00:00.001Z', 0, 7, 7);
DROP INDEX rv_hash;
RESET enable_bitmapscan;
CREATE INDEX rv_brin ON rv_sort USING brin (id);
EXPLAIN (COSTS OFF) SELECT count(*) FROM rv_sort WHERE id >= revts8_boundary('2024-01-01 00:00:05Z');
SELECT count(*) FROM rv_sort WHERE id >= revts8_boundary('2024-01-01 00:00:05Z');
RESET enable_seqscan;
SELECT count(*) FROM rv_sort WHERE revts8_timestamp(id) >= '2024-01-01 00:00:05Z';
DROP TABLE rv_sort;
