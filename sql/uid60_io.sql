-- uid60: doc/formats.md vector, text and binary I/O, casts, bad input.
SET TimeZone = 'UTC';
-- doc/formats.md (abyss-club/uexky's test): storage 800000000000000 (hex) displays
-- as AAAAAQAAAA; the timestamp's 32 bits are reversed bit by bit, not byte by byte
SELECT x'0800000000000000'::bigint::uid60 AS vector,
       x'0800000000000000'::bigint::uid60::text = 'AAAAAQAAAA' AS ok,
       'AAAAAQAAAA'::uid60::bigint = x'0800000000000000'::bigint AS back,
       uid60_timestamp('AAAAAQAAAA') AS ts;
-- fields -> text and back
SELECT f, id, id::text = want AS ok, uid60_timestamp(id), uid60_worker(id), uid60_sequence(id),
       uid60_random(id), id::bigint
FROM (VALUES ('zero', uid60_from_parts('2018-03-01Z', 0, 0, 0), 'AAAAAAAAAA'),
             ('last', uid60_from_parts('2154-04-07 06:28:15Z', 511, 1023, 511), '__________'),
             ('second 1', uid60_from_parts('2018-03-01 00:00:01Z', 0, 0, 0), 'gAAAAAAAAA'),
             ('random 1', uid60_from_parts('2018-03-01Z', 0, 0, 1), 'AAAAAAAAAB'),
             ('worker 1', uid60_from_parts('2018-03-01Z', 1, 0, 0), 'AAAAAACAAA'),
             ('sequence 1', uid60_from_parts('2018-03-01Z', 0, 1, 0), 'AAAAAAAAIA'),
             ('2024', uid60_from_parts('2024-01-01Z', 300, 777, 123), 'AH1fUJZhJ7'),
             ('2024 +1 s', uid60_from_parts('2024-01-01 00:00:01Z', 300, 777, 123), 'gH1fUJZhJ7')
     ) v(f, id, want);

-- The text is the base64url alphabet over the display value m, which is n
-- with its top 32 bits (the timestamp) reversed: checked against core's
-- base64 encoder and bit-string reversal over 10,000 values.
CREATE TABLE u60_vals AS
SELECT g, (hashint8extended(g, 60) & 1152921504606846975)::uid60 AS id FROM generate_series(1, 10000) g;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE id::text <> substr(translate(encode(int8send(m << 4), 'base64'), '+/', '-_'), 1, 10))
         AS differs_from_base64url,
       count(*) FILTER (WHERE id::text::uid60 <> id) AS text_round_trip_fails,
       count(*) FILTER (WHERE id::bigint::uid60 <> id) AS bigint_round_trip_fails
FROM (SELECT id, reverse(((id::bigint >> 28)::bit(32))::text)::bit(32)::bigint << 28
                 | (id::bigint & 268435455) AS m
      FROM u60_vals) s;
-- every 10 characters of the alphabet are a uid60, and come back as they were
SELECT count(*) AS rows, count(*) FILTER (WHERE t::uid60::text <> t) AS text_changed
FROM (SELECT substr(translate(encode(sha256(g::text::bytea), 'base64'), '+/', '-_'), 1, 10) AS t
      FROM generate_series(1, 10000) g) s;
-- case-sensitive: another case is another ID
SELECT 'aaaaaaaaaa'::uid60 = 'AAAAAAAAAA'::uid60 AS same, 'aaaaaaaaaa'::uid60::bigint AS lower_a,
       'AH1fUJZhJ7'::uid60 = 'ah1fujzhj7'::uid60 AS same_folded;

SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT ''::uid60$$),
  ($$SELECT 'AH1fUJZhJ'::uid60$$),
  ($$SELECT 'AH1fUJZhJ7A'::uid60$$),
  ($$SELECT ' AH1fUJZhJ7'::uid60$$),
  ($$SELECT 'AH1fUJZhJ7 '::uid60$$),
  ($$SELECT 'AH1fUJZhJ+'::uid60$$),
  ($$SELECT 'AH1fUJZhJ/'::uid60$$),
  ($$SELECT 'AH1fUJZh=='::uid60$$),
  ($$SELECT 'AH1fU.ZhJ7'::uid60$$),
  ($$SELECT 'AH1fUJZhé'::uid60$$),
  ($$SELECT '0x0800000000000000'::uid60$$),
  ($$SELECT '576460752303423488'::uid60$$)
) v(stmt);
SELECT 'AH1fUJZhJ+'::uid60;
SELECT 'AH1fUJZhJ'::uid60;

-- casts to and from bigint, range-checked
SELECT 0::bigint::uid60 AS zero, 1152921504606846975::bigint::uid60 AS max,
       uid60_from_parts('2024-01-01Z', 300, 777, 123)::bigint AS n;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT (-1)::bigint::uid60$$),
  ($$SELECT 1152921504606846976::bigint::uid60$$),
  ($$SELECT 9223372036854775807::bigint::uid60$$),
  ($$SELECT (-9223372036854775808)::bigint::uid60$$)
) v(stmt);
SELECT 1152921504606846976::bigint::uid60;

-- binary COPY round trip, and binary values out of range or of the wrong size
CREATE TABLE u60_bin (id uid60, n int);
INSERT INTO u60_bin SELECT id, g FROM u60_vals;
INSERT INTO u60_bin VALUES ('AAAAAAAAAA', 0), ('__________', 10001), (NULL, 10002);
\copy u60_bin TO 'results/u60_bin.copy' WITH (FORMAT binary)
CREATE TABLE u60_bin2 (LIKE u60_bin);
\copy u60_bin2 FROM 'results/u60_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM u60_bin a JOIN u60_bin2 b USING (n);
-- the binary form is bigint's
SELECT uid60_send('AH1fUJZhJ7') = int8send('AH1fUJZhJ7'::uid60::bigint) AS same_as_bigint;
CREATE TABLE u60_raw (b bigint);
INSERT INTO u60_raw VALUES (1152921504606846976);
\copy u60_raw TO 'results/u60_big.copy' WITH (FORMAT binary)
CREATE TABLE u60_recv (id uid60);
\copy u60_recv FROM 'results/u60_big.copy' WITH (FORMAT binary)
TRUNCATE u60_raw;
INSERT INTO u60_raw VALUES (-1);
\copy u60_raw TO 'results/u60_neg.copy' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy u60_recv FROM 'results/u60_neg.copy' WITH (FORMAT binary)
\set VERBOSITY default
CREATE TABLE u60_int (i int);
INSERT INTO u60_int VALUES (7);
\copy u60_int TO 'results/u60_int.copy' WITH (FORMAT binary)
\copy u60_recv FROM 'results/u60_int.copy' WITH (FORMAT binary)
SELECT count(*) FROM u60_recv;
DROP TABLE u60_vals, u60_bin, u60_bin2, u60_raw, u60_recv, u60_int;
