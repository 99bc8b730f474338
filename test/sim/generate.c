/*
 * generate.c
 *		A backend's calls: generate (live IDs) and back-fill (sno).
 */
#include "sim.h"

/* How making an ID went (make_id). */
enum
{
	MADE_OK,					/* an ID, to be handed out */
	MADE_REFUSED,				/* the generator raises an error: no ID */
	MADE_FAILED					/* an invariant failed: the run stops */
};

/* A call begins: the floor of the order it must keep; now and then a parallel worker. */
static void
call_begins(Backend *b, Server *s, int type)
{
	b->type = type;
	b->call_t = sim->t;
	b->in_call = true;
	b->floor[0] = sim->done_max[b->server][type][0];
	b->floor[1] = sim->done_max[b->server][type][1];

	/* a parallel worker makes the call now and then: its leader's values */
	if (rng_below(&sim->sched, 8) == 0)
	{
		b->par_pid = ++sim->next_pid;
		b->par_after = server_mono_us(s);
		b->par_reload = s->reload_time;
		sim->parallel_calls++;
	}
}

static void
call_ends(Backend *b)
{
	b->in_call = false;
	b->par_pid = 0;
}

/*
 * A tick (and sequence) of the type's slot in [lo, hi], covered by a lease
 * (leased runs: ident_cover, which may talk to the coordinator first).
 */
static int
alloc_covered(Backend *b, Server *s, const UidClockSpec *spec, UidSlot *slot,
			  uint32 lo, uint32 hi, MadeId *m)
{
	for (int talks = 0;;)
	{
		UidAllocResult r;
		LeaseStep	st;

		if (spec->unique)
			r = uid_alloc_unique(slot, spec, &m->ts.tick);
		else
			r = uid_alloc_tick(slot, spec, &b->cur[m->type], lo, hi, &m->ts);
		if (r != UID_ALLOC_ISSUED)
		{
			fail("%s: out of time at tick %" PRIu64, spec->type_name, m->ts.tick);
			return MADE_FAILED;
		}
		if (!sim->leased)
			return MADE_OK;
		st = ident_cover(b, s, slot, spec, m->ts.tick, &talks, &m->ident, &m->used);
		if (st == LEASE_ISSUE)
			return MADE_OK;
		if (st == LEASE_REFUSED)
		{
			/* the generator raises an error: no ID */
			sim->refused++;
			return MADE_REFUSED;
		}
	}
}

/* sno_used_widen: the record taken over first (sno_used_read), then noted. */
static void
sno_used_note(Backend *b, Server *s, const UidClockSpec *spec, UidSlot *slot, const MadeId *m,
			  uint32 lo, uint32 hi)
{
	UidUsedFrom uf = {s->file.from, &slot->tt.mark[0], m->ts.tick, m->ts.timeline};

	if (!uid_used_covers(b->used_copy, m->ts.seq))
		(void) uid_used_take_over(&s->file.used, &s->file.used_since,
								  uid_word_read(&s->file.lease.fence_us), spec, slot);
	uid_used_note(&s->file.used, &b->used_copy, m->ts.seq, lo, hi, sim->used_block,
				  sync_running, &uf);
}

/*
 * generate.c's uid_next_tick_in / uid_unique_tick: the ID, its lease
 * renewed when short; sno's from its live range clear of the back-fill
 * ranges it keeps clear of, recorded, then issued only under the back-fill
 * ranges it was made in.
 */
static int
make_id(Backend *b, Server *s, const UidClockSpec *spec, UidSlot *slot, MadeId *m)
{
	int			type = m->type;

	for (;;)
	{
		/*
		 * sno.c's sno_new(): its live range clear of the back-fill ranges
		 * it keeps clear of (the one in use, those closing), read in that
		 * order
		 */
		uint64		bfw = type == T_SNO ? uid_word_read(&slot->tt.type[UID_SNO_BF_RANGES]) : 0;
		uint64		kept = type == T_SNO ? uid_word_read(&s->file.bf_kept) : 0;
		uint32		lo = type == T_SNO ? sno_parts[b->part][0] : 0;
		uint32		hi = type == T_SNO ? sno_parts[b->part][1] : spec->seq_max;
		int			st;

		m->bf_hull = (uint32) bfw;
		m->bf_cur = (uint32) (bfw >> 32);
		if (!uid_live_clear_of_backfill(bfw, kept, &lo, &hi))
		{
			/* sno_new() raises an error: its range is all back-fill's */
			sim->live_refused++;
			return MADE_REFUSED;
		}
		st = alloc_covered(b, s, spec, slot, lo, hi, m);
		if (st != MADE_OK)
			return st;
		if (uid_lease_short(&s->file.lease, spec, m->ts.tick))
			lease_extend(b, s, spec, m->ts.tick);
		if (type != T_SNO)
			return MADE_OK;
		sno_used_note(b, s, spec, slot, m, lo, hi);
		if (uid_word_read(&slot->tt.type[UID_SNO_BF_RANGES]) == bfw)
			return MADE_OK;
	}
}

