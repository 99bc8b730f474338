/*
 * sno.c
 *		The SQL functions of the sno type.
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "commands/async.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "postmaster/interrupt.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "generate.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "sno.h"
#include "core/backfill.h"

#define SNO_EXPECTED "16 characters of 2-9 and a-x"

/*
 * The sno slot's own words, tt.type[] beyond the generator core's (the
 * slot's words 4 to 7; see core/alloc.h).  Each reads zero in a state file
 * of uid 0.4.0 or older, where zero means "not in use", so the file's
 * layout and version stay as they were.
 *
 * type[0], type[1] (UID_SNO_BF_LANE0, core/backfill.h): the back-fill lanes
 *   (see sno_new_at): 0 while unused, else tick << 20 | (sequence + 1) of
 *   the lane's last ID.
 * type[2] (UID_SNO_BF_RANGES): the back-fill ranges: the range in use
 *   << 32 | the smallest range that holds every back-fill range used since
 *   the file was made, each min << 16 | max; 0 before the first back-fill.
 * type[3]: overflow notifications: the last tick notified << 24 | for how
 *   many ticks in a row one was (capped at 2^24 - 1).
 * spare[0]: overflow_waits as the last notification found it.
 */
#define SNO_OVERFLOW		3
#define SNO_OVF_RUN_BITS	24
#define SNO_OVF_RUN_MAX		((UINT64CONST(1) << SNO_OVF_RUN_BITS) - 1)

StaticAssertDecl(SNO_UNITS_MAX >> (64 - SNO_OVF_RUN_BITS) == 0,
				 "a sno tick and a run of ticks fit one word");

static uint64 sno_now(const UidClockSpec *spec);
static void sno_on_wait(const UidClockSpec *spec, UidSlot *slot, uint64 tick,
						bool used_up);

/* sno's clock; generators differ only in the name their errors give */
#define SNO_CLOCK(funcname) \
	.type_name = "sno", \
	.func = funcname, \
	.slot = UID_SLOT_SNO, \
	.ticktock = true, \
	.epoch_us = SNO_EPOCH_UNIX_MS * 1000, \
	.tick_us = SNO_UNIT_MS * 1000, \
	.tick_max = SNO_UNITS_MAX, \
	.seq_max = SNO_SEQ_MAX, \
	.now = sno_now

static const UidClockSpec sno_clock = {
	SNO_CLOCK("sno_new()"),
	.on_wait = sno_on_wait,
};

/*
 * The same clock for back-fill, all but its name in errors: the fence it
 * may be the first to apply moves both timelines, as for sno_new().
 */
static const UidClockSpec sno_backfill_clock = {
	SNO_CLOCK("sno_new_at()"),
};

static uint64
sno_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&sno_clock);
}

static inline sno_t *
sno_make(const sno_fields *f)
{
	sno_t	   *id = palloc(sizeof(sno_t));

	sno_pack(f, id->data);
	return id;
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

	f.meta = (unsigned) uid_check_field("sno", "metabyte", PG_GETARG_INT32(1), 0, 255);
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
 * The live range lo..hi without the sequences that back-fill has used
 * (the hull in type[2]; uid_live_clear_of_backfill, core/backfill.h).  They
 * are disjoint while the settings record holds the ranges the back-fill
 * was made with (sno_new_at() checks that); ranges changed back later
 * could otherwise issue a back-filled (time, sequence) pair at a time that
 * was back-filled.  Fewer
 * than UID_SNO_RANGE_MIN left is an error, or with error unset (for
 * sno_snapshot()) an empty range, *lo > *hi.
 */
static void
sno_live_clear_of_backfill(uint64 ranges, uint32 *lo, uint32 *hi, bool error)
{
	uint32		hull = (uint32) ranges;

	if (uid_live_clear_of_backfill(ranges, lo, hi))
		return;
	if (!error)
	{
		*lo = 1;
		*hi = 0;
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the sno sequence range %u..%u leaves fewer than %d sequences beside the back-fill ranges %u..%u",
					*lo, *hi, UID_SNO_RANGE_MIN, uid_range_lo(hull), uid_range_hi(hull)),
			 errdetail("sno_new() never issues a sequence that back-fill has used on this server."),
			 errhint("Set \"uid.sno_sequence_min\" and \"uid.sno_sequence_max\" clear of %u..%u and reload the configuration.",
					 uid_range_lo(hull), uid_range_hi(hull))));
}

