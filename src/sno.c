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
#include "reload.h"
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
 * are disjoint whenever every session has the settings that the back-fill
 * was made with (sno_new_at() checks that); a session that has not taken a
 * reload yet, or settings changed back later, could otherwise issue a
 * back-filled (time, sequence) pair at a time that was back-filled.  Fewer
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
 * The ranges the server issues from.
 *
 * A server issues sno from one live range (and back-fills from one back-fill
 * range) at a time, and only from ranges that a reload delivered.  Each
 * backend has its own copy of the settings, taken from the reload when it
 * gets to it (between statements; an idle backend at its next command), and
 * reading the files then, edits made after the reload included (see
 * reload.c).  So the ranges in force are the server's, in the state file
 * (UidSnoConfig.ranges), and every call issues from those:
 *
 * - A backend publishes its own ranges when they differ from the published
 *   ones and it may: it holds what the server's last reload delivered
 *   (uid_reload_trusted(): it took that reload, and the configuration files
 *   are as they were when it was signalled) and no newer reload is pending
 *   for it.  Every backend that may publish holds the same ranges, those of
 *   the last reload, so publications do not contend; the first call after a
 *   reload (sno_new(), sno_new_at(), sno_range(), sno_snapshot(),
 *   uid_config()) in a backend that took it switches the server.
 * - Every other backend (a reload pending in a long statement, or settings
 *   it does not trust) issues from the published ranges.  If nothing has been
 *   published since the server started, one whose settings are trusted
 *   publishes them, a pending reload or not (they are still the server's
 *   until a newer one is published); one whose settings are not trusted
 *   refuses (55000) until a reload.
 * - sno_new() reads the published word again after it allocated: a pair
 *   allocated while another backend switched the ranges is not returned
 *   (the words only grow, so it is simply not used).  So once sno_range()
 *   shows the new range on a server, no ID of the old range is handed out
 *   there any more, and the old range's IDs are dated at most
 *   previous_until: another server may take the range once its clock is past
 *   that.
 *
 * The word: live min << 48 | live max << 32 | back-fill min << 16 | back-fill
 * max, back-fill -1 encoded as 0xFFFF (min) and 0 (max), neither of which
 * is a valid end of a back-fill range of 4.  0 is no valid word (live max 0):
 * nothing published.
 */
static inline uint64
sno_ranges_enc(const UidSnoRanges *r)
{
	uint64		bmin = r->backfill_min < 0 ? 0xFFFF : (uint64) r->backfill_min;
	uint64		bmax = r->backfill_max < 0 ? 0 : (uint64) r->backfill_max;

	return (uint64) r->live_min << 48 | (uint64) r->live_max << 32 | bmin << 16 | bmax;
}

static inline void
sno_ranges_dec(uint64 w, UidSnoRanges *r)
{
	uint32		bmin = (uint32) (w >> 16) & 0xFFFF;
	uint32		bmax = (uint32) w & 0xFFFF;

	r->live_min = (int) (w >> 48);
	r->live_max = (int) (w >> 32) & 0xFFFF;
	r->backfill_min = bmin == 0xFFFF ? -1 : (int) bmin;
	r->backfill_max = bmax == 0 ? -1 : (int) bmax;
}

/* This backend's ranges as a reload delivered them (0: not trusted), and for which reload. */
static uint64 sno_mine = 0;
static TimestampTz sno_mine_for = -1;
static int64 sno_mine_stamp = 0;
/* Ranges this backend may publish only where none are (uid_reload_first_only). */
static uint64 sno_first = 0;

static void
sno_ranges_lock(UidSnoConfig *c)
{
	for (;;)
	{
		uint64		held = pg_atomic_read_u64(&c->lock);
		int64		now = uid_clock_mono_us();

		/* a holder dead for a second, or from before a reboot, is gone */
		if ((held == 0 || (int64) held > now || now - (int64) held > 1000000) &&
			pg_atomic_compare_exchange_u64(&c->lock, &held, (uint64) now))
			return;
		CHECK_FOR_INTERRUPTS();
		pg_usleep(100);
	}
}

/* The highest tick either sno timeline has issued (or been fenced to). */
static uint64
sno_marks_tick(void)
{
	UidSlot    *slot = &uid_state->slots[UID_SLOT_SNO];

	return Max(uid_word_tick(pg_atomic_read_u64(&slot->tt.mark[0])),
			   uid_word_tick(pg_atomic_read_u64(&slot->tt.mark[1])));
}