/*
 * A generator call: its settings, the ID, (Citus runs) the identity it
 * embeds, then the checks of an ID handed out.  An ID made under a record
 * no longer in force is made again.
 */
void
generate(Backend *b, int type)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[type];
	MadeId		m;

	made_init(&m, type);
	call_begins(b, s, type);
	for (;;)
	{
		int			st;

		if (!settings_ready(b, s))
			break;
		m.ident = settings_take(b);
		if (settings_refuse_partition(b))
			break;
		st = make_id(b, s, spec, gen_slot(s, spec), &m);
		if (st == MADE_FAILED)
			return;
		if (st == MADE_REFUSED)
			break;
		/* Citus runs: the identity the type embeds, or an error (the generator's) */
		if (sim->citus && !citus_ident(b, s, type, m.ident, &m.ci))
		{
			citus_refusal(b, s, spec, &m.ci);
			break;
		}
		/* issued only under the record it was made under, else made again */
		if (uid_record_current(&s->file.rec) >> 1 == b->rec.gen)
		{
			/* handed out */
			call_ends(b);
			check_handout(b, s, &m);
			return;
		}
		trace(b, b->server, "%s tick %" PRIu64 " made under record gen %" PRIu64
			  ", no longer in force: again", spec->type_name, m.ts.tick, b->rec.gen);
	}
	call_ends(b);
}

/*
 * A back-fill call's settings and the partition it is under (Citus runs:
 * sno's set by hand, -1: a node group, never another's); false: refused,
 * or back-fill is off.
 */
static bool
backfill_ready(Backend *b, Server *s, int *partition, CitusIdent *ci)
{
	/* the call begins here: its settings are read first */
	b->call_t = sim->t;
	if (!settings_ready(b, s))
		return false;
	*partition = settings_take(b);
	if (settings_refuse_partition(b))
		return false;
	if (sim->citus)
	{
		if (!citus_ident(b, s, T_SNO, -1, ci))
		{
			citus_refusal(b, s, &specs[T_SNO], ci);
			return false;
		}
		*partition = citus_hand(ci);
	}
	/*
	 * the settings' check: back-fill is on; not under a partition another
	 * server used (its past ticks are the other server's)
	 */
	return !(b->bf < 0 || (*partition >= 0 && *partition < NPARTITIONS &&
						   (sim->inherited[*partition] & (1 << server_index(s)))));
}

/*
 * The tick a back-fill call dates its ID at: mostly a little back, half
 * the time at the tick of a recent live ID, where a mistake would show.
 * False: none (the clock is not that far on).
 */
static bool
backfill_tick(Server *s, const UidClockSpec *spec, int64 *now_tick, uint64 *tick)
{
	uint64		back;

	*now_tick = (server_unix_us(s) - spec->epoch_us) / spec->tick_us;
	back = rng_below(&sim->sched, 4) == 0 ? rng_below(&sim->sched, 3000) :
		rng_below(&sim->sched, 40);
	if (s->nlive_ticks > 0 && rng_below(&sim->sched, 2) == 0)
	{
		uint64		at = s->live_ticks[rng_below(&sim->sched, (uint64) Min(s->nlive_ticks, 64))];

		back = *now_tick > (int64) at ? (uint64) *now_tick - at : 0;
	}
	if (*now_tick <= (int64) back)
		return false;
	*tick = (uint64) *now_tick - back;
	return true;
}

