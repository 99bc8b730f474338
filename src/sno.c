/*
 * sno.c
 *		The sno type: its SQL functions (I/O, fields, sortsupport,
 *		sno_from_parts, sno_boundary, sno_range) and its generator, sno_new():
 *		the clock, the live range it issues from, and the record of the
 *		sequences it issued (which back-fill keeps clear of).  SQL calls it;
 *		back-fill (sno_backfill.c) and the snapshot (sno_snapshot.c) use its
 *		clock and record.  The range policy is sno_policy.c's, the overflow
 *		channel sno_overflow.c's.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "postmaster/interrupt.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "generate.h"
#include "identity.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "sno.h"
#include "sno_overflow.h"
#include "core/backfill.h"

#define SNO_EXPECTED "16 characters of 2-9 and a-x"

static uint64 sno_now(const UidClockSpec *spec);

/* sno's clock; generators differ only in the name their errors give */
#define SNO_SPEC(funcname) \
	.type_name = "sno", \
	.func = funcname, \
	.slot = UID_SLOT_SNO, \
	UID_CLOCK_FIELDS(SNO_CLOCK), \
	.now = sno_now

const UidClockSpec sno_clock = {
	SNO_SPEC("sno_new()"),
	.on_wait = sno_on_wait,
};

/*
 * The same clock for back-fill, all but its name in errors: the fence it
 * may be the first to apply moves both timelines, as for sno_new().
 */
const UidClockSpec sno_backfill_clock = {
	SNO_SPEC("sno_new_at()"),
};

static uint64
sno_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&sno_clock);
}

static inline sno_fields
sno_fields_of(const sno_t *id)
{
	sno_fields	f;

	sno_unpack(id->data, &f);
	return f;
}

UID_BYTES_TYPE_FUNCS(sno, SNO_LEN, SNO_TEXT_LEN, SNO_EXPECTED)

/*
 * Abbreviated key: the 40 bits of time and tick, then 24 bits that place
 * (metabyte, partition, sequence) relative to the first value's (metabyte,
 * partition): 0 below it, 1 + sequence equal to it, all ones above it.
 * That order never contradicts the full one, and it keeps IDs of one server
 * and metabyte distinct even when thousands share a 4 ms unit, where the
 * plain 8-byte prefix (time, metabyte, partition) would not.
 */
static uint64
sno_abbrev(const uint8 *p, UidSortState *st)
{
	uint64		first8 = uid_abbrev_prefix8(p, st);
	uint64		mid = first8 & 0xFFFFFF;
	uint64		low;

	if (unlikely(!st->have_ref))
	{
		st->ref = mid;
		st->have_ref = true;
	}
	if (likely(mid == st->ref))
		low = 1 + ((uint64) p[8] << 8 | p[9]);
	else
		low = mid < st->ref ? 0 : 0xFFFFFF;
	return (first8 & ~UINT64CONST(0xFFFFFF)) | low;
}

PG_FUNCTION_INFO_V1(sno_sortsupport);
Datum
sno_sortsupport(PG_FUNCTION_ARGS)
{
	uid_bytes_sortsupport((SortSupport) PG_GETARG_POINTER(0), SNO_LEN, sno_abbrev);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(sno_timestamp);
Datum
sno_timestamp(PG_FUNCTION_ARGS)
{
	sno_fields	f = sno_fields_of(PG_GETARG_SNO_P(0));

	PG_RETURN_TIMESTAMPTZ(uid_tick_to_time(&sno_clock, f.units));
}

#define SNO_FIELD_FUNC(name, field) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_INT32((int32) sno_fields_of(PG_GETARG_SNO_P(0)).field); \
}

SNO_FIELD_FUNC(sno_meta, meta)
SNO_FIELD_FUNC(sno_partition, partition)
SNO_FIELD_FUNC(sno_sequence, sequence)
SNO_FIELD_FUNC(sno_tick, tick)

