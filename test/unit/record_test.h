/*
 * record_test.h
 *		What the tables of the settings record's rules share (core_test:
 *		record_test.c, the plan and what it keeps; record_publish_test.c,
 *		publication and reading): the rows' words for lives, times and
 *		sources, and a record made of them.
 *
 * Times: the monotonic clock reads 10000 us unless a row says otherwise;
 * a record answers a request made at `requested`, a process needs one
 * requested after `after` (the last reload it took) and `signalled` (the
 * last reload signal it received).
 */
#ifndef UID_TEST_RECORD_TEST_H
#define UID_TEST_RECORD_TEST_H

#include "harness.h"
#include "core_fake.h"
#include "core/record.h"

/* Two server lives; their high halves differ (uid_record_self keeps them). */
#define LIFE	UINT64CONST(0x5EED000100000001)
#define LIFE2	UINT64CONST(0x5EED000200000003)
/* A postmaster reload time (Unix us) */
#define RT		INT64CONST(1700000000000000)
#define NOW		10000

#define PM		UID_SOURCE_POSTMASTER
#define SU		UID_SOURCE_SINGLE_USER
#define SE		UID_SOURCE_SESSION
#define IN		UID_SOURCE_INHERITED
#define NO		UID_SOURCE_NONE

#define BIT(f)	(UINT64CONST(1) << (f))

/* A record: the values 10 + field (refused none), the head from the arguments. */
static inline UidRecord
record(uint64 gen, uint64 life, int64 requested, int64 reload_time, int64 published_us,
	   UidRecordSource source)
{
	UidRecord	r;

	memset(&r, 0, sizeof(r));
	r.gen = gen;
	r.life = life;
	r.requested = requested;
	r.reload_time = reload_time;
	r.published_us = published_us;
	r.source = source;
	for (int i = 0; i < UID_REC_NFIELDS; i++)
		r.values[i] = 10 + i;
	r.values[UID_REC_REFUSED] = 0;
	return r;
}

/* The tables of record_publish_test.c, run by test_record() */
extern void test_record_publish(void);

#endif							/* UID_TEST_RECORD_TEST_H */
