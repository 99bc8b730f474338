-- Every generator refuses in a read-only transaction, as nextval() does
-- (SQLSTATE 25006): doc/design.md, "Read-only transactions".  Accessors,
-- boundaries and casts work there.  This file starts in a backend that has
-- not generated yet (the first call's path), then repeats the checks after
-- every type has generated (the per-ID path).
SET TimeZone = 'UTC';
CREATE SEQUENCE ro_seq;
-- the SQLSTATE and message of a call, or 'made'
CREATE FUNCTION pg_temp.try(call text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT ' || call;
    RETURN 'made';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE TEMP TABLE calls (call text);
-- (back-fill, sno_new_at(), is refused the same way: sno_shard)
INSERT INTO calls VALUES ('nextval(''ro_seq'')'), ('sno_new(1)'), ('muid_new()'),
    ('muid_txn()'), ('snowflake_si_new()'), ('revts8_new()'), ('uid60_new()');

-- a backend's first generation, in a read-only transaction
BEGIN READ ONLY;
SELECT call, pg_temp.try(call) FROM calls;
-- what does not generate works
SELECT sno_timestamp(sno_boundary('2026-11-26Z')) AS sno_time,
       muid_timestamp(muid_boundary('2026-11-26Z')) AS muid_time,
       uid60_timestamp(uid60_boundary('2026-11-26Z')) AS uid60_time;
COMMIT;

-- default_transaction_read_only, as a fenced node of pg_auto_failover has it
SET default_transaction_read_only = on;
SELECT call, pg_temp.try(call) FROM calls;
RESET default_transaction_read_only;

-- read-write: every call makes an ID
SELECT call, pg_temp.try(call) FROM calls;

-- the same after every type has generated in this backend
BEGIN READ ONLY;
SELECT call, pg_temp.try(call) FROM calls;
COMMIT;

-- a transaction that turns read-only after making IDs: muid's later IDs
-- would reuse the transaction's timestamp, and are refused all the same
BEGIN;
SELECT muid_new() IS NOT NULL AS muid_made, sno_new(1) IS NOT NULL AS sno_made;
SET transaction_read_only = on;
SELECT call, pg_temp.try(call) FROM calls;
COMMIT;

-- and read-write again
SELECT muid_new() < muid_new() AS muid_ordered, sno_new(1) < sno_new(1) AS sno_ordered;