PG_FUNCTION_INFO_V1(sno_from_parts);
Datum
sno_from_parts(PG_FUNCTION_ARGS)
{
	sno_fields	f;

	f.meta = (unsigned) uid_check_field("sno", "meta", PG_GETARG_INT32(1), 0, 255);
	f.partition = (unsigned) uid_check_field("sno", "partition", PG_GETARG_INT32(2), 0, 65535);
	f.sequence = (unsigned) uid_check_field("sno", "sequence", PG_GETARG_INT32(3), 0, SNO_SEQ_MAX);
	f.tick = (unsigned) uid_check_field("sno", "tick", PG_GETARG_INT32(4), 0, 1);
	f.units = uid_time_to_tick(&sno_clock, PG_GETARG_TIMESTAMPTZ(0), false);
	PG_RETURN_SNO_P(sno_make(&f));
}

PG_FUNCTION_INFO_V1(sno_boundary);
Datum
sno_boundary(PG_FUNCTION_ARGS)
{
	sno_fields	f = {0};

	f.units = uid_time_to_tick(&sno_clock, PG_GETARG_TIMESTAMPTZ(0), true);
	PG_RETURN_SNO_P(sno_make(&f));
}

/*
 * The sequences sno_new() has issued (UidSnoConfig.live_used), which
 * back-fill must keep clear of: a back-fill range carved out of sequences
 * the live range used before would repeat those IDs at their times.  A
 * backend keeps a copy; the shared word only widens, by CAS, when a
 * sequence falls outside it.  A file made before uid 0.6.0 begins recording
 * at the first use (its history before, up to the sno mark then, is
 * unknown: live_used_since); so does a file made anew, its history before
 * unknown up to the fence (a server's first file has none: its fence is 0).
 */
static uint64 sno_used_copy = 0;

/* The record; a file made anew, or an older file's, is taken over first (core/backfill.h). */
uint64
sno_used_read(void)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	uint64		u = pg_atomic_read_u64(&c->live_used);

	if (likely(u != 0))
		return u;
	/* the slot is fenced by now: the fence is this incarnation's */
	return uid_used_take_over(&c->live_used, &c->live_used_since,
							  pg_atomic_read_u64(&uid_state->lease.fence_us), &sno_clock,
							  &uid_state->slots[UID_SLOT_SNO]);
}

static pg_noinline void
sno_used_widen(uint32 seq, uint32 live_lo, uint32 live_hi, const UidTickSeq *ts)
{
	UidUsedFrom f = {
		.from = uid_state->live_from,
		.mark0 = &uid_state->slots[UID_SLOT_SNO].tt.mark[0],
		.tick = ts->tick,
		.timeline = ts->timeline,
	};

	(void) sno_used_read();
	uid_used_widen(&uid_state->sno_cfg.live_used, &sno_used_copy, seq, live_lo, live_hi,
				   UID_USED_BLOCK, uid_state_sync, &f);
}

/*
 * Before sno_new() hands out a sequence of its live range: the record
 * covers it, and the state file holds that (core/backfill.h,
 * UID_USED_DURABLE).
 */
static inline void
sno_used_note(const UidTickSeq *ts, uint32 live_lo, uint32 live_hi)
{
	if (unlikely(!uid_used_covers(sno_used_copy, ts->seq)))
		sno_used_widen(ts->seq, live_lo, live_hi, ts);
}

/*
 * The live range sno_new() issues from, worked out when what it depends on
 * changes rather than per ID: the settings record (its ranges and the
 * checks of the live range's settings), the back-fill word and the
 * back-fill ranges kept (the range clear of those back-fill may still
 * date IDs in, core/backfill.h).
 */
typedef struct SnoLive
{
	uint64		rec;			/* the record word; UINT64_MAX: nothing kept */
	uint64		bf;
	uint64		kept;
	uint32		lo;
	uint32		hi;
} SnoLive;

static SnoLive sno_live = {UINT64_MAX};

/*
 * Works the live range out from the record rec and the back-fill word bf,
 * and the back-fill ranges kept, read again after bf: a range that a new
 * pass replaced is in the closing part of kept from before the back-fill
 * word moved until the timeline-0 mark is past its IDs.
 */
static pg_noinline const SnoLive *
sno_live_work_out(uint64 rec, uint64 bf)
{
	UidSnoRanges r;
	uint64		kept;

	sno_live.rec = UINT64_MAX;
	pg_read_barrier();
	kept = pg_atomic_read_u64(&uid_state->backfill_kept);
	uid_sno_ranges_dec(sno_ranges_word(), &r);
	uid_sno_check_live(&r);
	sno_live.lo = (uint32) r.live_min;
	sno_live.hi = (uint32) r.live_max;
	if (bf != 0)
		sno_live_clear_of_backfill(bf, kept, &sno_live.lo, &sno_live.hi, true);
	sno_live.bf = bf;
	sno_live.kept = kept;
	sno_live.rec = rec;
	return &sno_live;
}

