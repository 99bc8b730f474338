/*
 * muid.c
 *		The SQL functions of the muid type, and its per-transaction generator.
 */
#include "postgres.h"

#include "access/parallel.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "generate.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "muid.h"

#define MUID_EXPECTED "hex digits in groups of 13, 11 and 8 joined by dashes (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups"

static uint64 muid_now(const UidClockSpec *spec);

/*
 * Microseconds since 1970, 52 bits (until 2112-09-17; codec/muid_codec.h).
 * The all-ones timestamp is Gink's "global object" sentinel: never
 * generated, and not a time that muid_from_parts or muid_boundary accept.
 */
static const UidClockSpec muid_clock = {
	.type_name = "muid",
	.func = "muid_new()",
	.slot = UID_SLOT_MUID,
	UID_CLOCK_FIELDS(MUID_CLOCK),
	.now = muid_now,
};

static uint64
muid_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&muid_clock);
}

/*
 * This backend's transaction: its timestamp, taken by the first muid_new()
 * or muid_txn() call, the medallion it was made with, and the last offset
 * issued.  Reset when the transaction ends; a rolled-back savepoint leaves
 * it alone, so an offset is never issued twice.
 */
static struct
{
	bool		active;
	uint64		timestamp;
	uint64		medallion;
	int32		last_offset;
}			muid_txn_state;

void
muid_xact_end(void)
{
	muid_txn_state.active = false;
}

static void
muid_txn_begin(const char *func)
{
	uint64		medallion;
	int32		ident;
	UidClockSpec spec;

	/* a transaction that turned read-only refuses (uid_gen_slot) */
	if (likely(muid_txn_state.active && !XactReadOnly))
		return;

	/*
	 * The counter lives in the backend that runs the transaction; a
	 * parallel worker would take a timestamp of its own.  The functions are
	 * PARALLEL RESTRICTED, so only a wrapper mislabelled PARALLEL SAFE gets
	 * here.
	 */
	if (IsParallelWorker())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("muid_new() and muid_txn() cannot run in a parallel worker"),
				 errhint("Mark functions that call them PARALLEL RESTRICTED.")));
	spec = muid_clock;
	spec.func = func;
	for (;;)
	{
		uint64		rec = uid_rec_sync();

		muid_txn_state.timestamp = uid_unique_tick(&spec, &ident);
		medallion = ident >= 0 ? (uint64) ident : (uint64) uid_effective_medallion();
		if (uid_rec_still(rec))
			break;
	}
	muid_txn_state.medallion = medallion;
	muid_txn_state.last_offset = 0;
	muid_txn_state.active = true;
}

static inline muid_t *
muid_make(const muid_fields *f)
{
	muid_t	   *id = palloc(sizeof(muid_t));

	muid_pack(f, id->data);
	return id;
}

static inline muid_fields
muid_fields_of(const muid_t *id)
{
	muid_fields f;

	muid_unpack(id->data, &f);
	return f;
}

UID_BYTES_TYPE_FUNCS(muid, MUID_LEN, MUID_TEXT_LEN, MUID_EXPECTED)

/* The abbreviated key around the first value converted: see muid_abbrev_key. */
static uint64
muid_abbrev(const uint8 *p, UidSortState *st)
{
	if (unlikely(!st->have_ref))
	{
		st->ref = uid_load_be(p, 8);
		st->ref2 = (uint32) uid_load_be(p + 8, 4);
		st->have_ref = true;
	}
	return muid_abbrev_key(p, st->ref, (uint32) st->ref2);
}

PG_FUNCTION_INFO_V1(muid_sortsupport);
Datum
muid_sortsupport(PG_FUNCTION_ARGS)
{
	uid_bytes_sortsupport((SortSupport) PG_GETARG_POINTER(0), MUID_LEN, muid_abbrev);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(muid_timestamp);
Datum
muid_timestamp(PG_FUNCTION_ARGS)
{
	muid_fields f = muid_fields_of(PG_GETARG_MUID_P(0));

	PG_RETURN_TIMESTAMPTZ(uid_tick_to_time(&muid_clock, f.timestamp));
}

PG_FUNCTION_INFO_V1(muid_medallion);
Datum
muid_medallion(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) muid_fields_of(PG_GETARG_MUID_P(0)).medallion);
}

PG_FUNCTION_INFO_V1(muid_offset);
Datum
muid_offset(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(muid_fields_of(PG_GETARG_MUID_P(0)).offset);
}

PG_FUNCTION_INFO_V1(muid_from_parts);
Datum
muid_from_parts(PG_FUNCTION_ARGS)
{
	muid_fields f;

	uid_check_field("muid", "medallion", PG_GETARG_INT64(1), 0, (int64) MUID_MEDALLION_MAX);
	f.timestamp = uid_time_to_tick(&muid_clock, PG_GETARG_TIMESTAMPTZ(0), false);
	f.medallion = (uint64) PG_GETARG_INT64(1);
	f.offset = PG_GETARG_INT32(2);
	PG_RETURN_MUID_P(muid_make(&f));
}

PG_FUNCTION_INFO_V1(muid_boundary);
Datum
muid_boundary(PG_FUNCTION_ARGS)
{
	muid_fields f = {0};

	f.timestamp = uid_time_to_tick(&muid_clock, PG_GETARG_TIMESTAMPTZ(0), true);
	PG_RETURN_MUID_P(muid_make(&f));
}

PG_FUNCTION_INFO_V1(muid_new);
Datum
muid_new(PG_FUNCTION_ARGS)
{
	muid_fields f;

	muid_txn_begin("muid_new()");
	if (unlikely(!muid_next_offset(&muid_txn_state.last_offset)))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("this transaction has used all %d muid offsets", MUID_OFFSET_MAX),
				 errdetail("muid_new() numbers the IDs of one transaction 1, 2, 3, ... under its timestamp."),
				 errhint("Make the IDs in more than one transaction.")));
	f.timestamp = muid_txn_state.timestamp;
	f.medallion = muid_txn_state.medallion;
	f.offset = muid_txn_state.last_offset;
	uid_count_issued(UID_SLOT_MUID);
	PG_RETURN_MUID_P(muid_make(&f));
}

PG_FUNCTION_INFO_V1(muid_txn);
Datum
muid_txn(PG_FUNCTION_ARGS)
{
	muid_fields f;

	muid_txn_begin("muid_txn()");
	f.timestamp = muid_txn_state.timestamp;
	f.medallion = muid_txn_state.medallion;
	f.offset = 0;
	PG_RETURN_MUID_P(muid_make(&f));
}
