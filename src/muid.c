/*
 * muid.c
 *		PostgreSQL glue for the muid type, and its per-transaction generator.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "clock.h"
#include "glue.h"
#include "guc.h"
#include "muid.h"

#define MUID_EXPECTED "hex digits in groups of 13, 11 and 8 joined by dashes (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups"

static uint64 muid_now(const UidClockSpec *spec);

/*
 * Microseconds since 1970, 52 bits (until 2112-09-17).  The all-ones
 * timestamp is Gink's "global object" sentinel: never generated, and not a
 * time that muid_from_parts or muid_boundary accept.
 */
static const UidClockSpec muid_clock = {
	.type_name = "muid",
	.epoch_us = 0,
	.tick_us = 1,
	.tick_max = MUID_TS_MAX - 1,
	.seq_max = 0,
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
muid_txn_begin(void)
{
	uint64		medallion;

	if (likely(muid_txn_state.active))
		return;
	medallion = (uint64) uid_effective_medallion();
	muid_txn_state.timestamp = uid_unique_tick(uid_slot(UID_SLOT_MUID), &muid_clock);
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

static inline uint64
muid_sat_add(uint64 a, uint64 b)
{
	return a > PG_UINT64_MAX - b ? PG_UINT64_MAX : a + b;
}

/*
 * Abbreviated key.  The plain 8-byte prefix is the timestamp and 12 bits of
 * the medallion, equal for all the muids of one transaction, which may be
 * millions (a bulk INSERT): every comparison among them would go to the full
 * comparator.  So the key is built around the first value's (timestamp,
 * medallion), the reference R, as 52 bits of timestamp and 12 bits below:
 *
 *	- timestamp below R's: ts << 12 | c, where c places (medallion, offset)
 *	  relative to R's medallion: 0 below it, 1 + offset (saturated at 4094)
 *	  equal to it, 4095 above it;
 *	- timestamp equal to R's: a block of 2^32 + 2 keys from R's ts << 12:
 *	  medallion below R's, then 1 + offset (all 2^32 offsets, unsigned) for
 *	  R's medallion, then medallion above R's;
 *	- timestamp above R's: ts << 12 | c as for those below, moved up by
 *	  2^33 past R's block (saturating at 2^64 - 1).
 *
 * Each part only ever grows with the full (byte) order and the parts are in
 * order, so the key never contradicts the full comparator.  The transaction
 * of R gets a distinct key for each of its offsets; other transactions of
 * R's medallion are told apart by timestamp and their first 4094 offsets.
 */
static uint64
muid_abbrev(const uint8 *p, UidSortState *st)
{
	uint64		hi = uid_abbrev_prefix8(p, st);
	uint64		lo = uid_abbrev_prefix8(p + 8, st);
	uint32		med_lo = (uint32) (lo >> 32);
	uint32		offset = (uint32) lo;
	uint64		ts = hi >> 12;
	uint64		ref_ts;
	int			medcmp;
	uint64		c;

	if (unlikely(!st->have_ref))
	{
		st->ref = hi;
		st->ref2 = med_lo;
		st->have_ref = true;
	}
	ref_ts = st->ref >> 12;
	/* medallion against R's: its top 12 bits are in hi, the rest in med_lo */
	if ((hi & 0xFFF) != (st->ref & 0xFFF))
		medcmp = (hi & 0xFFF) < (st->ref & 0xFFF) ? -1 : 1;
	else
		medcmp = med_lo == st->ref2 ? 0 : (med_lo < st->ref2 ? -1 : 1);

	if (ts == ref_ts)
	{
		uint64		base = ref_ts << 12;

		if (medcmp == 0)
			return muid_sat_add(base, UINT64CONST(1) + offset);
		return medcmp < 0 ? base : muid_sat_add(base, (UINT64CONST(1) << 32) + 1);
	}
	c = medcmp < 0 ? 0 : medcmp > 0 ? 4095 : 1 + Min(offset, (uint32) 4093);
	if (ts < ref_ts)
		return ts << 12 | c;
	return muid_sat_add(ts << 12 | c, UINT64CONST(1) << 33);
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

	muid_txn_begin();
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

	muid_txn_begin();
	f.timestamp = muid_txn_state.timestamp;
	f.medallion = muid_txn_state.medallion;
	f.offset = 0;
	PG_RETURN_MUID_P(muid_make(&f));
}
