-- uid 0.1.0 -> 0.2.0: the types muid and uid60; min() and max() for every type;
-- the text and binary I/O functions of sno, snowflake_si and revts8 described
-- in their own terms (0.1.0 described all of them with sno's).
--
-- Made from the 0.2.0 sources (src/muid.sql, src/uid60.sql, src/comparisons.sql.in
-- and the I/O comments of each type) and frozen with the release; the
-- regression test "upgrade" checks that an upgraded 0.1.0 has exactly the
-- objects, definitions and comments of a fresh 0.2.0.

\echo Use "ALTER EXTENSION uid UPDATE TO '0.2.0'" to load this file. \quit

-- sno: min() and max(), and its I/O functions' descriptions

CREATE FUNCTION sno_smaller(sno, sno) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_larger(sno, sno) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION sno_smaller(sno, sno) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION sno_larger(sno, sno) IS 'the larger of two values (in time order)';
CREATE AGGREGATE min(sno) (
    SFUNC = sno_smaller, STYPE = sno, COMBINEFUNC = sno_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(sno) (
    SFUNC = sno_larger, STYPE = sno, COMBINEFUNC = sno_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(sno) IS 'the earliest sno (smallest in the default btree order)';
COMMENT ON AGGREGATE max(sno) IS 'the latest sno (largest in the default btree order)';

COMMENT ON FUNCTION sno_in(cstring) IS 'sno input from its 16-character text (upper case folded)';
COMMENT ON FUNCTION sno_out(sno) IS 'sno output as 16 lower-case characters';
COMMENT ON FUNCTION sno_recv(internal) IS 'sno binary input: exactly 10 bytes';
COMMENT ON FUNCTION sno_send(sno) IS 'sno binary output: its 10 bytes';

-- snowflake_si: min() and max(), and its I/O functions' descriptions

CREATE FUNCTION snowflake_si_smaller(snowflake_si, snowflake_si) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_larger(snowflake_si, snowflake_si) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_si_smaller(snowflake_si, snowflake_si) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION snowflake_si_larger(snowflake_si, snowflake_si) IS 'the larger of two values (in time order)';
CREATE AGGREGATE min(snowflake_si) (
    SFUNC = snowflake_si_smaller, STYPE = snowflake_si, COMBINEFUNC = snowflake_si_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(snowflake_si) (
    SFUNC = snowflake_si_larger, STYPE = snowflake_si, COMBINEFUNC = snowflake_si_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(snowflake_si) IS 'the earliest snowflake_si (smallest in the default btree order)';
COMMENT ON AGGREGATE max(snowflake_si) IS 'the latest snowflake_si (largest in the default btree order)';

COMMENT ON FUNCTION snowflake_si_in(cstring) IS 'snowflake_si input from decimal digits, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_out(snowflake_si) IS 'snowflake_si output in decimal';
COMMENT ON FUNCTION snowflake_si_recv(internal) IS 'snowflake_si binary input: a big-endian 8-byte integer, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_send(snowflake_si) IS 'snowflake_si binary output: a big-endian 8-byte integer';

-- revts8: min() and max(), and its I/O functions' descriptions

CREATE FUNCTION revts8_smaller(revts8, revts8) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_larger(revts8, revts8) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION revts8_smaller(revts8, revts8) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION revts8_larger(revts8, revts8) IS 'the larger of two values (in time order)';
CREATE AGGREGATE min(revts8) (
    SFUNC = revts8_smaller, STYPE = revts8, COMBINEFUNC = revts8_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(revts8) (
    SFUNC = revts8_larger, STYPE = revts8, COMBINEFUNC = revts8_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(revts8) IS 'the earliest revts8 (smallest in the default btree order)';
COMMENT ON AGGREGATE max(revts8) IS 'the latest revts8 (largest in the default btree order)';

COMMENT ON FUNCTION revts8_in(cstring) IS 'revts8 input from 16 hex digits (either case) of the Lable bytes';
COMMENT ON FUNCTION revts8_out(revts8) IS 'revts8 output as 16 lower-case hex digits of the Lable bytes';
COMMENT ON FUNCTION revts8_recv(internal) IS 'revts8 binary input: its 8 Lable bytes';
COMMENT ON FUNCTION revts8_send(revts8) IS 'revts8 binary output: its 8 Lable bytes';

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


CREATE FUNCTION muid_eq(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_ne(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_lt(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_le(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_gt(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_ge(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_cmp(muid, muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_smaller(muid, muid) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_larger(muid, muid) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_hash(muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_hash_extended(muid, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION muid_eq(muid, muid) IS 'equal';
COMMENT ON FUNCTION muid_ne(muid, muid) IS 'not equal';
COMMENT ON FUNCTION muid_lt(muid, muid) IS 'less than (earlier)';
COMMENT ON FUNCTION muid_le(muid, muid) IS 'less than or equal';
COMMENT ON FUNCTION muid_gt(muid, muid) IS 'greater than (later)';
COMMENT ON FUNCTION muid_ge(muid, muid) IS 'greater than or equal';
COMMENT ON FUNCTION muid_cmp(muid, muid) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION muid_smaller(muid, muid) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION muid_larger(muid, muid) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION muid_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION muid_hash(muid) IS 'hash';
COMMENT ON FUNCTION muid_hash_extended(muid, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS muid_ops
DEFAULT FOR TYPE muid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 muid_cmp(muid, muid),
    FUNCTION 2 muid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS muid_ops USING btree IS 'muid in time order, the default';

CREATE OPERATOR CLASS muid_hash_ops
DEFAULT FOR TYPE muid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 muid_hash(muid),
    FUNCTION 2 muid_hash_extended(muid, bigint);
COMMENT ON OPERATOR CLASS muid_hash_ops USING hash IS 'muid hashing';

CREATE OPERATOR CLASS muid_minmax_ops
DEFAULT FOR TYPE muid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS muid_minmax_ops USING brin IS 'muid BRIN minmax, in time order';

CREATE AGGREGATE min(muid) (
    SFUNC = muid_smaller, STYPE = muid, COMBINEFUNC = muid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(muid) (
    SFUNC = muid_larger, STYPE = muid, COMBINEFUNC = muid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(muid) IS 'the earliest muid (smallest in the default btree order)';
COMMENT ON AGGREGATE max(muid) IS 'the latest muid (largest in the default btree order)';

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


CREATE FUNCTION uid60_eq(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_ne(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_lt(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_le(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_gt(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_ge(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_cmp(uid60, uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_smaller(uid60, uid60) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_larger(uid60, uid60) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_hash(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_hash_extended(uid60, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION uid60_eq(uid60, uid60) IS 'equal';
COMMENT ON FUNCTION uid60_ne(uid60, uid60) IS 'not equal';
COMMENT ON FUNCTION uid60_lt(uid60, uid60) IS 'less than (earlier)';
COMMENT ON FUNCTION uid60_le(uid60, uid60) IS 'less than or equal';
COMMENT ON FUNCTION uid60_gt(uid60, uid60) IS 'greater than (later)';
COMMENT ON FUNCTION uid60_ge(uid60, uid60) IS 'greater than or equal';
COMMENT ON FUNCTION uid60_cmp(uid60, uid60) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION uid60_smaller(uid60, uid60) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION uid60_larger(uid60, uid60) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION uid60_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION uid60_hash(uid60) IS 'hash';
COMMENT ON FUNCTION uid60_hash_extended(uid60, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS uid60_ops
DEFAULT FOR TYPE uid60 USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 uid60_cmp(uid60, uid60),
    FUNCTION 2 uid60_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS uid60_ops USING btree IS 'uid60 in time order, the default';

CREATE OPERATOR CLASS uid60_hash_ops
DEFAULT FOR TYPE uid60 USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 uid60_hash(uid60),
    FUNCTION 2 uid60_hash_extended(uid60, bigint);
COMMENT ON OPERATOR CLASS uid60_hash_ops USING hash IS 'uid60 hashing';

CREATE OPERATOR CLASS uid60_minmax_ops
DEFAULT FOR TYPE uid60 USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS uid60_minmax_ops USING brin IS 'uid60 BRIN minmax, in time order';

CREATE AGGREGATE min(uid60) (
    SFUNC = uid60_smaller, STYPE = uid60, COMBINEFUNC = uid60_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(uid60) (
    SFUNC = uid60_larger, STYPE = uid60, COMBINEFUNC = uid60_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(uid60) IS 'the earliest uid60 (smallest in the default btree order)';
COMMENT ON AGGREGATE max(uid60) IS 'the latest uid60 (largest in the default btree order)';

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
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;

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