/*
 * The ranges the server issues from: the sno ranges of the server's
 * settings record (published.c), never this session's own settings.  A
 * record is published once per reload from the postmaster's values, so
 * every session of the server issues from the same ranges at once, and an
 * edit of the configuration files that no reload delivered is never among
 * them.  sno_new() checks after it allocated that the record is still the
 * one in force: a pair allocated while another was published is not handed
 * out (the words only grow, so it is simply not used).  So once sno_range()
 * shows a new range on a server, no ID of the old range is handed out there
 * any more, and the old range's IDs are dated at most previous_until:
 * another server may take the range once its clock is past that.
 */
const char *
uid_sno_live_problem(const UidSnoRanges *r)
{
	if (uid_rec_refused() & (UINT64CONST(1) << UID_REC_SNO_RANGES))
		return "the server's value of one of them is invalid";
	if (r->live_min > r->live_max)
		return psprintf("%d..%d is no range", r->live_min, r->live_max);
	if (r->live_max - r->live_min + 1 < UID_SNO_RANGE_MIN)
		return psprintf("%d..%d holds %d sequences, fewer than %d",
						r->live_min, r->live_max, r->live_max - r->live_min + 1,
						UID_SNO_RANGE_MIN);
	return NULL;
}

const char *
uid_sno_backfill_problem(const UidSnoRanges *r)
{
	if (uid_rec_refused() & UID_REC_REFUSED_BACKFILL)
		return "the server's value of one of them is invalid";
	if (r->backfill_min < 0 && r->backfill_max < 0)
		return "back-fill is off";
	if (r->backfill_min < 0 || r->backfill_max < 0)
		return "only one of them is set";
	if (r->backfill_min > r->backfill_max)
		return psprintf("%d..%d is no range", r->backfill_min, r->backfill_max);
	if (r->backfill_max - r->backfill_min + 1 < UID_SNO_RANGE_MIN)
		return psprintf("%d..%d holds %d sequences, fewer than %d",
						r->backfill_min, r->backfill_max,
						r->backfill_max - r->backfill_min + 1, UID_SNO_RANGE_MIN);
	if (r->backfill_min <= r->live_max && r->backfill_max >= r->live_min)
		return psprintf("%d..%d overlaps the live range %d..%d (\"uid.sno_sequence_min\"..\"uid.sno_sequence_max\")",
						r->backfill_min, r->backfill_max, r->live_min, r->live_max);
	return NULL;
}

void
uid_sno_live_refused(const UidSnoRanges *r)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("\"uid.sno_sequence_min\" and \"uid.sno_sequence_max\" give sno no sequence range"),
			 errdetail("%s  sno_new() needs a range of at least %d sequences within 0..%d, the same for every session of the server.",
					   uid_sentence(uid_sno_live_problem(r)), UID_SNO_RANGE_MIN, SNO_SEQ_MAX),
			 errhint("Correct them and reload the configuration.")));
}

/* The ranges word in force now (after uid_rec_sync()). */
static inline uint64
sno_ranges_word(void)
{
	return (uint64) uid_rec_value(UID_REC_SNO_RANGES);
}

void
uid_sno_ranges(UidSnoRanges *r)
{
	(void) uid_rec_sync();
	uid_sno_ranges_dec(sno_ranges_word(), r);
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

/* The record; an older file's is taken over first. */
static uint64
sno_used_read(void)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	uint64		u = pg_atomic_read_u64(&c->live_used);

	if (unlikely(u == 0))
	{
		uint64		zero = 0;
		uint64		since = pg_atomic_read_u64(&c->live_used_since);

		if (since == UID_USED_SINCE_FENCE)
		{
			/*
			 * A file made anew (the server's first, or one that replaced a
			 * removed or damaged file): live IDs made before it are below
			 * the fence this incarnation took (the lease in WAL), and their
			 * sequences unknown.  The slot is fenced by now.
			 */
			uint64		fence_us = pg_atomic_read_u64(&uid_state->lease.fence_us);
			uint64		tick = fence_us <= (uint64) sno_clock.epoch_us ? 0 :
				(fence_us - 1 - (uint64) sno_clock.epoch_us) / (uint64) sno_clock.tick_us;

			(void) pg_atomic_compare_exchange_u64(&c->live_used_since, &since, tick);
		}
		else
		{
			/* an older file: what came before the marks is unknown */
			uid_raise_u64(&c->live_used_since, uid_sno_marks_tick());
		}
		pg_memory_barrier();
		(void) pg_atomic_compare_exchange_u64(&c->live_used, &zero, UID_USED_EMPTY);
		u = pg_atomic_read_u64(&c->live_used);
	}
	return u;
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
 * checks of the live range's settings) and the back-fill word (the range
 * clear of the sequences back-fill used).
 */
