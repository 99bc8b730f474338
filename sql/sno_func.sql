-- Accessors, constructors, boundaries and their range checks.
SET TimeZone = 'UTC';

-- from_parts floors the time to 4 ms and round-trips every field
SELECT id, sno_timestamp(id), sno_meta(id), sno_partition(id), sno_sequence(id), sno_tick(id)
FROM (SELECT sno_from_parts('2024-02-29 12:34:56.7899+00', 42, 4242, 65535, 1) AS id) s;
SELECT sno_from_parts('2024-02-29 12:34:56.788+00', 0, 0, 0)
     = sno_from_parts('2024-02-29 12:34:56.791999+00', 0, 0, 0) AS same_unit,
       sno_from_parts('2024-02-29 12:34:56.788+00', 0, 0, 0)
     < sno_from_parts('2024-02-29 12:34:56.792+00', 0, 0, 0) AS next_unit;
SELECT sno_from_parts('2010-01-01 00:00:00+00', 0, 0, 0) AS first,
       sno_from_parts('2079-09-07 15:47:35.551999+00', 255, 65535, 65535, 1) AS last;

-- random round trips through the accessors
SELECT count(*) AS mismatches FROM (
    SELECT g, sno_from_parts(t, g % 256, (g * 7919) % 65536, (g * 104729) % 65536, g % 2) AS id, t
    FROM generate_series(1, 10000) g,
         LATERAL (SELECT '2010-01-01Z'::timestamptz + (g * 2207.3) * interval '1 day' / 10000 AS t) x) s
WHERE sno_meta(id) <> g % 256 OR sno_partition(id) <> (g * 7919) % 65536
   OR sno_sequence(id) <> (g * 104729) % 65536 OR sno_tick(id) <> g % 2
   OR sno_timestamp(id) > t OR sno_timestamp(id) <= t - interval '4 ms'
   OR sno_from_parts(sno_timestamp(id), sno_meta(id), sno_partition(id), sno_sequence(id), sno_tick(id)) <> id;

-- every field out of range is an error naming the field, value and range
SELECT stmt, uid_try(stmt) FROM (VALUES
  ($$SELECT sno_from_parts(now(), 256, 0, 0)$$),
  ($$SELECT sno_from_parts(now(), -1, 0, 0)$$),
  ($$SELECT sno_from_parts(now(), 0, 65536, 0)$$),
  ($$SELECT sno_from_parts(now(), 0, -1, 0)$$),
  ($$SELECT sno_from_parts(now(), 0, 0, 65536)$$),
  ($$SELECT sno_from_parts(now(), 0, 0, 0, 2)$$),
  ($$SELECT sno_from_parts('2009-12-31 23:59:59.999+00', 0, 0, 0)$$),
  ($$SELECT sno_from_parts('2079-09-07 15:47:35.552+00', 0, 0, 0)$$),
  ($$SELECT sno_from_parts('infinity', 0, 0, 0)$$),
  ($$SELECT sno_from_parts('-infinity', 0, 0, 0)$$),
  ($$SELECT sno_boundary('2079-09-07 15:47:35.549+00')$$),
  ($$SELECT sno_boundary('infinity')$$),
  ($$SELECT sno_new(256)$$),
  ($$SELECT sno_new(-1)$$)
) v(stmt);
SELECT sno_new(256);

-- boundaries: the smallest ID at or after the time
SELECT sno_boundary('2024-01-01 00:00:00+00') AS exact,
       sno_boundary('2024-01-01 00:00:00.001+00') AS rounds_up,
       sno_boundary('2024-01-01 00:00:00.004+00') AS next_unit,
       sno_boundary('1999-01-01+00') AS before_range,
       sno_boundary('-infinity') AS minus_infinity,
       sno_boundary('2079-09-07 15:47:35.548+00') AS last_unit;
SELECT sno_timestamp(sno_boundary('2024-01-01 00:00:00.001+00'));
-- [a, b) selects exactly the IDs whose time is in [a, b)
WITH ids AS (
    SELECT sno_from_parts('2024-01-01Z'::timestamptz + g * interval '1 ms', g % 256, 1, g, g % 2) AS id
    FROM generate_series(0, 999) g)
SELECT count(*) FILTER (WHERE id >= sno_boundary('2024-01-01 00:00:00.100+00')
                          AND id <  sno_boundary('2024-01-01 00:00:00.202+00')) AS by_boundary,
       count(*) FILTER (WHERE sno_timestamp(id) >= '2024-01-01 00:00:00.100+00'
                          AND sno_timestamp(id) <  '2024-01-01 00:00:00.202+00') AS by_time
FROM ids;

-- volatility and parallel safety as documented
SELECT proname, provolatile, proparallel, pronargs, pg_get_function_arguments(oid)
FROM pg_proc WHERE proname LIKE 'sno\_%' AND proname NOT IN
  ('sno_in', 'sno_out', 'sno_recv', 'sno_send', 'sno_eq', 'sno_ne', 'sno_lt', 'sno_le', 'sno_gt', 'sno_ge')
ORDER BY proname;
