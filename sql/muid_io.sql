-- muid: the doc/formats.md vectors, text and binary I/O, casts, every class of bad input.
SET TimeZone = 'UTC';
-- vectors: (timestamp us, medallion, offset) <-> bytes <-> text
SELECT v.text, v.text::muid::text = v.text AS text_round_trip,
       v.text::muid::bytea = v.bytes AS bytes_ok,
       v.bytes::muid::text = v.text AS from_bytes_ok,
       muid_medallion(v.text::muid) = v.medallion AS medallion_ok,
       muid_offset(v.text::muid) = v.off AS offset_ok,
       (extract(epoch FROM muid_timestamp(v.text::muid)) * 1000000)::bigint = v.ts AS timestamp_ok
FROM (VALUES
  ('5D5EAC793E61F-1BFC71B112D-0000000B', '\x5d5eac793e61f1bfc71b112d0000000b'::bytea, 1642579230975519, 1923190821165, 11),
  ('5D5EAC793E61F-1BFC71B112D-FFFFFFFF', '\x5d5eac793e61f1bfc71b112dffffffff'::bytea, 1642579230975519, 1923190821165, -1),
  ('FFFFFFFFFFFFF-FFFFFFFFFFF-00000004', '\xffffffffffffffffffffffff00000004'::bytea, 4503599627370495, 17592186044415, 4),
  ('0000000000000-00000000000-00000000', '\x00000000000000000000000000000000'::bytea, 0, 0, 0)
) v(text, bytes, ts, medallion, off);
-- the spec's example, field by field, and from its parts
SELECT muid_timestamp('5D5EAC793E61F-1BFC71B112D-0000000B'),
       muid_medallion('5D5EAC793E61F-1BFC71B112D-0000000B'),
       muid_offset('5D5EAC793E61F-1BFC71B112D-0000000B'),
       muid_offset('5D5EAC793E61F-1BFC71B112D-FFFFFFFF') AS minus_one,
       muid_from_parts('2022-01-19 08:00:30.975519+00', 1923190821165, 11) AS from_parts,
       muid_from_parts('2022-01-19 08:00:30.975519+00', 1923190821165, -1) AS from_parts_minus_one;
-- lower case in, upper case out; the two short forms fill in zeros
SELECT '5d5eac793e61f-1bfc71b112d-0000000b'::muid AS lower,
       '5D5EAC793E61F-1BFC71B112D'::muid AS no_offset,
       '5d5eac793e61f'::muid AS timestamp_only,
       '5D5EAC793E61F'::muid = muid_from_parts('2022-01-19 08:00:30.975519+00', 0) AS short_is_zero;
SELECT NULL::muid IS NULL AS null_ok, muid_to_bytea(NULL) IS NULL AS strict_ok;

-- the message quotes the input and says what was expected
SELECT ''::muid;
SELECT '5D5EAC793E61F-1BFC71B112D-0000000'::muid;
SELECT '5D5EAC793E61F1-BFC71B112D-0000000B'::muid;
SELECT '5D5EAC793E61G-1BFC71B112D-0000000B'::muid;

-- SQLSTATE of each class
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT ''::muid$$),                                        -- empty
  ($$SELECT ' 5D5EAC793E61F-1BFC71B112D-0000000B'::muid$$),     -- leading space
  ($$SELECT '5D5EAC793E61F-1BFC71B112D-0000000B '::muid$$),     -- trailing space
  ($$SELECT '5D5EAC793E61F-1BFC71B112D-000000G'::muid$$),       -- not hex, short
  ($$SELECT '5D5EAC793E61F-1BFC71B112D-0000000G'::muid$$),      -- not hex
  ($$SELECT '5D5EAC793E61F_1BFC71B112D_0000000B'::muid$$),      -- other separator
  ($$SELECT '5D5EAC793E61F1-BFC71B112D-0000000B'::muid$$),      -- groups 14-10-8
  ($$SELECT '5D5EAC793E61F-1BFC71B112D0-000000B'::muid$$),      -- groups 13-12-7
  ($$SELECT '05D5EAC793E61F-1BFC71B112D0-0000B'::muid$$),       -- the old 14/13/5 layout
  ($$SELECT '5D5EAC793E61F-1BFC71B112D-'::muid$$),              -- trailing dash
  ($$SELECT '5D5EAC793E61F-'::muid$$),                          -- trailing dash
  ($$SELECT '5D5EAC793E61'::muid$$),                            -- 12 digits
  ($$SELECT '5d5eac79-3e61-f1bf-c71b-112d0000000b'::muid$$),    -- uuid text is not muid text
  ($$SELECT '5D5EAC793E61F-1BFC71B112D-0000000É'::muid$$),      -- multibyte
  ($$SELECT repeat('A', 100)::muid$$),                          -- long
  ($$SELECT '\x5d5eac793e61f1bfc71b112d00000b'::bytea::muid$$),     -- 15 bytes
  ($$SELECT '\x5d5eac793e61f1bfc71b112d0000000b00'::bytea::muid$$), -- 17 bytes
  ($$SELECT ''::bytea::muid$$)                                      -- 0 bytes
) v(stmt);

