-- doc/formats.md reference vectors (muyo/sno encoding_test.go, id_test.go).
SET TimeZone = 'UTC';
CREATE TABLE sno_vec (hex text, txt text, units bigint, tick int, meta int, part int, seq int, ts timestamptz);
INSERT INTO sno_vec VALUES
 ('00000000000000000000', '2222222222222222', 0, 0, 0, 0, 0, '2010-01-01T00:00:00Z'),
 ('4e6f2160a0ff9a0a1033', 'brpk4q72xwf2m63l', 168435953744, 0, 255, 39434, 4147, '2031-05-08T23:03:34.976Z'),
 ('ffffffffffffffffffff', 'xxxxxxxxxxxxxxxx', 549755813887, 1, 255, 65535, 65535, '2079-09-07T15:47:35.548Z');

-- text -> bytes, bytes -> text, fields, and fields -> ID
SELECT txt,
       sno_to_bytea(txt::sno) = decode(hex, 'hex') AS text_to_bytes,
       (decode(hex, 'hex')::sno)::text = txt AS bytes_to_text,
       sno_timestamp(txt::sno) = ts AS ts_ok,
       sno_tick(txt::sno) = tick AS tick_ok,
       sno_meta(txt::sno) = meta AS meta_ok,
       sno_partition(txt::sno) = part AS part_ok,
       sno_sequence(txt::sno) = seq AS seq_ok,
       sno_from_parts(ts, meta, part, seq, tick) = txt::sno AS from_parts_ok
FROM sno_vec ORDER BY hex;
SELECT txt::sno, sno_timestamp(txt::sno), sno_meta(txt::sno), sno_partition(txt::sno),
       sno_sequence(txt::sno), sno_tick(txt::sno)
FROM sno_vec ORDER BY hex;
-- units of the middle vector, from its timestamp: (t - 2010) / 4 ms
SELECT (extract(epoch FROM sno_timestamp('brpk4q72xwf2m63l') - '2010-01-01Z'::timestamptz) * 1000 / 4)::bigint AS units;
-- upper case folds
SELECT 'BRPK4Q72XWF2M63L'::sno = 'brpk4q72xwf2m63l'::sno AS folds, 'BRPK4Q72XWF2M63L'::sno;
DROP TABLE sno_vec;
