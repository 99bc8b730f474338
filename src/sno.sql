-- sno: 10-byte K-sortable IDs of muyo/sno

CREATE TYPE sno;

CREATE FUNCTION sno_in(cstring) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_out(sno) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_recv(internal) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_send(sno) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE sno (
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    INTERNALLENGTH = 10,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE sno IS
'sno ID (muyo/sno): 10 bytes, 4 ms time units since 2010, tick-tock bit, metabyte, partition, sequence; text is 16 characters, sortable';

COMMENT ON FUNCTION sno_in(cstring) IS 'sno input from its 16-character text (upper case folded)';
COMMENT ON FUNCTION sno_out(sno) IS 'sno output as 16 lower-case characters';
COMMENT ON FUNCTION sno_recv(internal) IS 'sno binary input: exactly 10 bytes';
COMMENT ON FUNCTION sno_send(sno) IS 'sno binary output: its 10 bytes';

-- @comparisons@

CREATE FUNCTION sno_to_bytea(sno) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_sno(bytea) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (sno AS bytea) WITH FUNCTION sno_to_bytea(sno);
CREATE CAST (bytea AS sno) WITH FUNCTION bytea_to_sno(bytea);
COMMENT ON FUNCTION sno_to_bytea(sno) IS 'the 10 bytes of a sno';
COMMENT ON FUNCTION bytea_to_sno(bytea) IS 'a sno from exactly 10 bytes';

CREATE FUNCTION sno_timestamp(sno) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_meta(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_partition(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_sequence(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_tick(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_from_parts("time" timestamptz, meta integer, "partition" integer,
                               sequence integer, tick integer DEFAULT 0) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_boundary(timestamptz) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- The generators are PARALLEL RESTRICTED, all five types' (muid's for its
-- transaction's counter too): in a parallel plan the leader calls them above
-- the Gather (Merge), in the order rows come out of it, so that
-- SELECT T_new() ... ORDER BY x gives keys in x's order, and sno_new_at()'s
-- back-fill, which goes forward in time, sees its times in order.  PARALLEL
-- SAFE let each worker call them on its share of the rows before the merge:
-- keys out of order, and sno_new_at() refused (doc/migrating.md).
CREATE FUNCTION sno_new(meta integer DEFAULT 0) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION sno_timestamp(sno) IS 'the time of a sno (its 4 ms unit; the tick bit is not part of it)';
COMMENT ON FUNCTION sno_meta(sno) IS 'the metabyte of a sno, 0..255';
COMMENT ON FUNCTION sno_partition(sno) IS 'the partition of a sno, 0..65535';
COMMENT ON FUNCTION sno_sequence(sno) IS 'the sequence of a sno within its 4 ms unit, 0..65535';
COMMENT ON FUNCTION sno_tick(sno) IS 'the tick-tock bit of a sno, 0 or 1 (flips when the clock goes back)';
COMMENT ON FUNCTION sno_from_parts(timestamptz, integer, integer, integer, integer) IS
'the sno of the given time (floored to 4 ms), metabyte, partition, sequence and tick bit';
COMMENT ON FUNCTION sno_boundary(timestamptz) IS
'the smallest sno whose time is at or after the argument: id >= sno_boundary(a) AND id < sno_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION sno_new(integer) IS
'a new sno with the given metabyte (0..255), partition uid.partition and a sequence in uid.sno_sequence_min..max; unique across all backends of the server';

CREATE FUNCTION sno_new_at(meta integer, "time" timestamptz) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION sno_new_at(integer, timestamptz) IS
'a new sno dated at the given time, which has passed (floored to 4 ms; tick bit 0), with a sequence from the back-fill range uid.sno_backfill_min..max: never equal to another sno of this server; back-fill goes forward in time in two lanes';
-- Back-fill moves the server's lanes for every session: only the roles an
-- administrator chose may (GRANT EXECUTE, as for the lease pool).
REVOKE EXECUTE ON FUNCTION sno_new_at(integer, timestamptz) FROM PUBLIC;

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

CREATE FUNCTION sno_snapshot(
    OUT timeline integer, OUT flips bigint,
    OUT timeline0_time timestamptz, OUT timeline0_sequence integer,
    OUT timeline1_time timestamptz, OUT timeline1_sequence integer,
    OUT clock_high timestamptz,
    OUT sequence_min integer, OUT sequence_max integer,
    OUT capacity_per_tick integer, OUT capacity_per_second bigint,
    OUT backfill_min integer, OUT backfill_max integer,
    OUT backfill_used_min integer, OUT backfill_used_max integer,
    OUT backfill_lane0_time timestamptz, OUT backfill_lane0_sequence integer,
    OUT backfill_lane1_time timestamptz, OUT backfill_lane1_sequence integer,
    OUT overflow_notified_time timestamptz, OUT overflow_ticks integer,
    OUT issued bigint, OUT overflow_waits bigint, OUT overflow_wait_us bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'sno_snapshot'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sno_snapshot() IS
'the sno generator''s state, read without changing it: the active tick-tock timeline and flips, each timeline''s mark (time and last sequence), the highest clock reading, this session''s live sequence range and capacity, the back-fill range in use, every back-fill range used and the two lanes'' marks, the last overflow notification and its run of ticks, and the counters';