typedef struct SnoLive
{
	uint64		rec;			/* the record word; UINT64_MAX: nothing kept */
	uint64		bf;
	uint32		lo;
	uint32		hi;
} SnoLive;

static SnoLive sno_live = {UINT64_MAX};

/* Works the live range out from the record rec and the back-fill word bf. */
static pg_noinline const SnoLive *
sno_live_work_out(uint64 rec, uint64 bf)
{
	UidSnoRanges r;

	sno_live.rec = UINT64_MAX;
	uid_sno_ranges_dec(sno_ranges_word(), &r);
	uid_sno_check_live(&r);
	sno_live.lo = (uint32) r.live_min;
	sno_live.hi = (uint32) r.live_max;
	if (bf != 0)
		sno_live_clear_of_backfill(bf, &sno_live.lo, &sno_live.hi, true);
	sno_live.bf = bf;
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
		uid_check_field("sno", "metabyte", meta, 0, 255);
	slot = uid_gen_slot(&sno_clock, false);
	for (;;)
	{
		uint64		rec = uid_rec_sync();
		uint64		bf = pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]);
		const SnoLive *live = &sno_live;

		if (unlikely(rec != live->rec || bf != live->bf))
			live = sno_live_work_out(rec, bf);
		ts = uid_next_tick_in(&sno_clock, live->lo, live->hi);
		sno_used_note(&ts, live->lo, live->hi);

		/*
		 * Issued under the record and back-fill ranges still in force: a
		 * new record, or a back-fill pass that began meanwhile (it reads
		 * the used sequences after it published its range; this reads its
		 * range after it recorded the sequence), made the pair unusable.
		 * No barrier needed: the CAS that issued the pair, and the one that
		 * recorded the sequence if it was new, are full barriers.
		 */
		if (likely(uid_rec_still(rec) &&
				   pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]) == bf))
			break;
	}
	f.units = ts.tick;
	f.tick = (unsigned) ts.timeline;
	f.meta = (unsigned) meta;
	f.partition = ts.ident >= 0 ? uid_ident_value(ts.ident, "sno", "partition", 0xFFFF) :
		(unsigned) uid_per_record(&partition, sno_partition_work_out);
	f.sequence = ts.seq;
	uid_count_issued(UID_SLOT_SNO);
	PG_RETURN_SNO_P(sno_make(&f));
}

/*
 * Back-fill: sno_new_at(meta, time) makes an ID dated at a given time (the
 * seed's "bring your own time", to port old IDs), outside the tick-tock
 * scheme (its tick bit is 0) and never equal to another ID of this server.
 *
 * Its sequences come from the back-fill range, uid.sno_backfill_min..max,
 * which sno_new_at() refuses to use unless it is clear of the live range,
 * and which sno_new() leaves out of its own range for good once used (see
 * sno_live_clear_of_backfill): so no back-filled ID equals a live one,
 * whatever their times.  Among themselves, back-filled IDs are kept apart by
 * two lanes, words of the state file: lane 0 issues only the lower half of
 * the range, lane 1 the upper half, and a lane's word, the (tick, sequence)
 * it issued last, only grows by compare-and-swap, like the generator's own
 * words.  A call for tick t takes the lane that is at t if it has a sequence
 * left there (lane 0 first), else the lane furthest ahead that is still
 * before t (or unused), which moves to t and the first sequence of its half.
 * One session that fills a 4 ms unit gets the lower half, then the upper,
 * in increasing order.  So back-fill goes forward in
 * time per lane: one session (or any number back-filling the same times)
 * going through time in order, or two sessions back-filling two stretches
 * at once, never have a call refused; a call for a time that both lanes have
 * passed is refused (55000), and so is one for a 4 ms unit whose back-fill
 * sequences are used up (54000), never a duplicate.
 *
 * A new back-fill range (settings changed) begins a new pass: lanes that
 * hold a sequence of an earlier range count as unused.  That is safe only if
 * the new range shares no sequence with any earlier one, so type[2] keeps
 * the smallest range holding all of them, and a range that overlaps it but
 * is not the one in use is refused.  A lane's word holding a sequence
 * outside both is a later pass's: the range word moved on since it was
 * read, and the call looks again (and is refused, its range being older).
 * Such a session never writes a lane that a later pass has written, so a
 * pass's lane words only grow.
 *
 * The lanes are not WAL-logged (the lease covers the live marks only): they
 * are exact on the server that wrote them, across restarts and crashes of
 * PostgreSQL; the state file is synced before a transaction that back-filled
 * commits, so an operating-system crash loses none of a committed
 * transaction's back-fill.  A copy of the data directory (a standby, a
 * backup, a rewound node) holds the lanes of when it was copied.
 */

