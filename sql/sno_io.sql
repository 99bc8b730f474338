-- Text and binary input and output, and every class of bad input.
SELECT 'brpk4q72xwf2m63l'::sno::text, '2222222222222222'::sno, 'xxxxxxxxxxxxxxxx'::sno;
SELECT NULL::sno IS NULL AS null_ok, sno_to_bytea(NULL) IS NULL AS strict_ok;

-- the message quotes the input and says what was expected
SELECT ''::sno;
SELECT 'brpk4q72xwf2m63'::sno;
SELECT 'brpk4q72xwf2m63lz'::sno;
SELECT 'brpk4q72xwf2m63!'::sno;
SELECT 'brpk4q72xwf2m63y'::sno;

-- SQLSTATE of each class
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT ''::sno$$),                          -- empty
  ($$SELECT ' brpk4q72xwf2m63l'::sno$$),         -- leading space
  ($$SELECT 'brpk4q72xwf2m63l '::sno$$),         -- trailing space
  ($$SELECT '0rpk4q72xwf2m63l'::sno$$),          -- 0 is not in the alphabet
  ($$SELECT '1rpk4q72xwf2m63l'::sno$$),          -- nor 1
  ($$SELECT 'brpk4q72xwf2m63z'::sno$$),          -- nor y, z
  ($$SELECT 'brpk4q72-wf2m63l'::sno$$),          -- punctuation
  ($$SELECT 'brpk4q72xwf2m6é'::sno$$),           -- multibyte
  ($$SELECT repeat('2', 40)::sno$$),           -- long
  ($$SELECT '\x4e6f2160a0ff9a0a10'::bytea::sno$$),     -- 9 bytes
  ($$SELECT '\x4e6f2160a0ff9a0a103300'::bytea::sno$$), -- 11 bytes
  ($$SELECT ''::bytea::sno$$)                           -- 0 bytes
) v(stmt);

-- bytea casts round trip
SELECT sno_to_bytea('brpk4q72xwf2m63l'), bytea_to_sno('\x4e6f2160a0ff9a0a1033'),
       '\x4e6f2160a0ff9a0a1033'::bytea::sno::bytea;

-- binary COPY round trip
CREATE TABLE sno_bin (id sno, n int);
INSERT INTO sno_bin SELECT sno_from_parts('2024-05-06 07:08:09.012+00'::timestamptz + g * interval '1 s', g % 256, g, g * 7, g % 2), g
FROM generate_series(1, 1000) g;
INSERT INTO sno_bin VALUES ('2222222222222222', 0), ('xxxxxxxxxxxxxxxx', 1001), (NULL, 1002);
\copy sno_bin TO 'results/sno_bin.copy' WITH (FORMAT binary)
CREATE TABLE sno_bin2 (LIKE sno_bin);
\copy sno_bin2 FROM 'results/sno_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM sno_bin a JOIN sno_bin2 b USING (n);
-- text COPY round trip
\copy sno_bin TO 'results/sno_text.copy'
TRUNCATE sno_bin2;
\copy sno_bin2 FROM 'results/sno_text.copy'
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM sno_bin a JOIN sno_bin2 b USING (n);

-- binary input of the wrong size: a 9-byte and an 11-byte field are refused
CREATE TABLE sno_bytes (b bytea);
INSERT INTO sno_bytes VALUES ('\x4e6f2160a0ff9a0a10');
\copy sno_bytes TO 'results/sno_short.copy' WITH (FORMAT binary)
CREATE TABLE sno_recv (id sno);
\copy sno_recv FROM 'results/sno_short.copy' WITH (FORMAT binary)
TRUNCATE sno_bytes;
INSERT INTO sno_bytes VALUES ('\x4e6f2160a0ff9a0a103300');
\copy sno_bytes TO 'results/sno_long.copy' WITH (FORMAT binary)
\set VERBOSITY sqlstate
\copy sno_recv FROM 'results/sno_long.copy' WITH (FORMAT binary)
\copy sno_recv FROM 'results/sno_short.copy' WITH (FORMAT binary)
\set VERBOSITY default
TRUNCATE sno_bytes;
INSERT INTO sno_bytes VALUES ('\x4e6f2160a0ff9a0a1033');
\copy sno_bytes TO 'results/sno_exact.copy' WITH (FORMAT binary)
\copy sno_recv FROM 'results/sno_exact.copy' WITH (FORMAT binary)
SELECT * FROM sno_recv;
DROP TABLE sno_bin, sno_bin2, sno_bytes, sno_recv;
