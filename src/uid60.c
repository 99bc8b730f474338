/*
 * uid60.c
 *		The SQL functions of the uid60 type.
 *
 * The datum is the 60-bit integer n itself, whose order is time order; the
 * bit-reversed display form exists only in text.
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "generate.h"
#include "identity.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "uid60.h"

#define UID60_EXPECTED "10 characters of A-Z, a-z, 0-9, - and _"

static uint64 uid60_now(const UidClockSpec *spec);

/*
 * Seconds since 2018-03-01, 32 bits (until 2154-04-07), 1024 IDs each; the
 * sequence is not reset each second (the original's rule, see core/alloc.h).
 */
static const UidClockSpec uid60_clock = {
	.type_name = "uid60",
	.func = "uid60_new()",
	.slot = UID_SLOT_UID60,
	UID_CLOCK_FIELDS(UID60_CLOCK),
	.now = uid60_now,
};

/* the state word keeps the sequence and where the second's began */
StaticAssertDecl((UID60_SEQ_MAX & (UID60_SEQ_MAX + 1)) == 0 &&
				 (uint64) (UID60_SEQ_MAX + 1) * (UID60_SEQ_MAX + 1) <=
				 (UINT64CONST(1) << UID_SEQ_BITS),
				 "a run-on sequence and its start fit the state word");

static uint64
uid60_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&uid60_clock);
}

/* n from outside (binary input, bigint), or an error with sqlstate. */
static uint64
uid60_checked(uint64 v, int sqlstate, UidValueFrom from)
{
	return uid_check_range("uid60", (int64) v, UID60_MAX, sqlstate, from);
}

/* Binary: n as a big-endian 64-bit integer, like bigint's. */
UID_INT64_TYPE_IO(uid60, UID60_TEXT_LEN, UID60_EXPECTED,
				  UID_KEY_IS_VALUE, UID_KEY_IS_VALUE, uid60_checked)

/* Values are non-negative int64s, so signed order is their order: time order. */
UID_INT64_COMPARISONS(uid60, int64, ssup_datum_signed_cmp)

PG_FUNCTION_INFO_V1(uid60_to_bigint);
Datum
uid60_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) PG_GETARG_UID60(0));
}

PG_FUNCTION_INFO_V1(bigint_to_uid60);
Datum
bigint_to_uid60(PG_FUNCTION_ARGS)
{
	PG_RETURN_UID60(uid60_checked((uint64) PG_GETARG_INT64(0), ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
								  UID_FROM_BIGINT));
}

PG_FUNCTION_INFO_V1(uid60_timestamp);
Datum
uid60_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(uid_tick_to_time(&uid60_clock,
										   PG_GETARG_UID60(0) >> UID60_LOW_BITS));
}

#define UID60_FIELD_FUNC(name, field) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	uid60_fields f; \
	\
	uid60_unpack(PG_GETARG_UID60(0), &f); \
	PG_RETURN_INT32((int32) f.field); \
}

UID60_FIELD_FUNC(uid60_worker, worker)
UID60_FIELD_FUNC(uid60_sequence, seq)
UID60_FIELD_FUNC(uid60_random, rand)

PG_FUNCTION_INFO_V1(uid60_from_parts);
Datum
uid60_from_parts(PG_FUNCTION_ARGS)
{
	uid60_fields f;

	f.worker = (unsigned) uid_check_field("uid60", "worker", PG_GETARG_INT32(1), 0, UID60_WORKER_MAX);
	f.seq = (unsigned) uid_check_field("uid60", "sequence", PG_GETARG_INT32(2), 0, UID60_SEQ_MAX);
	f.rand = (unsigned) uid_check_field("uid60", "random", PG_GETARG_INT32(3), 0, UID60_RAND_MAX);
	f.ts = uid_time_to_tick(&uid60_clock, PG_GETARG_TIMESTAMPTZ(0), false);
	PG_RETURN_UID60(uid60_pack(&f));
}

PG_FUNCTION_INFO_V1(uid60_boundary);
Datum
uid60_boundary(PG_FUNCTION_ARGS)
{
	PG_RETURN_UID60(uid_time_to_tick(&uid60_clock, PG_GETARG_TIMESTAMPTZ(0), true)
					<< UID60_LOW_BITS);
}

/*
 * The random bits come from the backend's pseudo-random generator, which
 * PostgreSQL seeds from a strong source when the backend starts: fast, and
 * they are not a secret (the worker and sequence already keep IDs apart).
 */
static int64
uid60_worker_work_out(void)
{
	return uid_unleased_generator("uid60", UID60_WORKER_MAX);
}

PG_FUNCTION_INFO_V1(uid60_new);
Datum
uid60_new(PG_FUNCTION_ARGS)
{
	static UidPerRecord worker = UID_PER_RECORD_INIT;
	UidTickSeq	ts;
	uid60_fields f;
	uint64		rec;

	do
	{
		rec = uid_rec_sync();
		ts = uid_next_tick(&uid60_clock);
		f.worker = ts.ident >= 0 ? uid_ident_value(ts.ident, "uid60", UID60_WORKER_MAX) :
			(unsigned) uid_per_record(&worker, uid60_worker_work_out);
	} while (unlikely(!uid_rec_still(rec)));
	f.ts = ts.tick;
	f.seq = ts.seq;
	f.rand = pg_prng_uint32(&pg_global_prng_state) & UID60_RAND_MAX;
	uid_count_issued(UID_SLOT_UID60);
	PG_RETURN_UID60(uid60_pack(&f));
}