/* This backend back-filled in the current transaction: sync before commit. */
static bool sno_backfill_dirty = false;

static void
sno_backfill_xact(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			if (sno_backfill_dirty)
			{
				sno_backfill_dirty = false;
				uid_state_sync();
			}
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			sno_backfill_dirty = false;
			break;
		default:
			break;
	}
}

static void
sno_backfill_note(void)
{
	static bool registered = false;

	if (!registered)
	{
		RegisterXactCallback(sno_backfill_xact, NULL);
		registered = true;
	}
	sno_backfill_dirty = true;
}

/* A tick's time as text (a copy: timestamptz_to_str() reuses its buffer). */
static const char *
sno_tick_text(uint64 tick)
{
	return pstrdup(timestamptz_to_str(uid_tick_to_time(&sno_clock, tick)));
}

/*
 * A sequence of the back-fill range r for an ID dated at tick
 * (uid_backfill_alloc, core/backfill.c), or the error that says why not.
 */
static uint32
sno_backfill_alloc(UidSlot *slot, uint64 tick, const UidSnoRanges *r)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	UidBackfillWords w = {
		.lanes = &slot->tt.type[UID_SNO_BF_LANE0],
		.ranges = &slot->tt.type[UID_SNO_BF_RANGES],
		.used = &c->live_used,
		.used_since = &c->live_used_since,
		.from = uid_state->live_from,
	};
	UidBackfillSeen seen = {0};
	uint32		lo = (uint32) r->backfill_min;
	uint32		hi = (uint32) r->backfill_max;
	uint32		hull;
	uint32		cur;
	uint32		seq;

	(void) sno_used_read();		/* takes an older file's record over */
	switch (uid_backfill_alloc(&w, tick, lo, hi, (uint32) r->live_min, (uint32) r->live_max,
							   &seen, &seq))
	{
		case UID_BACKFILL_ISSUED:
			return seq;
		case UID_BACKFILL_OVERLAPS:
			hull = (uint32) seen.ranges;
			cur = (uint32) (seen.ranges >> 32);
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the back-fill range %u..%u overlaps the back-fill ranges used before on this server, %u..%u",
							lo, hi, uid_range_lo(hull), uid_range_hi(hull)),
					 errdetail("Back-fill continues in the range in use, %u..%u, or begins anew in a range clear of every one used before (the state file remembers them).",
							   uid_range_lo(cur), uid_range_hi(cur)),
					 errhint("Set \"uid.sno_backfill_min\" and \"uid.sno_backfill_max\" to %u and %u, or clear of %u..%u, and reload the configuration.",
							 uid_range_lo(cur), uid_range_hi(cur), uid_range_lo(hull), uid_range_hi(hull))));
			break;
		case UID_BACKFILL_SPANS_LIVE:
			hull = (uint32) seen.hull_if_new;
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the back-fill range %u..%u with those used before would span the live range %d..%d",
							lo, hi, r->live_min, r->live_max),
					 errdetail("Back-fill ranges used on this server hold %u..%u; sno_new() keeps clear of all of them.",
							   uid_range_lo(hull), uid_range_hi(hull)),
					 errhint("Put every back-fill range on the same side of the live range.")));
			break;
		case UID_BACKFILL_UNRECORDED:
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() cannot date an ID at %s: this server made live IDs up to %s before uid recorded which sequences they used",
							sno_tick_text(tick), sno_tick_text(seen.used_since)),
					 errdetail("The state file was made by uid 0.5.0 or older, or made anew after the one before was removed: sno_new() IDs of that time may hold any sequence, the back-fill range's too."),
					 errhint("Back-fill only times after %s on this server.", sno_tick_text(seen.used_since))));
			break;
		case UID_BACKFILL_LIVE_USED:
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the back-fill range %u..%u holds sequences that sno_new() has issued on this server, %u..%u",
							lo, hi, uid_used_lo(seen.used), uid_used_hi(seen.used)),
					 errdetail("A back-filled ID with such a sequence could equal a live ID made at its time."),
					 errhint("Set \"uid.sno_backfill_min\" and \"uid.sno_backfill_max\" clear of %u..%u and reload the configuration.",
							 uid_used_lo(seen.used), uid_used_hi(seen.used))));
			break;
		case UID_BACKFILL_FULL:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("sno_new_at() has used up the back-fill sequences of the 4 ms unit at %s",
							sno_tick_text(tick)),
					 errdetail("The back-fill range %u..%u holds %u IDs per 4 ms unit, half in each of %d lanes; a lane that has back-filled a later time takes no earlier one.",
							   lo, hi, hi - lo + 1, UID_BACKFILL_LANES),
					 errhint("Spread the IDs over more time, or back-fill with a wider range; see doc/types.md.")));
			break;
		case UID_BACKFILL_PASSED:
			hull = (uint32) seen.ranges;
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() cannot date an ID at %s: this server has back-filled past it",
							sno_tick_text(tick)),
					 errdetail("Back-fill goes forward in time in %d lanes, and both have made IDs dated after it (at %s and %s).",
							   UID_BACKFILL_LANES, sno_tick_text(seen.lanes[0] >> UID_SEQ_BITS),
							   sno_tick_text(seen.lanes[1] >> UID_SEQ_BITS)),
					 errhint("Back-fill in time order; to go over earlier times again, use a back-fill range clear of %u..%u.",
							 uid_range_lo(hull), uid_range_hi(hull))));
			break;
		case UID_BACKFILL_CORRUPT:
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("uid state file: a sno back-fill lane holds a sequence outside every back-fill range used"),
					 errdetail("Lanes %016llX and %016llX, ranges %016llX.",
							   (unsigned long long) seen.lanes[0], (unsigned long long) seen.lanes[1],
							   (unsigned long long) seen.ranges)));
			break;
	}
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(sno_new_at);
Datum
sno_new_at(PG_FUNCTION_ARGS)
{
	int32		meta = PG_GETARG_INT32(0);
	UidSnoRanges r;
	const char *problem;
	UidSlot    *slot;
	sno_fields	f;
	uint64		rec;

	f.meta = (unsigned) uid_check_field("sno", "metabyte", meta, 0, 255);
	f.units = uid_time_to_tick(&sno_backfill_clock, PG_GETARG_TIMESTAMPTZ(1), false);

	/*
	 * Back-fill dates IDs at times that have passed.  A lane goes forward
	 * only: one call dated in the future would take every earlier time from
	 * it, and two would end back-fill in its range until the clock got there.
	 */
	if (f.units > sno_backfill_clock.now(&sno_backfill_clock))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("sno_new_at() cannot date an ID at %s: that is later than the server's clock",
						sno_tick_text(f.units)),
				 errdetail("Back-fill makes IDs of times that have passed; sno_new() makes those of now."),
				 errhint("Check the time given; if the server's clock is behind, correct it.")));
	slot = uid_gen_slot(&sno_backfill_clock, false);

	/* made under the record still in force when it is handed out, as sno_new() */
	do
	{
		rec = uid_rec_sync();
		uid_sno_ranges_dec(sno_ranges_word(), &r);
		uid_sno_check_live(&r);
		if ((problem = uid_sno_backfill_problem(&r)) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() has no back-fill range"),
					 errdetail("%s  Back-filled IDs take their sequences from \"uid.sno_backfill_min\"..\"uid.sno_backfill_max\", a range of at least %d that sno_new() does not use.",
							   uid_sentence(problem), UID_SNO_RANGE_MIN),
					 errhint("Set both clear of the live range and reload the configuration; see doc/types.md.")));
		if (uid_rec_value(UID_REC_LEASED))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("sno_new_at() needs a partition set by hand"),
					 errdetail("A partition leased from a coordinator (\"uid.coordinator\") is this server's for the lease's time only: other servers that held it before made IDs of earlier times with it."),
					 errhint("Back-fill on a server without \"uid.coordinator\", with \"uid.partition\" set.")));
		f.sequence = sno_backfill_alloc(slot, f.units, &r);
		f.partition = (unsigned) uid_effective_partition();
	} while (unlikely(!uid_rec_still(rec)));
	f.tick = 0;
	sno_backfill_note();
	uid_count_issued(UID_SLOT_SNO);
	PG_RETURN_SNO_P(sno_make(&f));
}

