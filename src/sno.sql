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

CREATE FUNCTION sno_eq(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_ne(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_lt(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_le(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_gt(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_ge(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_cmp(sno, sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_hash(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_hash_extended(sno, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION sno_in(cstring) IS 'sno input from its 16-character text';
COMMENT ON FUNCTION sno_out(sno) IS 'sno output as 16 lower-case characters';
COMMENT ON FUNCTION sno_recv(internal) IS 'sno binary input: exactly 10 bytes';
COMMENT ON FUNCTION sno_send(sno) IS 'sno binary output: its 10 bytes';
COMMENT ON FUNCTION sno_eq(sno, sno) IS 'equal';
COMMENT ON FUNCTION sno_ne(sno, sno) IS 'not equal';
COMMENT ON FUNCTION sno_lt(sno, sno) IS 'less than (earlier)';
COMMENT ON FUNCTION sno_le(sno, sno) IS 'less than or equal';
COMMENT ON FUNCTION sno_gt(sno, sno) IS 'greater than (later)';
COMMENT ON FUNCTION sno_ge(sno, sno) IS 'greater than or equal';
COMMENT ON FUNCTION sno_cmp(sno, sno) IS 'btree comparison: -1, 0 or 1, in time order';
COMMENT ON FUNCTION sno_sortsupport(internal) IS 'btree sort support with abbreviated keys';
COMMENT ON FUNCTION sno_hash(sno) IS 'hash';
COMMENT ON FUNCTION sno_hash_extended(sno, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS sno_ops
DEFAULT FOR TYPE sno USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 sno_cmp(sno, sno),
    FUNCTION 2 sno_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS sno_ops USING btree IS 'sno in time order (= byte order = text order)';

CREATE OPERATOR CLASS sno_hash_ops
DEFAULT FOR TYPE sno USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sno_hash(sno),
    FUNCTION 2 sno_hash_extended(sno, bigint);
COMMENT ON OPERATOR CLASS sno_hash_ops USING hash IS 'sno hashing';

CREATE OPERATOR CLASS sno_minmax_ops
DEFAULT FOR TYPE sno USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS sno_minmax_ops USING brin IS 'sno BRIN minmax, in time order';

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
CREATE FUNCTION sno_new(meta integer DEFAULT 0) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

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
'a new sno with the given metabyte (0..255) and partition uid.partition; unique across all backends of the server';