static const char *
sno_range_text(int lo, int hi)
{
	return lo < 0 ? "off" : psprintf("%d..%d", lo, hi);
}

/*
 * Publishes mine as the server's ranges; returns the word in force after.
 * Readers check pm_key before they trust the word: it is written last.
 */
static uint64
sno_ranges_publish(uint64 mine, bool only_first)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	uint64		pm = uid_pm_key();
	uint64		w;
	uint64		locked;
	bool		ours;
	bool		switched = false;

	sno_ranges_lock(c);
	locked = pg_atomic_read_u64(&c->lock);
	w = pg_atomic_read_u64(&c->ranges);
	ours = pg_atomic_read_u64(&c->pm_key) == pm;

	/*
	 * Ranges published from a later reload than this backend's stand: a
	 * backend not yet signalled for a reload that another has taken.
	 */
	if (!(ours && w == mine) &&
		!(ours && w != 0 && (only_first || (int64) pg_atomic_read_u64(&c->stamp) > sno_mine_stamp)))
	{
		uint64		marks;

		pg_atomic_write_u64(&c->previous_until, 0);
		pg_atomic_write_u64(&c->previous, w);
		pg_atomic_write_u64(&c->taken_us, (uint64) uid_clock_unix_us());
		pg_atomic_write_u64(&c->stamp, (uint64) sno_mine_stamp);
		pg_memory_barrier();
		pg_atomic_write_u64(&c->ranges, mine);
		pg_memory_barrier();
		pg_atomic_write_u64(&c->pm_key, pm);
		/* after the switch: every pair of the old ranges is at or below it */
		marks = sno_marks_tick();
		pg_atomic_write_u64(&c->previous_until, w == 0 || marks == 0 ? 0 : marks + 1);
		switched = w != 0 && w != mine;
	}
	w = pg_atomic_read_u64(&c->ranges);
	(void) pg_atomic_compare_exchange_u64(&c->lock, &locked, 0);
	if (switched)
	{
		UidSnoRanges was;
		UidSnoRanges now;

		sno_ranges_dec(pg_atomic_read_u64(&c->previous), &was);
		sno_ranges_dec(mine, &now);
		ereport(LOG,
				(errmsg("uid: sno issues from live range %d..%d and back-fill range %s, taken from the configuration reloaded at %s",
						now.live_min, now.live_max,
						sno_range_text(now.backfill_min, now.backfill_max),
						timestamptz_to_str(PgReloadTime)),
				 errdetail("Before: live range %d..%d, back-fill range %s.",
						   was.live_min, was.live_max,
						   sno_range_text(was.backfill_min, was.backfill_max))));
	}
	return w;
}

static uint64
sno_ranges_slow(uint64 w)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	bool		ours = pg_atomic_read_u64(&c->pm_key) == uid_pm_key();

	pg_memory_barrier();
	w = pg_atomic_read_u64(&c->ranges);
	if (PgReloadTime != sno_mine_for)
	{
		UidSnoRanges r = {uid_sno_sequence_min, uid_sno_sequence_max,
		uid_sno_backfill_min, uid_sno_backfill_max};
		bool		trusted = uid_reload_trusted();
		bool		first = uid_reload_first_only();
		bool		refused = false;

		/*
		 * A value the checks refused is not the server's: this session holds
		 * the built-in default in its place, never published (it refuses to
		 * issue, uid_sno_check_live).  A refused back-fill end publishes
		 * back-fill off.  Ends that each passed but make no range are what
		 * the reload delivered: published, every session refuses.
		 */
		if (uid_settings_refused & ((1u << UID_SET_SNO_SEQUENCE_MIN) | (1u << UID_SET_SNO_SEQUENCE_MAX)))
			trusted = first = false, refused = true;
		if (uid_settings_refused & ((1u << UID_SET_SNO_BACKFILL_MIN) | (1u << UID_SET_SNO_BACKFILL_MAX)))
			r.backfill_min = r.backfill_max = -1;
		sno_mine_for = PgReloadTime;
		sno_mine = trusted ? sno_ranges_enc(&r) : 0;
		sno_first = first ? sno_ranges_enc(&r) : 0;
		sno_mine_stamp = uid_reload_stamp();
		/* (a parallel worker has its leader's ranges: the leader said so) */
		if (sno_mine == 0 && !first && !refused && !ConfigReloadPending && !IsParallelWorker())
			ereport(WARNING,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("uid: this session's sno ranges are not taken: the configuration files changed after the reload it took"),
					 errdetail("An edit of postgresql.conf or postgresql.auto.conf (ALTER SYSTEM) that no reload delivered may be among them; sno issues from the ranges the server took before."),
					 errhint("Reload the configuration once the files hold what the server should use.")));
	}
	if (sno_mine != 0 && (!ours || w == 0 || (w != sno_mine && !ConfigReloadPending)))
		return sno_ranges_publish(sno_mine, false);
	if (sno_first != 0 && (!ours || w == 0))
		return sno_ranges_publish(sno_first, true);
	if (ours && w != 0)
		return w;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("sno cannot tell which sequence ranges the server's last reload delivered"),
			 errdetail("This session took a reload after the configuration files had changed again, and no session has taken the server's ranges since it started."),
			 errhint("Reload the configuration (SELECT pg_reload_conf()), or call sno_range() in a new session.")));
}

