-- uid60: 60-bit IDs of abyss-club/uexky, shown as 10 random-looking characters

CREATE TYPE uid60;

CREATE FUNCTION uid60_in(cstring) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_out(uid60) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_recv(internal) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_send(uid60) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE uid60 (
    INPUT = uid60_in,
    OUTPUT = uid60_out,
    RECEIVE = uid60_recv,
    SEND = uid60_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE uid60 IS
'uid60 ID (abyss-club/uexky): 60-bit integer of 32-bit seconds since 2018-03-01, worker, sequence and random bits; text is 10 base64url characters with the timestamp bit-reversed; sorts in time order';

-- @comparisons@

-- after the shared comparisons, so that these descriptions are the ones that stay
COMMENT ON FUNCTION uid60_in(cstring) IS 'uid60 input from its 10 characters of A-Z, a-z, 0-9, - and _ (case-sensitive)';
COMMENT ON FUNCTION uid60_out(uid60) IS 'uid60 output as its 10 characters';
COMMENT ON FUNCTION uid60_recv(internal) IS 'uid60 binary input: a big-endian 64-bit integer, 0 to 2^60 - 1';
COMMENT ON FUNCTION uid60_send(uid60) IS 'uid60 binary output: its integer as a big-endian 64-bit integer';

CREATE FUNCTION uid60_to_bigint(uid60) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_uid60(bigint) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid60 AS bigint) WITH FUNCTION uid60_to_bigint(uid60);
CREATE CAST (bigint AS uid60) WITH FUNCTION bigint_to_uid60(bigint);
COMMENT ON FUNCTION uid60_to_bigint(uid60) IS 'the integer value of a uid60 (the original''s storage form)';
COMMENT ON FUNCTION bigint_to_uid60(bigint) IS 'a uid60 from an integer 0 to 2^60 - 1';

CREATE FUNCTION uid60_timestamp(uid60) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_worker(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_sequence(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_random(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_from_parts("time" timestamptz, worker integer, sequence integer,
                                 random integer) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_boundary(timestamptz) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_new() RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION uid60_timestamp(uid60) IS 'the time of a uid60 (its second)';
COMMENT ON FUNCTION uid60_worker(uid60) IS 'the worker id of a uid60, 0..511';
COMMENT ON FUNCTION uid60_sequence(uid60) IS 'the sequence of a uid60, 0..1023 (not reset each second)';
COMMENT ON FUNCTION uid60_random(uid60) IS 'the 9 random bits of a uid60, 0..511';
COMMENT ON FUNCTION uid60_from_parts(timestamptz, integer, integer, integer) IS
'the uid60 of the given time (floored to the second), worker, sequence and random bits';
COMMENT ON FUNCTION uid60_boundary(timestamptz) IS
'the smallest uid60 whose time is at or after the argument: id >= uid60_boundary(a) AND id < uid60_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION uid60_new() IS
'a new uid60 with worker uid.generator; unique across all backends of the server, at most 1024 per second (it waits for the next second when they are used up)';
