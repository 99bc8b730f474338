/*
 * codec/registry.h
 *		The five ID types, once: what every list of them is made from.
 *
 * UID_TYPES(X) calls X(ID, name, slot, nbytes, text, clock) for each type,
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
 *           across ticks, whether there are two timelines): what the
 *           generator (core/alloc.h's UID_CLOCK_FIELDS) and the simulator
 *           build their UidClockSpec from
 *
 * Every list of the types is made from this one (the slots, uid_stats(),
 * the state file's layout, uid-inspect, the simulator's types); the
 * Makefile's TYPES is read from it, and with it the objects, the SQL
 * scripts, the regression tests and partition.sql's list of key types.
 * doc/design.md's "Adding a sixth format" says what a new type adds.
 * A consumer X names the columns it uses and takes the rest as "...", so a
 * column added here changes no consumer.
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
	  "16 characters of 2-9 and a-x (either case)", SNO_CLOCK) \
	X(MUID, muid, 1, MUID_LEN, \
	  "hex digits in groups of 13, 11 and 8 joined by dashes, or the first one or two groups", \
	  MUID_CLOCK) \
	X(SNOWFLAKE_SI, snowflake_si, 2, 8, \
	  "a decimal integer from 0 to 9007199254740991", SNOWFLAKE_SI_CLOCK) \
	X(REVTS8, revts8, 3, 8, \
	  "16 hexadecimal digits with bits 15 to 10 clear", REVTS8_CLOCK) \
	X(UID60, uid60, 4, 8, \
	  "10 characters of A-Z, a-z, 0-9, - and _", UID60_CLOCK)

/* How many there are. */
#define UID_TYPE_COUNT_ONE(ID, ...) + 1
#define UID_NTYPES (0 UID_TYPES(UID_TYPE_COUNT_ONE))

#endif							/* UID_CODEC_REGISTRY_H */
