-- muid: 16-byte IDs of Gink (x5e/gink), one timestamp per transaction

CREATE TYPE muid;

CREATE FUNCTION muid_in(cstring) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_out(muid) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_recv(internal) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_send(muid) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE muid (
    INPUT = muid_in,
    OUTPUT = muid_out,
    RECEIVE = muid_recv,
    SEND = muid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE muid IS
'muid (Gink): 16 bytes of microsecond timestamp (52 bits), medallion (44 bits) and offset in the transaction (32 bits); text TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO, sortable';
COMMENT ON FUNCTION muid_in(cstring) IS
'muid input: hex digits (either case) in groups of 13, 11 and 8 joined by dashes, or the first group or two (zero medallion and offset left out)';
COMMENT ON FUNCTION muid_out(muid) IS 'muid output: TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO in upper-case hex';
COMMENT ON FUNCTION muid_recv(internal) IS 'muid binary input: exactly 16 bytes';
COMMENT ON FUNCTION muid_send(muid) IS 'muid binary output: its 16 bytes';

-- @comparisons@

CREATE FUNCTION muid_to_bytea(muid) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_muid(bytea) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (muid AS bytea) WITH FUNCTION muid_to_bytea(muid);
CREATE CAST (bytea AS muid) WITH FUNCTION bytea_to_muid(bytea);
COMMENT ON FUNCTION muid_to_bytea(muid) IS 'the 16 bytes of a muid';
COMMENT ON FUNCTION bytea_to_muid(bytea) IS 'a muid from exactly 16 bytes';

-- uuid and muid are both 16 bytes by reference with char alignment, and
-- every 16 bytes are a valid value of each: the casts copy nothing.
CREATE CAST (muid AS uuid) WITHOUT FUNCTION;
CREATE CAST (uuid AS muid) WITHOUT FUNCTION;

CREATE FUNCTION muid_timestamp(muid) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_medallion(muid) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_offset(muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_from_parts("time" timestamptz, medallion bigint, "offset" integer DEFAULT 0)
RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_boundary(timestamptz) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_new() RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION muid_txn() RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION muid_timestamp(muid) IS 'the time of a muid, exact to the microsecond (its transaction''s timestamp)';
COMMENT ON FUNCTION muid_medallion(muid) IS 'the medallion of a muid: the server that made it, 0 .. 2^44 - 1';
COMMENT ON FUNCTION muid_offset(muid) IS 'the offset of a muid in its transaction, signed: 0 names the transaction, muid_new() gives 1, 2, 3 ...';
COMMENT ON FUNCTION muid_from_parts(timestamptz, bigint, integer) IS
'the muid of the given time (exact to the microsecond), medallion (0 .. 2^44 - 1) and offset';
COMMENT ON FUNCTION muid_boundary(timestamptz) IS
'the smallest muid whose time is at or after the argument: id >= muid_boundary(a) AND id < muid_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION muid_new() IS
'a new muid: the transaction''s timestamp (unique across the server, taken by the first call), medallion uid.medallion, and the next offset 1, 2, 3 ... of the transaction';
COMMENT ON FUNCTION muid_txn() IS
'the muid of the current transaction itself: its timestamp and medallion with offset 0';
