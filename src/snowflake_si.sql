-- snowflake_si: 53-bit JavaScript-safe IDs of Snowflake-SI (@litert/uuid)

CREATE TYPE snowflake_si;

CREATE FUNCTION snowflake_si_in(cstring) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_out(snowflake_si) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_recv(internal) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_send(snowflake_si) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE snowflake_si (
    INPUT = snowflake_si_in,
    OUTPUT = snowflake_si_out,
    RECEIVE = snowflake_si_recv,
    SEND = snowflake_si_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE snowflake_si IS
'Snowflake-SI ID: 53-bit integer (safe in JavaScript) of 40-bit milliseconds after uid.snowflake_si_epoch, machine id and per-millisecond index; text is decimal';

COMMENT ON FUNCTION snowflake_si_in(cstring) IS 'snowflake_si input from decimal digits, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_out(snowflake_si) IS 'snowflake_si output in decimal';
COMMENT ON FUNCTION snowflake_si_recv(internal) IS 'snowflake_si binary input: a big-endian 8-byte integer, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_send(snowflake_si) IS 'snowflake_si binary output: a big-endian 8-byte integer';

-- @comparisons@

CREATE FUNCTION snowflake_si_to_bigint(snowflake_si) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_snowflake_si(bigint) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (snowflake_si AS bigint) WITH FUNCTION snowflake_si_to_bigint(snowflake_si);
CREATE CAST (bigint AS snowflake_si) WITH FUNCTION bigint_to_snowflake_si(bigint);
COMMENT ON FUNCTION snowflake_si_to_bigint(snowflake_si) IS 'the integer value of a snowflake_si';
COMMENT ON FUNCTION bigint_to_snowflake_si(bigint) IS 'a snowflake_si from an integer 0 to 2^53 - 1';

CREATE FUNCTION snowflake_si_timestamp(snowflake_si) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_timestamp(snowflake_si, epoch timestamptz) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_machine(snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_machine(snowflake_si, index_bits integer) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_index(snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_index(snowflake_si, index_bits integer) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_from_parts("time" timestamptz, machine integer, index integer)
RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_from_parts("time" timestamptz, machine integer, index integer,
                                        epoch timestamptz, index_bits integer)
RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_boundary(timestamptz) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_new() RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION snowflake_si_timestamp(snowflake_si) IS
'the time of a snowflake_si (its millisecond), after the base clock uid.snowflake_si_epoch';
COMMENT ON FUNCTION snowflake_si_timestamp(snowflake_si, timestamptz) IS
'the time of a snowflake_si (its millisecond), after the given base clock';
COMMENT ON FUNCTION snowflake_si_machine(snowflake_si) IS
'the machine id (MID) of a snowflake_si, for the width uid.snowflake_si_index_bits';
COMMENT ON FUNCTION snowflake_si_machine(snowflake_si, integer) IS
'the machine id (MID) of a snowflake_si, for the given index width (1..13)';
COMMENT ON FUNCTION snowflake_si_index(snowflake_si) IS
'the per-millisecond index (UIN) of a snowflake_si, for the width uid.snowflake_si_index_bits';
COMMENT ON FUNCTION snowflake_si_index(snowflake_si, integer) IS
'the per-millisecond index (UIN) of a snowflake_si, for the given index width (1..13)';
COMMENT ON FUNCTION snowflake_si_from_parts(timestamptz, integer, integer) IS
'the snowflake_si of the given time (floored to the millisecond), machine id and index, under the current settings';
COMMENT ON FUNCTION snowflake_si_from_parts(timestamptz, integer, integer, timestamptz, integer) IS
'the snowflake_si of the given time (floored to the millisecond), machine id and index, for the given base clock and index width';
COMMENT ON FUNCTION snowflake_si_boundary(timestamptz) IS
'the smallest snowflake_si whose time is at or after the argument: id >= snowflake_si_boundary(a) AND id < snowflake_si_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION snowflake_si_new() IS
'a new snowflake_si with machine id uid.generator; unique across all backends of the server, at most 2^k per millisecond';