static int64
sno_partition_work_out(void)
{
	return uid_effective_partition();
}

PG_FUNCTION_INFO_V1(sno_new);
Datum
sno_new(PG_FUNCTION_ARGS)
{
	static UidPerRecord partition = UID_PER_RECORD_INIT;
	int32		meta = PG_GETARG_INT32(0);
	UidSlot    *slot;
	UidTickSeq	ts;
	sno_fields	f;

	if (unlikely(meta < 0 || meta > 255))
		uid_check_field("sno", "meta", meta, 0, 255);
	slot = uid_gen_slot(&sno_clock, false);
	for (;;)
	{
		uint64		rec = uid_rec_sync();
		uint64		bf = pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]);
		uint64		kept = pg_atomic_read_u64(&uid_state->backfill_kept);
		const SnoLive *live = &sno_live;

		if (unlikely(rec != live->rec || bf != live->bf || kept != live->kept))
			live = sno_live_work_out(rec, bf);
		ts = uid_next_tick_in(&sno_clock, live->lo, live->hi);
		sno_used_note(&ts, live->lo, live->hi);

		/*
		 * Issued under the record and back-fill ranges still in force: a
		 * new record, or a back-fill pass that began meanwhile (it reads
		 * the used sequences after it published its range; this reads its
		 * range after it recorded the sequence), made the pair unusable.
		 * No barrier needed: the CAS that issued the pair, and the one that
		 * recorded the sequence if it was new, are full barriers.  The
		 * ranges kept need no second look: they change only to keep more
		 * while the back-fill word stays, or to free a range once the
		 * timeline-0 mark is past its IDs (the CAS that issued the pair
		 * came after this process read that).
		 */
		if (likely(uid_rec_still(rec) &&
				   pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]) == bf))
			break;
	}
	f.units = ts.tick;
	f.tick = (unsigned) ts.timeline;
	f.meta = (unsigned) meta;
	f.partition = ts.ident >= 0 ? uid_ident_value(ts.ident, "sno", 0xFFFF) :
		(unsigned) uid_per_record(&partition, sno_partition_work_out);
	f.sequence = ts.seq;
	uid_count_issued(UID_SLOT_SNO);
	PG_RETURN_SNO_P(sno_make(&f));
}

/*
 * sno_range(): the ranges this server issues from now, since when, and the
 * live range before with the time its IDs reached: the handover of a range
 * between servers.  Calling it brings the settings record up to the last
 * reload this session took (published.c), so after a reload, a call in a
 * new statement shows the reload's ranges.
 */
PG_FUNCTION_INFO_V1(sno_range);
Datum
sno_range(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8] = {0};
	UidSnoConfig *c;
	UidSnoRanges r;
	uint64		prev;
	uint64		until;
	uint64		taken;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	uid_sno_ranges(&r);
	c = &uid_state->sno_cfg;
	/* the switch to them, as the publication of the record noted it */
	taken = pg_atomic_read_u64(&c->taken_us);
	prev = pg_atomic_read_u64(&c->previous);
	until = pg_atomic_read_u64(&c->previous_until);
	values[0] = Int32GetDatum(r.live_min);
	values[1] = Int32GetDatum(r.live_max);
	values[2] = Int32GetDatum(r.backfill_min);
	values[3] = Int32GetDatum(r.backfill_max);
	nulls[2] = r.backfill_min < 0;
	nulls[3] = r.backfill_max < 0;
	values[4] = TimestampTzGetDatum((TimestampTz) taken - PG_EPOCH_UNIX_US);
	if (prev == 0)
		nulls[5] = nulls[6] = true;
	else
	{
		UidSnoRanges p;

		uid_sno_ranges_dec(prev, &p);
		values[5] = Int32GetDatum(p.live_min);
		values[6] = Int32GetDatum(p.live_max);
	}
	/* the end of the last 4 ms unit the previous ranges can have issued */
	if (prev == 0 || until == 0)
		nulls[7] = true;
	else
		values[7] = TimestampTzGetDatum(uid_tick_to_time(&sno_clock, until));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