const char *
uid_sno_live_problem(const UidSnoRanges *r)
{
	if (uid_settings_refused & ((1u << UID_SET_SNO_SEQUENCE_MIN) | (1u << UID_SET_SNO_SEQUENCE_MAX)))
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
	if (uid_settings_refused & ((1u << UID_SET_SNO_BACKFILL_MIN) | (1u << UID_SET_SNO_BACKFILL_MAX)))
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

/* The ranges word in force now; publishes this backend's when it should. */
static inline uint64
sno_ranges_word(void)
{
	uint64		w = pg_atomic_read_u64(&uid_state->sno_cfg.ranges);

	if (likely(w == sno_mine && w != 0 && PgReloadTime == sno_mine_for && !ConfigReloadPending))
		return w;
	return sno_ranges_slow(w);
}

void
uid_sno_ranges(UidSnoRanges *r)
{
	if (uid_state == NULL)
		uid_state_attach();
	sno_ranges_dec(sno_ranges_word(), r);
}

/*
 * The sequences sno_new() has issued (UidSnoConfig.live_used), which
 * back-fill must keep clear of: a back-fill range carved out of sequences
 * the live range used before would repeat those IDs at their times.  A
 * backend keeps a copy; the shared word only widens, by CAS, when a
 * sequence falls outside it.  A file made before uid 0.6.0 begins recording
 * at the first use (its history before, up to the sno mark then, is
 * unknown: live_used_since).
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

		/* an older file: what came before the marks is unknown */
		uid_raise_u64(&c->live_used_since, sno_marks_tick());
		pg_memory_barrier();
		(void) pg_atomic_compare_exchange_u64(&c->live_used, &zero, UID_USED_EMPTY);
		u = pg_atomic_read_u64(&c->live_used);
	}
	return u;
}

static pg_noinline void
sno_used_widen(uint32 seq, uint32 live_lo, uint32 live_hi)
{
	(void) sno_used_read();
	uid_used_widen(&uid_state->sno_cfg.live_used, &sno_used_copy, seq, live_lo, live_hi,
				   UID_USED_BLOCK, uid_state_sync);
}

/*
 * Before sno_new() hands out a sequence of its live range: the record
 * covers it, and the state file holds that (core/backfill.h,
 * UID_USED_DURABLE).
 */
static inline void
sno_used_note(uint32 seq, uint32 live_lo, uint32 live_hi)
{
	if (unlikely(!uid_used_covers(sno_used_copy, seq)))
		sno_used_widen(seq, live_lo, live_hi);
}

/*
 * The live range sno_new() issues from, worked out when what it depends on
 * changes rather than per ID: the ranges word, the back-fill word (the
 * range clear of the sequences back-fill used) and this backend's reload
 * (the checks of the live range's settings).  Kept only in the fast case of
 * sno_ranges_word(), the ranges word being this backend's own with no
 * reload pending; otherwise worked out on every call, as before.
 */
typedef struct SnoLive
{
	TimestampTz reload;			/* -1: nothing kept */
	uint64		ranges;
	uint64		bf;
	uint32		lo;
	uint32		hi;
} SnoLive;

static SnoLive sno_live = {-1};

