/*
 * generate.c
 *		Generating in the server: the generator core (core/alloc.c) on the
 *		state file's slots, under a leased identity (ident_lease.c) and the
 *		lease in WAL (lease.c); waits on the process latch; per-type
 *		counters and uid_stats().
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "generate.h"

/*
 * The generator core is compiled here, into this translation unit, rather
 * than as an object of its own: the compiler then inlines its allocation
 * into uid_next_tick_in() as it did before the core was a module.  As an
 * object of its own (a call per ID, its arguments through memory), it cost
 * 40 to 48 more instructions per ID (bench/instructions.sh: sno_new() 1,762
 * instead of 1,722 a row).  The generators below call the allocators'
 * always-inline forms.  The core stays a module: its own file and header,
 * compiled alone by the simulator (test/sim).
 */
#include "core/alloc.c"
#include "sql_api.h"

/* IDs issued by this backend and not yet added to the shared counters. */
uint64		uid_pending_issued[UID_NSLOTS];
bool		uid_pending_any = false;

void
uid_clock_out_of_range(const UidClockSpec *spec, int64 now_us)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the system clock is outside the time range of type %s",
					spec->type_name),
			 errdetail("The clock reads " INT64_FORMAT " microseconds since 1970-01-01 00:00:00+00.",
					   now_us)));
}

/* The next ID of a type would be past the end of its time range. */
UID_NORETURN static void uid_out_of_time(const UidClockSpec *spec) UID_NORETURN_AFTER;

static void
uid_out_of_time(const UidClockSpec *spec)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("type %s has run out of time", spec->type_name),
			 errdetail("The next ID would be past the end of the format's time range.")));
}

/*
 * The identity could not cover the tick allocated (its floor raised the
 * marks, or its lease was renewed or claimed): allocate again, until it can.
 * Out of line, so that the loop does not weigh on the per-ID path.
 */
static pg_noinline void
uid_next_tick_again(UidSlot *slot, const UidClockSpec *spec, UidCursor *cur,
					uint32 seq_lo, uint32 seq_hi, UidTickSeq *ts)
{
	do
	{
		if (uid_alloc_tick(slot, spec, cur, seq_lo, seq_hi, ts) != UID_ALLOC_ISSUED)
			uid_out_of_time(spec);
		ts->ident = uid_ident_cover(slot, spec, false, ts->tick);
	} while (ts->ident == UID_IDENT_AGAIN);
}

UidTickSeq
uid_next_tick_in(const UidClockSpec *spec, uint32 seq_lo, uint32 seq_hi)
{
	UidSlot    *slot = uid_gen_slot(spec, false);
	UidCursor  *cur = &uid_cursors[spec->slot];
	UidTickSeq	ts;

	/* the clock's rule, which the simulator follows too (core/alloc.h) */
	Assert(!spec->unique);

	if (unlikely(uid_alloc_tick_inline(slot, spec, cur, seq_lo, seq_hi, &ts) != UID_ALLOC_ISSUED))
		uid_out_of_time(spec);
	ts.ident = uid_ident_cover(slot, spec, false, ts.tick);
	if (unlikely(ts.ident == UID_IDENT_AGAIN))
		uid_next_tick_again(slot, spec, cur, seq_lo, seq_hi, &ts);
	uid_lease_cover(spec, ts.tick);
	return ts;
}

uint64
uid_unique_tick(const UidClockSpec *spec, int32 *ident)
{
	UidSlot    *slot = uid_gen_slot(spec, true);
	uint64		tick;

	Assert(spec->unique);

	do
	{
		if (unlikely(uid_alloc_unique_inline(slot, spec, &tick) != UID_ALLOC_ISSUED))
			uid_out_of_time(spec);
		*ident = uid_ident_cover(slot, spec, true, tick);
	} while (unlikely(*ident == UID_IDENT_AGAIN));
	uid_lease_cover(spec, tick);
	return tick;
}

void
uid_flush_counts(void)
{
	if (!uid_pending_any || uid_state == NULL)
		return;
	for (int i = 0; i < UID_NSLOTS; i++)
	{
		if (uid_pending_issued[i] != 0)
		{
			pg_atomic_fetch_add_u64(&uid_state->slots[i].issued, uid_pending_issued[i]);
			uid_pending_issued[i] = 0;
		}
	}
	uid_pending_any = false;
}

/* The types uid_stats() reports, in slot order (codec/registry.h). */
static const struct
{
	UidSlotId	slot;
	const char *name;
}			uid_stat_types[] =
{
#define UID_STAT_TYPE(ID, name, ...) {UID_SLOT_##ID, #name},
	UID_TYPES(UID_STAT_TYPE)
#undef UID_STAT_TYPE
};

PG_FUNCTION_INFO_V1(uid_stats);
Datum
uid_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	if (uid_state == NULL)
		uid_state_attach();
	uid_flush_counts();

	for (size_t i = 0; i < lengthof(uid_stat_types); i++)
	{
		UidSlot    *slot = &uid_state->slots[uid_stat_types[i].slot];
		Datum		values[6];
		bool		nulls[6] = {0};

		values[0] = CStringGetTextDatum(uid_stat_types[i].name);
		values[1] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->issued));
		values[2] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_waits));
		values[3] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_wait_us));
		values[4] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->clock_regressions));
		values[5] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->tick_flips));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
