-- snowflake_si: doc/formats.md vectors, text and binary I/O, casts, bad input.
SET TimeZone = 'UTC';
-- Vectors of doc/formats.md (base clock 2004-01-01Z, k = 8; the last one with
-- the smallest base clock the original accepts), through the forms that
-- name the base clock and width.
SELECT snowflake_si_from_parts('2004-01-01 00:00:00.001+00', 0, 0, '2004-01-01Z', 8) AS v1,
       snowflake_si_from_parts('2024-01-01 00:00:00+00', 1, 0, '2004-01-01Z', 8) AS v2,
       snowflake_si_from_parts(to_timestamp(2147483647), 31, 255, '2003-03-18 07:20:19.225+00', 8) AS v3;
SELECT id, snowflake_si_timestamp(id, epoch), snowflake_si_machine(id, 8), snowflake_si_index(id, 8)
FROM (VALUES ('8192'::snowflake_si, '2004-01-01Z'::timestamptz),
             ('5170397184000256', '2004-01-01Z'),
             ('9007199254740991', '2003-03-18 07:20:19.225+00')) v(id, epoch);
-- the forms that read the settings agree with them at the defaults (2024-01-01, k = 8)
SELECT snowflake_si_from_parts('2024-05-06 07:08:09.01Z', 3, 7)
     = snowflake_si_from_parts('2024-05-06 07:08:09.01Z', 3, 7, '2024-01-01Z', 8) AS same_parts,
       snowflake_si_timestamp('5170397184000256') = snowflake_si_timestamp('5170397184000256', '2024-01-01Z') AS same_time;
-- other widths
SELECT snowflake_si_timestamp('5170397184000256', '2004-01-01Z'),
       snowflake_si_machine('5170397184000256', 8), snowflake_si_index('5170397184000256', 8),
       snowflake_si_machine('5170397184000256', 13), snowflake_si_index('5170397184000256', 13),
       snowflake_si_machine('5170397184000256', 1), snowflake_si_index('5170397184000256', 1);

-- text: plain decimal, no padding; input allows surrounding white space and leading zeros
SELECT '0'::snowflake_si, '9007199254740991'::snowflake_si, ' 42 '::snowflake_si,
       E'\t7\n'::snowflake_si, '000123'::snowflake_si;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT ''::snowflake_si$$),
  ($$SELECT '   '::snowflake_si$$),
  ($$SELECT '-1'::snowflake_si$$),
  ($$SELECT '+1'::snowflake_si$$),
  ($$SELECT '0x10'::snowflake_si$$),
  ($$SELECT '1e3'::snowflake_si$$),
  ($$SELECT '12 34'::snowflake_si$$),
  ($$SELECT '9007199254740992'::snowflake_si$$),
  ($$SELECT '18446744073709551616'::snowflake_si$$),
  ($$SELECT '99999999999999999999999999'::snowflake_si$$),
  ($$SELECT 'abc'::snowflake_si$$)
) v(stmt);
SELECT '9007199254740992'::snowflake_si;
SELECT '12a'::snowflake_si;

-- casts to and from bigint, range-checked
SELECT '5170397184000256'::snowflake_si::bigint, 5170397184000256::bigint::snowflake_si,
       0::bigint::snowflake_si, 9007199254740991::bigint::snowflake_si;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT (-1)::bigint::snowflake_si$$),
  ($$SELECT 9007199254740992::bigint::snowflake_si$$),
  ($$SELECT 9223372036854775807::bigint::snowflake_si$$)
) v(stmt);

-- binary COPY round trip, and binary values out of range or of the wrong size
CREATE TABLE sf_bin (id snowflake_si, n int);
INSERT INTO sf_bin SELECT (g * 9007199254740.991)::bigint::snowflake_si, g FROM generate_series(0, 1000) g;
INSERT INTO sf_bin VALUES (NULL, 1001);
\copy sf_bin TO 'results/sf_bin.copy' WITH (FORMAT binary)
CREATE TABLE sf_bin2 (LIKE sf_bin);
\copy sf_bin2 FROM 'results/sf_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM sf_bin a JOIN sf_bin2 b USING (n);
CREATE TABLE sf_raw (b bigint);
INSERT INTO sf_raw VALUES (9007199254740992);
\copy sf_raw TO 'results/sf_big.copy' WITH (FORMAT binary)
CREATE TABLE sf_recv (id snowflake_si);
\copy sf_recv FROM 'results/sf_big.copy' WITH (FORMAT binary)
TRUNCATE sf_raw;
INSERT INTO sf_raw VALUES (-1);
\copy sf_raw TO 'results/sf_neg.copy' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy sf_recv FROM 'results/sf_neg.copy' WITH (FORMAT binary)
\set VERBOSITY default
CREATE TABLE sf_int (i int);
INSERT INTO sf_int VALUES (7);
\copy sf_int TO 'results/sf_int.copy' WITH (FORMAT binary)
\copy sf_recv FROM 'results/sf_int.copy' WITH (FORMAT binary)
SELECT count(*) FROM sf_recv;
DROP TABLE sf_bin, sf_bin2, sf_raw, sf_recv, sf_int;