-- casts: bytea and uuid round trip, the same 16 bytes
SELECT '5D5EAC793E61F-1BFC71B112D-0000000B'::muid::uuid AS as_uuid,
       '5d5eac79-3e61-f1bf-c71b-112d0000000b'::uuid::muid AS from_uuid,
       muid_to_bytea('5D5EAC793E61F-1BFC71B112D-0000000B') AS as_bytea,
       bytea_to_muid('\x5d5eac793e61f1bfc71b112d0000000b') AS from_bytea;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE m::uuid::muid = m AND m::bytea::muid = m
                        AND m::uuid::text = encode(m::bytea, 'hex')::uuid::text) AS round_trips
FROM (SELECT substring(decode(md5(g::text) || md5((-g)::text), 'hex') FROM 1 FOR 16)::muid AS m
      FROM generate_series(1, 10000) g) s;
-- the casts are explicit only
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod
FROM pg_cast WHERE castsource = 'muid'::regtype OR casttarget = 'muid'::regtype ORDER BY 1, 2;

-- binary COPY round trip
CREATE TABLE muid_bin (id muid, n int);
INSERT INTO muid_bin SELECT muid_from_parts('2024-05-06 07:08:09.012345+00'::timestamptz + g * interval '1.000001 s', (g * 1000003) % 17592186044416, g - 500), g
FROM generate_series(1, 1000) g;
INSERT INTO muid_bin VALUES ('0000000000000-00000000000-00000000', 0),
  ('FFFFFFFFFFFFF-FFFFFFFFFFF-FFFFFFFF', 1001), (NULL, 1002);
\copy muid_bin TO 'results/muid_bin.copy' WITH (FORMAT binary)
CREATE TABLE muid_bin2 (LIKE muid_bin);
\copy muid_bin2 FROM 'results/muid_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM muid_bin a JOIN muid_bin2 b USING (n);
-- text COPY round trip
\copy muid_bin TO 'results/muid_text.copy'
TRUNCATE muid_bin2;
\copy muid_bin2 FROM 'results/muid_text.copy'
SELECT count(*) AS rows, count(*) FILTER (WHERE a.id IS NOT DISTINCT FROM b.id) AS equal
FROM muid_bin a JOIN muid_bin2 b USING (n);

-- binary input of the wrong size: a 15-byte and a 17-byte field are refused
CREATE TABLE muid_bytes (b bytea);
INSERT INTO muid_bytes VALUES ('\x5d5eac793e61f1bfc71b112d00000b');
\copy muid_bytes TO 'results/muid_short.copy' WITH (FORMAT binary)
CREATE TABLE muid_recv (id muid);
\set VERBOSITY sqlstate
\copy muid_recv FROM 'results/muid_short.copy' WITH (FORMAT binary)
TRUNCATE muid_bytes;
INSERT INTO muid_bytes VALUES ('\x5d5eac793e61f1bfc71b112d0000000b00');
\copy muid_bytes TO 'results/muid_long.copy' WITH (FORMAT binary)
\copy muid_recv FROM 'results/muid_long.copy' WITH (FORMAT binary)
\set VERBOSITY default
\copy muid_recv FROM 'results/muid_short.copy' WITH (FORMAT binary)
TRUNCATE muid_bytes;
INSERT INTO muid_bytes VALUES ('\x5d5eac793e61f1bfc71b112d0000000b');
\copy muid_bytes TO 'results/muid_exact.copy' WITH (FORMAT binary)
\copy muid_recv FROM 'results/muid_exact.copy' WITH (FORMAT binary)
SELECT * FROM muid_recv;
DROP TABLE muid_bin, muid_bin2, muid_bytes, muid_recv;

-- from_parts and boundary: exact microseconds, ranges and field errors
SELECT muid_from_parts('1970-01-01 00:00:00+00', 0) AS first,
       muid_from_parts('2112-09-17 23:53:47.370494+00', 17592186044415, -1) AS last,
       muid_boundary('2022-01-19 08:00:30.975519+00') AS boundary,
       muid_boundary('1900-01-01+00') AS boundary_before_range,
       muid_timestamp(muid_from_parts('2031-02-03 04:05:06.789012+00', 42)) AS exact;
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT muid_from_parts('1969-12-31 23:59:59.999999+00', 0)$$),   -- before 1970
  ($$SELECT muid_from_parts('2112-09-17 23:53:47.370495+00', 0)$$),   -- the global sentinel's time
  ($$SELECT muid_from_parts('infinity', 0)$$),
  ($$SELECT muid_from_parts(now(), -1)$$),                            -- medallion below 0
  ($$SELECT muid_from_parts(now(), 17592186044416)$$),                -- medallion 2^44
  ($$SELECT muid_boundary('2112-09-17 23:53:47.370495+00')$$),
  ($$SELECT muid_boundary('infinity')$$),
  ($$SELECT muid_boundary('294270-01-01+00')$$),                      -- near the end of timestamptz
  ($$SELECT sno_boundary('294270-01-01+00')$$)
) v(stmt);
-- the detail gives the type's range, its first and last instant
SELECT muid_boundary('infinity');
SELECT sno_from_parts('2009-12-31 23:59:59.999Z', 0, 0, 0);
