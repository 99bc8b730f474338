/*
 * codec/registry.h
 *		The five ID types, once: what every list of them is made from.
 *
 * UID_TYPES(X) calls X(ID, name, slot, nbytes, text, clock, ident) for each type,
 * in slot order:
 *   ID      the type in upper case: UID_SLOT_ID (state.h) and
 *           UID_INSPECT_ID (inspect.h) are made from it
 *   name    its SQL name as a word, not a string (#name is the string): the
 *           name uid_stats(), uid_identity() and uid-inspect print, and
 *           the stem of its C names (name##_in, test_##name)
 *   slot    its slot in the state file: part of the file's layout, never
 *           renumbered; a new type takes the next one (the file has 8)
 *   nbytes  its binary form's length (send/recv, the bytea casts)
 *   text    its text form, in the words of its input function
 *   clock   its clock, stated beside its format's constants in its codec
 *           header as (Unix microseconds of tick 0, microseconds per tick,
 *           last tick, last sequence number, whether the sequence runs on
 *           across ticks, whether there are two timelines, whether each
 *           call takes a tick of its own with no sequence): what the
 *           generator (core/alloc.h's UID_CLOCK_FIELDS) and the simulator
 *           build their UidClockSpec from
 *   ident   the identity it embeds, stated in its codec header as (field,
 *           SETTING, largest value, how likely two servers that draw it at
 *           start collide or NULL, second field or NULL, its SETTING, its
 *           largest value); SETTING is the hand setting's word (PARTITION,
 *           MEDALLION, GENERATOR, CLUSTER: UID_SET_ and UID_REC_ are made
 *           from it); a type of one field has NULL, its SETTING again and
 *           0 for the second.  A lease id
 *           or a Citus node group is the field itself, or first field +
 *           (its largest + 1) * second field.  What uid_identity()'s rows
 *           (src/identity.c) and the simulator's identities are made from
 *           (UID_IDENT_* below)
 *
 * Every list of the types is made from this one: the slots and the state
 * file's layout, uid_stats(), uid_identity()'s rows, uid-inspect's table
 * and its unit test's rows, the codec unit tests' groups, the simulator's
 * types, clocks and identities; and, through the Makefile's
 * TYPES (read from here), the objects, the install script and the update
 * from the last release, the fuzz targets, the regression tests and
 * partition.sql's list of key types.  A consumer X names the columns it
 * uses and takes the rest as "...", so a column added here changes none.
 *
 * Adding a type (doc/design.md, "Adding a sixth format", says why each
 * piece is as it is).  First its section "## t" in doc/formats.md: the
 * layout, text, time range, rules and the original's vectors, settled
 * against the original before any code.  Then new files, for a type t
 * (upper case T):
 *   src/codec/t_codec.[ch]: fields, pack/unpack, encode/decode, and T_CLOCK
 *     and T_IDENT beside the format's constants;
 *   test/unit/t_test.c (test_t(): vectors, round trips, every rejection)
 *     and test/fuzz/t_fuzz.c (test/fuzz/fuzz.h's shared checks);
 *   src/t.[ch]: the SQL functions, with type_support.h's macros, and the
 *     generator, whose UidClockSpec is { UID_CLOCK_FIELDS(T_CLOCK), ... };
 *   src/t.sql, with "-- @comparisons@";
 *   src/inspect/t_inspect.c: what uid-inspect knows of the type, and
 *     test/unit/t_inspect_test.c, its rows of uid-inspect's unit test
 *     (test/unit/inspect_rows.h: vectors, the strings it reads, reasons);
 *   sql/t_io.sql, t_ops.sql, t_gen.sql and their expected/ output;
 *   its class in each client package: clients/go/t.go (and pgxuid.go's
 *     list), clients/js/src/t.js (and src/registry.js, src/index.js,
 *     src/catalog.js, types/index.d.ts), a class in clients/python/pgkuid
 *     (and __init__.py's exports), clients/java's src/main/java/pgkuid/
 *     T.java and pgjdbc/PgT.java, T in camel case (and UidValue's permits,
 *     PgUid's lists, the tests' Kinds.java and ServerTests.PARTS),
 *     clients/rust/src/t.rs (and lib.rs's mod and pub use, sql.rs's
 *     id_types!, the tests' lists in tests/common/mod.rs and
 *     tests/server.rs): not built by make (test/clients.sh).
 * Then two edits in existing code:
 *   1. here, its row, at the next free slot (never reuse one), and the
 *      #include of its codec header above;
 *   2. src/sql_api.h, its block of SQL-callable functions.
 * Its identity in uid_identity() (src/identity.c) and the simulator, and
 * its clock's rules there, are made from its row.  And its documentation:
 * its row in the README's table of types, its section in doc/types.md,
 * and where a text names every type (the comment on uid_identity(), a
 * setting's description in guc.c, uid.control).  test/types.pl (make
 * layercheck) names whatever of this a type of the registry lacks, and
 * any other file of src/, test/sim or test/unit that names every type;
 * test/newtype.sh adds a copy of uid60 so, and builds and tests it.
 *
 * Plain C, no PostgreSQL headers: the server, uid-inspect, the unit tests
 * and the simulator include it.
 */
