-- snowflake_si: operators, operator classes, indexes, sorting.
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
       snowflake_si_cmp(a, b) AS cmp
FROM (VALUES ('0'::snowflake_si, '1'::snowflake_si),
             ('8192', '8192'),
             ('9007199254740991', '5170397184000256')) v(a, b);
SELECT oprname, oprcanmerge, oprcanhash, oprcom::regoperator, oprnegate::regoperator, oprrest, oprjoin
FROM pg_operator WHERE oprleft = 'snowflake_si'::regtype ORDER BY oprname;
SELECT opcname, amname, opcdefault, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE opcintype = 'snowflake_si'::regtype ORDER BY amname, opcname;
SELECT a.amname, p.amprocnum, p.amproc::regprocedure
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE p.amproclefttype = 'snowflake_si'::regtype ORDER BY a.amname, p.amprocnum;
SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'snowflake_si';

-- hashes are bigint's
SELECT snowflake_si_hash('5170397184000256') = hashint8(5170397184000256) AS same_as_bigint,
       snowflake_si_hash_extended('5170397184000256', 42) = hashint8extended(5170397184000256, 42) AS extended_same;

-- order is integer order, with and without an index; hash, merge joins; BRIN
CREATE TABLE sf_sort (id snowflake_si, n int);
INSERT INTO sf_sort SELECT (hashint8(g)::bigint & 9007199254740991)::snowflake_si, g
FROM generate_series(1, 50000) g;
SELECT count(*) AS out_of_order FROM (
    SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM sf_sort) s WHERE prev > id;
SELECT count(*) AS differs_from_bigint FROM (
    SELECT id, row_number() OVER (ORDER BY id) AS r, row_number() OVER (ORDER BY id::bigint) AS rb FROM sf_sort) s
WHERE r <> rb;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) FROM sf_sort a JOIN sf_sort b USING (id);
RESET enable_mergejoin; SET enable_hashjoin = off;
SELECT count(*) FROM sf_sort a JOIN sf_sort b USING (id);
RESET enable_hashjoin; RESET enable_nestloop;
ANALYZE sf_sort;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE INDEX sf_sort_bt ON sf_sort (id);
SELECT uid_explain('SELECT n FROM sf_sort WHERE id = (SELECT id FROM sf_sort WHERE n = 777)');
SELECT n FROM sf_sort WHERE id = (SELECT id FROM sf_sort WHERE n = 777);
DROP INDEX sf_sort_bt;
CREATE INDEX sf_sort_h ON sf_sort USING hash (id);
EXPLAIN (COSTS OFF) SELECT n FROM sf_sort WHERE id = '8192';
SELECT n FROM sf_sort WHERE id = (SELECT id FROM sf_sort WHERE n = 777);
DROP INDEX sf_sort_h;
RESET enable_bitmapscan;
CREATE INDEX sf_sort_brin ON sf_sort USING brin (id);
EXPLAIN (COSTS OFF) SELECT count(*) FROM sf_sort WHERE id >= '4503599627370496';
SELECT count(*) FROM sf_sort WHERE id >= '4503599627370496';
RESET enable_seqscan;
SELECT count(*) FROM sf_sort WHERE id::bigint >= 4503599627370496;
DROP TABLE sf_sort;