/*
 * Overflow notifications (the seed's SequenceOverflowNotification): when
 * uid.sno_overflow_channel names a channel, the first call that waits for
 * the clock to pass a tick whose sequence range is used up NOTIFYs it, at
 * most once per tick per server (type[3] decides which call).  A wait for
 * the next tick after a call's fair share of one (the tick not used up) is
 * no overflow: others still take IDs in it.  The payload is JSON: the
 * tick's time, count (the calls that waited for a next tick, of either kind,
 * since the notification before, this one included; 1 for an overflow's
 * first), and ticks (for how many ticks in a row one was sent).
 *
 * NOTIFY is transactional: the notification is delivered to the listeners
 * of the database the call ran in when its transaction commits, and lost if
 * that (or the subtransaction) rolls back; a parallel worker cannot NOTIFY,
 * so its waits are only counted in the next notification; a transaction
 * that notified cannot be PREPAREd (core's rule).  None is queued while the
 * server's notification queue is half full: a queue that filled up would
 * make the waiting calls' transactions fail to commit.
 */
static void
sno_on_wait(const UidClockSpec *spec, UidSlot *slot, uint64 tick, bool used_up)
{
	const char *channel = uid_sno_overflow_channel;
	pg_atomic_uint64 *word = &slot->tt.type[SNO_OVERFLOW];
	uint64		old;
	uint64		run;
	uint64		waits;
	uint64		before;
	uint64		count;
	uint64		ms;
	pg_time_t	secs;
	struct pg_tm *tm;
	char		payload[160];

	if (likely(channel == NULL || *channel == '\0') || !used_up || IsParallelWorker())
		return;

	old = pg_atomic_read_u64(word);
	do
	{
		uint64		last = old >> SNO_OVF_RUN_BITS;

		if (old != 0 && last >= tick)
			return;				/* notified for this tick already */
		run = old != 0 && last + 1 == tick ?
			Min((old & SNO_OVF_RUN_MAX) + 1, SNO_OVF_RUN_MAX) : 1;
	} while (!pg_atomic_compare_exchange_u64(word, &old, tick << SNO_OVF_RUN_BITS | run));

	waits = pg_atomic_read_u64(&slot->overflow_waits);
	before = pg_atomic_read_u64(&slot->spare[0]);
	uid_raise_u64(&slot->spare[0], waits);
	count = run > 1 && waits > before ? waits - before : 1;

	{
		LOCAL_FCINFO(fcinfo, 0);

		InitFunctionCallInfoData(*fcinfo, NULL, 0, InvalidOid, NULL, NULL);
		if (DatumGetFloat8(pg_notification_queue_usage(fcinfo)) >= 0.5)
			return;
	}

	ms = (uint64) SNO_EPOCH_UNIX_MS + tick * SNO_UNIT_MS;
	secs = (pg_time_t) (ms / 1000);
	tm = pg_gmtime(&secs);
	snprintf(payload, sizeof(payload),
			 "{\"time\": \"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\", \"count\": " UINT64_FORMAT ", \"ticks\": " UINT64_FORMAT "}",
			 tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
			 tm->tm_hour, tm->tm_min, tm->tm_sec, (int) (ms % 1000),
			 count, run);
	Async_Notify(channel, payload);
}

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
			sno_live_clear_of_backfill(ranges, &lo, &hi, false);
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