/* Works the live range out from the words in force: *w and *bf are set to them. */
static pg_noinline const SnoLive *
sno_live_work_out(UidSlot *slot, uint64 *w, uint64 *bf)
{
	static SnoLive once;
	SnoLive    *out;
	UidSnoRanges r;

	sno_live.reload = -1;
	*w = sno_ranges_word();
	*bf = pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]);
	sno_ranges_dec(*w, &r);
	uid_sno_check_live(&r);
	out = *w == sno_mine && PgReloadTime == sno_mine_for && !ConfigReloadPending ?
		&sno_live : &once;
	out->lo = (uint32) r.live_min;
	out->hi = (uint32) r.live_max;
	if (*bf != 0)
		sno_live_clear_of_backfill(*bf, &out->lo, &out->hi, true);
	out->ranges = *w;
	out->bf = *bf;
	out->reload = PgReloadTime;
	return out;
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
	static UidPerReload partition = UID_PER_RELOAD_INIT;
	int32		meta = PG_GETARG_INT32(0);
	UidSlot    *slot;
	UidTickSeq	ts;
	sno_fields	f;

	if (unlikely(meta < 0 || meta > 255))
		uid_check_field("sno", "metabyte", meta, 0, 255);
	slot = uid_gen_slot(&sno_clock, false);
	for (;;)
	{
		uint64		w = pg_atomic_read_u64(&uid_state->sno_cfg.ranges);
		uint64		bf = pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]);
		const SnoLive *live = &sno_live;

		if (unlikely(w != live->ranges || bf != live->bf || PgReloadTime != live->reload ||
					 ConfigReloadPending))
			live = sno_live_work_out(slot, &w, &bf);
		ts = uid_next_tick_in(&sno_clock, live->lo, live->hi);
		sno_used_note(ts.seq, live->lo, live->hi);

		/*
		 * Issued under the ranges and back-fill ranges still in force: a
		 * switch of the ranges, or a back-fill pass that began meanwhile (it
		 * reads the used sequences after it published its range; this reads
		 * its range after it recorded the sequence), made the pair unusable.
		 * No barrier needed: the CAS that issued the pair, and the one that
		 * recorded the sequence if it was new, are full barriers.
		 */
		if (likely(pg_atomic_read_u64(&uid_state->sno_cfg.ranges) == w &&
				   pg_atomic_read_u64(&slot->tt.type[UID_SNO_BF_RANGES]) == bf))
			break;
	}
	f.units = ts.tick;
	f.tick = (unsigned) ts.timeline;
	f.meta = (unsigned) meta;
	f.partition = ts.ident >= 0 ? uid_ident_value(ts.ident, "sno", "partition", 0xFFFF) :
		(unsigned) uid_per_reload(&partition, sno_partition_work_out);
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
					 errdetail("The state file was made by uid 0.5.0 or older: sno_new() IDs of that time may hold any sequence, the back-fill range's too."),
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

	f.meta = (unsigned) uid_check_field("sno", "metabyte", meta, 0, 255);
	f.units = uid_time_to_tick(&sno_backfill_clock, PG_GETARG_TIMESTAMPTZ(1), false);
	uid_sno_ranges(&r);

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
	uid_sno_check_live(&r);
	if ((problem = uid_sno_backfill_problem(&r)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sno_new_at() has no back-fill range"),
				 errdetail("%s  Back-filled IDs take their sequences from \"uid.sno_backfill_min\"..\"uid.sno_backfill_max\", a range of at least %d that sno_new() does not use.",
						   uid_sentence(problem), UID_SNO_RANGE_MIN),
				 errhint("Set both clear of the live range and reload the configuration; see doc/types.md.")));
	if (uid_ident_leased)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sno_new_at() needs a partition set by hand"),
				 errdetail("A partition leased from a coordinator (\"uid.coordinator\") is this server's for the lease's time only: other servers that held it before made IDs of earlier times with it."),
				 errhint("Back-fill on a server without \"uid.coordinator\", with \"uid.partition\" set.")));

	slot = uid_gen_slot(&sno_backfill_clock, false);
	f.sequence = sno_backfill_alloc(slot, f.units, &r);
	f.tick = 0;
	f.partition = (unsigned) uid_effective_partition();
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
 * between servers.  Calling it takes this session's ranges for the server
 * when it may (see sno_ranges_word()), so after a reload, a call in a new
 * statement shows the reload's ranges (or says why not).
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
	/* the ranges and their switch as one publication wrote them */
	sno_ranges_lock(c);
	{
		uint64		locked = pg_atomic_read_u64(&c->lock);

		sno_ranges_dec(pg_atomic_read_u64(&c->ranges), &r);
		taken = pg_atomic_read_u64(&c->taken_us);
		prev = pg_atomic_read_u64(&c->previous);
		until = pg_atomic_read_u64(&c->previous_until);
		(void) pg_atomic_compare_exchange_u64(&c->lock, &locked, 0);
	}
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

		sno_ranges_dec(prev, &p);
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
