-- revts8: 8-byte IDs of LableOrg/java-uniqueid (bit-reversed timestamp)

CREATE TYPE revts8;

CREATE FUNCTION revts8_in(cstring) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_out(revts8) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_recv(internal) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_send(revts8) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE revts8 (
    INPUT = revts8_in,
    OUTPUT = revts8_out,
    RECEIVE = revts8_recv,
    SEND = revts8_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE revts8 IS
'revts8 ID (LableOrg/java-uniqueid): 8 bytes of bit-reversed 42-bit millisecond timestamp, sequence, generator and cluster; text is 16 hex digits; sorts in time order by default';

COMMENT ON FUNCTION revts8_in(cstring) IS 'revts8 input from 16 hex digits (either case) of the Lable bytes';
COMMENT ON FUNCTION revts8_out(revts8) IS 'revts8 output as 16 lower-case hex digits of the Lable bytes';
COMMENT ON FUNCTION revts8_recv(internal) IS 'revts8 binary input: its 8 Lable bytes';
COMMENT ON FUNCTION revts8_send(revts8) IS 'revts8 binary output: its 8 Lable bytes';

-- @comparisons@


-- Raw byte order, the order an HBase-style store sees: a second btree class.
CREATE FUNCTION revts8_bytes_lt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_le(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_gt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_ge(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_cmp(revts8, revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION revts8_bytes_lt(revts8, revts8) IS 'less than in byte order';
COMMENT ON FUNCTION revts8_bytes_le(revts8, revts8) IS 'less than or equal in byte order';
COMMENT ON FUNCTION revts8_bytes_gt(revts8, revts8) IS 'greater than in byte order';
COMMENT ON FUNCTION revts8_bytes_ge(revts8, revts8) IS 'greater than or equal in byte order';
COMMENT ON FUNCTION revts8_bytes_cmp(revts8, revts8) IS 'btree comparison in byte order: -1, 0 or 1';
COMMENT ON FUNCTION revts8_bytes_sortsupport(internal) IS 'btree sort support in byte order';

CREATE OPERATOR ~<~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_lt,
    COMMUTATOR = ~>~, NEGATOR = ~>=~,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR ~<=~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_le,
    COMMUTATOR = ~>=~, NEGATOR = ~>~,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR ~>~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_gt,
    COMMUTATOR = ~<~, NEGATOR = ~<=~,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR ~>=~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_ge,
    COMMUTATOR = ~<=~, NEGATOR = ~<~,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS revts8_bytes_ops
FOR TYPE revts8 USING btree AS
    OPERATOR 1 ~<~,
    OPERATOR 2 ~<=~,
    OPERATOR 3 =,
    OPERATOR 4 ~>=~,
    OPERATOR 5 ~>~,
    FUNCTION 1 revts8_bytes_cmp(revts8, revts8),
    FUNCTION 2 revts8_bytes_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS revts8_bytes_ops USING btree IS
'revts8 in raw byte order (bit-reversed time, as HBase-style row keys see it); not the default';

CREATE FUNCTION revts8_to_bytea(revts8) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_revts8(bytea) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_to_bigint(revts8) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_revts8(bigint) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (revts8 AS bytea) WITH FUNCTION revts8_to_bytea(revts8);
CREATE CAST (bytea AS revts8) WITH FUNCTION bytea_to_revts8(bytea);
CREATE CAST (revts8 AS bigint) WITH FUNCTION revts8_to_bigint(revts8);
CREATE CAST (bigint AS revts8) WITH FUNCTION bigint_to_revts8(bigint);
COMMENT ON FUNCTION revts8_to_bytea(revts8) IS 'the 8 bytes of a revts8';
COMMENT ON FUNCTION bytea_to_revts8(bytea) IS 'a revts8 from exactly 8 bytes with the reserved bits clear';
COMMENT ON FUNCTION revts8_to_bigint(revts8) IS 'the 8 bytes of a revts8 as a signed big-endian integer';
COMMENT ON FUNCTION bigint_to_revts8(bigint) IS 'a revts8 from the signed big-endian integer of its 8 bytes';

CREATE FUNCTION revts8_timestamp(revts8) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_sequence(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_generator(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_cluster(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_from_parts("time" timestamptz, sequence integer, generator integer,
                                  "cluster" integer) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_boundary(timestamptz) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_new() RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION revts8_timestamp(revts8) IS 'the time of a revts8 (its millisecond)';
COMMENT ON FUNCTION revts8_sequence(revts8) IS 'the sequence of a revts8 within its millisecond, 0..63';
COMMENT ON FUNCTION revts8_generator(revts8) IS 'the generator id of a revts8, 0..63';
COMMENT ON FUNCTION revts8_cluster(revts8) IS 'the cluster id of a revts8, 0..15';
COMMENT ON FUNCTION revts8_from_parts(timestamptz, integer, integer, integer) IS
'the revts8 of the given time (floored to the millisecond), sequence, generator and cluster';
COMMENT ON FUNCTION revts8_boundary(timestamptz) IS
'the smallest revts8 in time order whose time is at or after the argument: id >= revts8_boundary(a) AND id < revts8_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION revts8_new() IS
'a new revts8 with generator uid.generator (0..63) and cluster uid.cluster; unique across all backends of the server, at most 64 per millisecond';