#ifndef UID_CODEC_REGISTRY_H
#define UID_CODEC_REGISTRY_H

#include "codec/muid_codec.h"
#include "codec/revts8_codec.h"
#include "codec/sno_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"

#define UID_TYPES(X) \
	X(SNO, sno, 0, SNO_LEN, \
	  "16 characters of 2-9 and a-x (either case)", SNO_CLOCK, SNO_IDENT) \
	X(MUID, muid, 1, MUID_LEN, \
	  "hex digits in groups of 13, 11 and 8 joined by dashes, or the first one or two groups", \
	  MUID_CLOCK, MUID_IDENT) \
	X(SNOWFLAKE_SI, snowflake_si, 2, 8, \
	  "a decimal integer from 0 to 9007199254740991", SNOWFLAKE_SI_CLOCK, SNOWFLAKE_SI_IDENT) \
	X(REVTS8, revts8, 3, 8, \
	  "16 hexadecimal digits with bits 15 to 10 clear", REVTS8_CLOCK, REVTS8_IDENT) \
	X(UID60, uid60, 4, 8, \
	  "10 characters of A-Z, a-z, 0-9, - and _", UID60_CLOCK, UID60_IDENT)

/*
 * An identity's parts, of the ident column: the largest identity id (a
 * lease id or a node group) that gives every field a value, and how many
 * values the id's low part has (core/source.h's uid_id_split: the first
 * field of two, else the field).  An id is an int32: a field wider than that
 * (muid's medallion) takes any.  A type of one field has a second of 0.
 */
#define UID_IDENT_ID_MAX(ident) UID_IDENT_ID_MAX_ ident
#define UID_IDENT_ID_MAX_(field, setting, max, collide, field2, setting2, max2) \
	((max2) == 0 ? ((uint64_t) (max) < INT32_MAX ? (uint64_t) (max) : (uint64_t) INT32_MAX) : \
	 ((uint64_t) (max) + 1) * ((uint64_t) (max2) + 1) - 1)
#define UID_IDENT_LOWS(ident) UID_IDENT_LOWS_ ident
#define UID_IDENT_LOWS_(field, setting, max, collide, field2, setting2, max2) \
	((max2) == 0 ? UID_IDENT_ID_MAX_(field, setting, max, collide, field2, setting2, max2) + 1 : \
	 (uint64_t) (max) + 1)

/* How many there are. */
#define UID_TYPE_COUNT_ONE(ID, ...) + 1
#define UID_NTYPES (0 UID_TYPES(UID_TYPE_COUNT_ONE))

#endif							/* UID_CODEC_REGISTRY_H */
