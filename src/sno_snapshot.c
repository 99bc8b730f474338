/*
 * sno_snapshot.c
 *		sno_snapshot(): the sno generator's state as the state file holds it
 *		now, for metrics.  Called by SQL; it reads sno.c's clock, sno's
 *		slot words (sno_overflow.h, core/backfill.h) and the ranges in force
 *		(sno_policy.c).
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/timestamp.h"

#include "generate.h"
#include "type_support.h"
#include "sno.h"
#include "sno_overflow.h"
#include "core/backfill.h"

/*
 * sno_snapshot(): the sno generator's state as the state file holds it now,
 * without changing it (the seed's Snapshot(), for metrics): a sample, stale
 * as soon as it is read.
 */
#define SNO_SNAPSHOT_COLS 24

static void
sno_snapshot_mark(uint64 w, Datum *values, bool *nulls, int at)
{
	if (w == 0)
	{
		nulls[at] = nulls[at + 1] = true;
		return;
	}
	values[at] = TimestampTzGetDatum(uid_tick_to_time(&sno_clock, uid_word_tick(w)));
	values[at + 1] = Int32GetDatum((int32) (w & ((UINT64CONST(1) << UID_SEQ_BITS) - 1)));
}

PG_FUNCTION_INFO_V1(sno_snapshot);
Datum
sno_snapshot(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[SNO_SNAPSHOT_COLS];
	bool		nulls[SNO_SNAPSHOT_COLS] = {0};
	UidSlot    *slot;
	UidSnoRanges r;
	uint64		mark[2];
	uint64		flips;
	uint64		seen;
	uint64		type[4];
	uint64		ranges;
	int			n = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (uid_state == NULL)
		uid_state_attach();
	uid_flush_counts();
	slot = &uid_state->slots[UID_SLOT_SNO];
	mark[0] = pg_atomic_read_u64(&slot->tt.mark[0]);
	mark[1] = pg_atomic_read_u64(&slot->tt.mark[1]);
	flips = pg_atomic_read_u64(&slot->tt.flips);
	seen = pg_atomic_read_u64(&slot->tt.seen);
	for (size_t i = 0; i < lengthof(type); i++)
		type[i] = pg_atomic_read_u64(&slot->tt.type[i]);
	ranges = type[UID_SNO_BF_RANGES];

	/* the tick-tock timelines: the active one, the flips, each one's mark */
	values[n++] = Int32GetDatum((int32) (flips & 1));
	values[n++] = Int64GetDatum((int64) flips);
	sno_snapshot_mark(mark[0], values, nulls, n);
	n += 2;
	sno_snapshot_mark(mark[1], values, nulls, n);
	n += 2;
	if (seen == 0)
		nulls[n] = true;
	else
		values[n] = TimestampTzGetDatum(uid_tick_to_time(&sno_clock, seen));
	n++;

	/* the live range this session generates in, and its capacity */
	uid_sno_ranges(&r);
	if (uid_sno_live_problem(&r) != NULL)
	{
		for (int i = 0; i < 4; i++)
			nulls[n++] = true;
	}
	else
	{
		uint32		lo = (uint32) r.live_min;
		uint32		hi = (uint32) r.live_max;

		if (ranges != 0)
		{
			pg_read_barrier();
			sno_live_clear_of_backfill(ranges, pg_atomic_read_u64(&uid_state->backfill_kept),
									   &lo, &hi, false);
		}
		if (lo > hi)
		{
			for (int i = 0; i < 4; i++)
				nulls[n++] = true;
		}
		else
		{
			values[n++] = Int32GetDatum((int32) lo);
			values[n++] = Int32GetDatum((int32) hi);
			values[n++] = Int32GetDatum((int32) (hi - lo + 1));
			values[n++] = Int64GetDatum((int64) (hi - lo + 1) * (1000 / SNO_UNIT_MS));
		}
	}

	/* back-fill: the range in use, every range used, the lanes */
	if (ranges == 0)
	{
		for (int i = 0; i < 4; i++)
			nulls[n++] = true;
	}
	else
	{
		values[n++] = Int32GetDatum((int32) uid_range_lo((uint32) (ranges >> 32)));
		values[n++] = Int32GetDatum((int32) uid_range_hi((uint32) (ranges >> 32)));
		values[n++] = Int32GetDatum((int32) uid_range_lo((uint32) ranges));
		values[n++] = Int32GetDatum((int32) uid_range_hi((uint32) ranges));
	}
	for (int i = 0; i < UID_BACKFILL_LANES; i++)
	{
		uint64		lw = type[UID_SNO_BF_LANE0 + i];

		if (lw == 0)
			nulls[n] = nulls[n + 1] = true;
		else
		{
			values[n] = TimestampTzGetDatum(uid_tick_to_time(&sno_clock, lw >> UID_SEQ_BITS));
			values[n + 1] = Int32GetDatum((int32) (lw & ((UINT64CONST(1) << UID_SEQ_BITS) - 1)) - 1);
		}
		n += 2;
	}

	/* overflow notifications, and the counters */
	if (type[SNO_OVERFLOW] == 0)
		nulls[n] = nulls[n + 1] = true;
	else
	{
		values[n] = TimestampTzGetDatum(uid_tick_to_time(&sno_clock,
														 type[SNO_OVERFLOW] >> SNO_OVF_RUN_BITS));
		values[n + 1] = Int32GetDatum((int32) (type[SNO_OVERFLOW] & SNO_OVF_RUN_MAX));
	}
	n += 2;
	values[n++] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->issued));
	values[n++] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_waits));
	values[n++] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_wait_us));
	Assert(n == SNO_SNAPSHOT_COLS);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