/* uid_backfill_alloc() on the slot's back-fill words, the record taken over first. */
static UidBackfillResult
backfill_alloc(Server *s, const UidClockSpec *spec, uint64 tick, int64 now_tick,
			   uint32 lo, uint32 hi, uint32 *seq)
{
	UidSlot    *slot = gen_slot(s, spec);
	UidBackfillWords w;
	UidBackfillSeen seen = {0};

	w.lanes = &slot->tt.type[UID_SNO_BF_LANE0];
	w.ranges = &slot->tt.type[UID_SNO_BF_RANGES];
	w.used = &s->file.used;
	w.used_since = &s->file.used_since;
	w.from = s->file.from;
	w.kept = &s->file.bf_kept;
	w.until = &s->file.bf_until;
	w.mark0 = &slot->tt.mark[0];
	/* sno_new_at(): the record taken over first (sno_used_read) */
	(void) uid_used_take_over(&s->file.used, &s->file.used_since,
							  uid_word_read(&s->file.lease.fence_us), spec, slot);
	return uid_backfill_alloc(&w, tick, (uint64) now_tick, lo, hi, &seen, seq);
}

/*
 * sno_backfill.c's sno_new_at(): an ID dated at a past tick, from the
 * back-fill range, committed (the file synced first) before it counts as
 * handed out.
 */
void
backfill(Backend *b)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[T_SNO];
	UidBackfillResult res;
	uint32		lo;
	uint32		hi;
	int64		now_tick;
	uint64		tick;
	int			partition;
	CitusIdent	ci = {0};
	uint32		seq;

	if (!backfill_ready(b, s, &partition, &ci))
		return;
	lo = bf_parts[b->bf][0];
	hi = bf_parts[b->bf][1];
	if (!backfill_tick(s, spec, &now_tick, &tick))
		return;
	/* the settings' check: the back-fill range is clear of the live range */
	if (lo <= sno_parts[b->part][1] && hi >= sno_parts[b->part][0])
	{
		sim->bf_refused++;
		return;
	}
	b->type = T_SNO;
	b->in_call = true;
	res = backfill_alloc(s, spec, tick, now_tick, lo, hi, &seq);
	b->in_call = false;
	/* made under the record in force, else given up (the call fails) */
	if (res != UID_BACKFILL_ISSUED || uid_record_current(&s->file.rec) >> 1 != b->rec.gen)
	{
		sim->bf_refused++;
		return;
	}
	settings_check_id(b, s, partition, 0);
	s->bf_spent |= seq_bits(lo, hi);
	/* the transaction's work, then the sync before its commit */
	sim_sleep_us((int64) rng_below(&sim->sched, 1000));
	disk_sync(s);
	trace(b, b->server, "back-fills sno tick %" PRIu64 " seq %u", tick, seq);
	if (seq < 32 && tick > s->bf_last[seq])
		s->bf_last[seq] = tick;
	/* a back-filled sno's tick bit is 0: timeline 0 */
	if (!id_new(b->scope, sim->citus ? ci.key : (uint32) partition, T_SNO, 0, seq, tick))
		fail("unique: server %d back-filled sno tick %" PRIu64 " seq %u of partition %d, "
			 "an ID handed out before", server_index(s), tick, seq,
			 sim->citus ? (int) ci.value : partition);
	sim->backfilled++;
}


void
backend_main(void)
{
	Backend    *b = running;

	for (;;)
	{
		Server	   *s = &sim->servers[b->server];

		/*
		 * a reload signal reaches each backend at its own time, or never (a
		 * busy one); it reads the files as they are when it takes it
		 */
		if (b->sig_pending && !b->busy && rng_below(&sim->sched, 4) == 0)
		{
			b->sig_pending = false;
			b->after = sim_mono_us();
			b->reload_time = -1;
			b->known = s->reloads;
			if (!b->has_opts)
				b->own = s->files;
			trace(b, b->server, "takes a reload: its values partition %d, range %d, bf %d",
				  b->own.partition, b->own.part, b->own.bf);
		}
		/* runs of one type, so that a type's ticks fill and borrowing is asked for */
		if (rng_below(&sim->sched, 8) == 0)
			b->type = (int) rng_below(&sim->sched, NTYPES);
		b->call_step = sim->step;
		if (sim->citus)
			citus_call_begins(b);
		/* back-fill beside live sno (a partition set by hand only) */
		if (b->type == T_SNO && b->bf >= 0 && !sim->leased && rng_below(&sim->sched, 3) == 0)
			backfill(b);
		else
			generate(b, b->type);
		b->citus_call = false;
	}
}
