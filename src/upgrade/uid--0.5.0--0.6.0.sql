-- uid 0.5.0 -> 0.6.0

\echo Use "ALTER EXTENSION uid UPDATE TO '0.6.0'" to load this file. \quit

-- Back-fill moves the server's lanes for every session: only the roles an
-- administrator chose may (GRANT EXECUTE, as for the lease pool).
COMMENT ON FUNCTION sno_new_at(integer, timestamptz) IS
'a new sno dated at the given time, which has passed (floored to 4 ms; tick bit 0), with a sequence from the back-fill range uid.sno_backfill_min..max: never equal to another sno of this server; back-fill goes forward in time in two lanes';
REVOKE EXECUTE ON FUNCTION sno_new_at(integer, timestamptz) FROM PUBLIC;

-- The ranges the server issues sno from, for the handover of a range.
CREATE FUNCTION sno_range(OUT live_min integer, OUT live_max integer,
                          OUT backfill_min integer, OUT backfill_max integer,
                          OUT taken_at timestamptz,
                          OUT previous_min integer, OUT previous_max integer,
                          OUT previous_until timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'sno_range'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION sno_range() IS
'the sequence ranges this server issues sno from now (live, and back-fill or null), when a reload delivered them, and the live range before with the time its IDs reached: another server may take that range once its clock is past previous_until';
