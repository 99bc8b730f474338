-- revts8: doc/formats.md vectors, text and binary I/O, casts, bad input.
SET TimeZone = 'UTC';
-- LableOrg/java-uniqueid vectors: (timestamp ms, sequence, generator, cluster) -> text
SELECT f, revts8_from_parts('1970-01-01Z'::timestamptz + ts * interval '1 ms', s, g, c) AS id,
       revts8_from_parts('1970-01-01Z'::timestamptz + ts * interval '1 ms', s, g, c)::text = want AS ok
FROM (VALUES ('zero', 0::bigint, 0, 0, 0, '0000000000000000'),
             ('all ones', 4398046511103, 63, 63, 15, 'ffffffffffff03ff'),
             ('143062936275', 143062936275, 0, 0, 0, 'cb54ecf284000000'),
             ('0x3FFFFFFFD', 17179869181, 0, 0, 0, 'bfffffffc0000000')) v(f, ts, s, g, c, want);
SELECT substring(revts8_from_parts('1970-01-01Z', 34, 0, 0)::bytea FROM 6 FOR 1) AS byte5_is_22,
       substring(revts8_from_parts('1970-01-01Z', 0, 39, 0)::bytea FROM 7 FOR 2) AS bytes67_are_0270,
       substring(revts8_from_parts('1970-01-01Z', 0, 0, 5)::bytea FROM 7 FOR 2) AS bytes67_are_0005;
-- and back: text -> fields
SELECT id, revts8_timestamp(id), revts8_sequence(id), revts8_generator(id), revts8_cluster(id),
       extract(epoch FROM revts8_timestamp(id)) * 1000 AS ms
FROM (VALUES ('cb54ecf284000000'::revts8), ('ffffffffffff03ff'), ('bfffffffc0000000'), ('0000000000000000')) v(id);

-- text: 16 hex digits, either case in, lower case out
SELECT 'CB54ECF284000000'::revts8, 'Cb54eCf284000000'::revts8 = 'cb54ecf284000000'::revts8 AS mixed;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT ''::revts8$$),
  ($$SELECT 'cb54ecf28400000'::revts8$$),
  ($$SELECT 'cb54ecf2840000000'::revts8$$),
  ($$SELECT ' cb54ecf284000000'::revts8$$),
  ($$SELECT 'cb54ecf28400000g'::revts8$$),
  ($$SELECT '0x54ecf284000000'::revts8$$),
  ($$SELECT 'cb54ecf2840004000'::revts8$$),
  ($$SELECT 'cb54ecf284000400'::revts8$$),
  ($$SELECT 'cb54ecf28400fc00'::revts8$$),
  ($$SELECT 'cb54ecf284008000'::revts8$$)
) v(stmt);
SELECT 'cb54ecf284000400'::revts8;
SELECT 'cb54ecf28400000g'::revts8;

-- casts: bytea (8 bytes) and bigint (the bytes as a signed big-endian integer)
SELECT 'ffffffffffff03ff'::revts8::bytea, 'ffffffffffff03ff'::revts8::bigint,
       '\xcb54ecf284000000'::bytea::revts8, (-3795148059625652224)::bigint::revts8,
       'cb54ecf284000000'::revts8::bigint::revts8 = 'cb54ecf284000000'::revts8 AS bigint_round_trip;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT '\xcb54ecf2840000'::bytea::revts8$$),
  ($$SELECT '\xcb54ecf28400000000'::bytea::revts8$$),
  ($$SELECT '\xcb54ecf284000400'::bytea::revts8$$),
  ($$SELECT 1024::bigint::revts8$$),
  ($$SELECT (-1)::bigint::revts8$$)
) v(stmt);

-- binary COPY round trip; binary input with reserved bits set or of the wrong size
CREATE TABLE rv_bin (id revts8, n int);
INSERT INTO rv_bin SELECT revts8_from_parts('2020-01-01Z'::timestamptz + g * interval '1.5 s', g % 64, g % 64, g % 16), g
FROM generate_series(1, 1000) g;
INSERT INTO rv_bin VALUES ('0000000000000000', 0), ('ffffffffffff03ff', 1001), (NULL, 1002);
\copy rv_bin TO 'results/rv_bin.copy' WITH (FORMAT binary)
CREATE TABLE rv_bin2 (LIKE rv_bin);
\copy rv_bin2 FROM 'results/rv_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM rv_bin a JOIN rv_bin2 b USING (n);
CREATE TABLE rv_raw (b bigint);
INSERT INTO rv_raw VALUES (1024);
\copy rv_raw TO 'results/rv_reserved.copy' WITH (FORMAT binary)
CREATE TABLE rv_recv (id revts8);
\copy rv_recv FROM 'results/rv_reserved.copy' WITH (FORMAT binary)
CREATE TABLE rv_int (i int);
INSERT INTO rv_int VALUES (7);
\copy rv_int TO 'results/rv_int.copy' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy rv_recv FROM 'results/rv_int.copy' WITH (FORMAT binary)
\set VERBOSITY default
SELECT count(*) FROM rv_recv;
DROP TABLE rv_bin, rv_bin2, rv_raw, rv_recv, rv_int;
