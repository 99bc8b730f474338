/*
 * generate.c
 *		A backend's calls: generate (live IDs) and back-fill (sno).
 */
#include "sim.h"

/* generate.c's uid_next_tick_in / uid_unique_tick, then the checks. */
static void
generate(Backend *b, int type)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[type];
	UidSlot    *slot;
	UidTickSeq	ts = {0};
	UidAllocResult r;
	int			ident = -1;
	SimIdent	used = {0};
	CitusIdent	ci = {0};
	uint64		start;
	uint64		key;
	uint32		bf_hull = UID_RANGE_NONE;	/* sno: the back-fill ranges used, */
	uint32		bf_cur = UID_RANGE_NONE;	/* and the one in use, as issued under */

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
again:
	if (!settings_ready(b, s))
	{
		b->in_call = false;
		b->par_pid = 0;
		return;
	}
	ident = settings_take(b);
	if (settings_refuse_partition(b))
	{
		b->in_call = false;
		b->par_pid = 0;
		return;
	}
	slot = gen_slot(s, spec);
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

		bf_hull = (uint32) bfw;
		bf_cur = (uint32) (bfw >> 32);
		if (!uid_live_clear_of_backfill(bfw, kept, &lo, &hi))
		{
			/* sno_new() raises an error: its range is all back-fill's */
			sim->live_refused++;
			b->in_call = false;
			b->par_pid = 0;
			return;
		}
		for (int talks = 0;;)
		{
			LeaseStep	st;

			if (spec->unique)
				r = uid_alloc_unique(slot, spec, &ts.tick);
			else
				r = uid_alloc_tick(slot, spec, &b->cur[type], lo, hi, &ts);
			if (r != UID_ALLOC_ISSUED)
			{
				fail("%s: out of time at tick %" PRIu64, spec->type_name, ts.tick);
				return;
			}
			if (!sim->leased)
				break;
			st = ident_cover(b, s, slot, spec, ts.tick, &talks, &ident, &used);
			if (st == LEASE_ISSUE)
				break;
			if (st == LEASE_REFUSED)
			{
				/* the generator raises an error: no ID */
				sim->refused++;
				b->in_call = false;
				b->par_pid = 0;
				return;
			}
		}
		if (uid_lease_short(&s->file.lease, spec, ts.tick))
			lease_extend(b, s, spec, ts.tick);
		if (type != T_SNO)
			break;
		/* recorded, then issued only under the back-fill ranges it was made in */
		{
			UidUsedFrom uf = {s->file.from, &slot->tt.mark[0], ts.tick, ts.timeline};

			/* sno_used_widen: the record taken over first (sno_used_read) */
			if (!uid_used_covers(b->used_copy, ts.seq))
				(void) uid_used_take_over(&s->file.used, &s->file.used_since,
										  uid_word_read(&s->file.lease.fence_us), spec, slot);
			uid_used_note(&s->file.used, &b->used_copy, ts.seq, lo, hi, sim->used_block,
						  sync_running, &uf);
		}
		if (uid_word_read(&slot->tt.type[UID_SNO_BF_RANGES]) == bfw)
			break;
	}
	/* Citus runs: the identity the type embeds, or an error (the generator's) */
	if (sim->citus && !citus_ident(b, s, type, ident, &ci))
	{
		citus_refusal(b, s, spec, &ci);
		b->in_call = false;
		b->par_pid = 0;
		return;
	}
	/* issued only under the record it was made under, else made again */
	if (uid_record_current(&s->file.rec) >> 1 != b->rec.gen)
	{
		trace(b, b->server, "%s tick %" PRIu64 " made under record gen %" PRIu64
			  ", no longer in force: again", spec->type_name, ts.tick, b->rec.gen);
		goto again;
	}

	/* handed out */
	b->in_call = false;
	b->par_pid = 0;
	settings_check_id(b, s, sim->citus ? citus_hand(&ci) : ident, uid_tick_end_us(spec, ts.tick));
	/*
	 * from: a live sno of timeline 0 goes out only once the state file says
	 * its sequence's part was used from its tick or earlier (back-fill
	 * dated before that is let through the record of live sequences)
	 */
	if (type == T_SNO && ts.timeline == 0 &&
		s->file.from[ts.seq >> UID_FROM_SHIFT].value > ts.tick + 1)
		fail("from: server %d handed out sno tick %" PRIu64 " seq %u while its part "
			 "was used from %" PRIu64 " only", s->ident, ts.tick, ts.seq,
			 s->file.from[ts.seq >> UID_FROM_SHIFT].value - 1);
	/*
	 * after: a live sno of timeline 0 is dated after every sno back-filled
	 * on its server with its sequence (an equal one would be the same ID)
	 */
	if (type == T_SNO && ts.timeline == 0 && ts.seq < 32 && ts.tick <= s->bf_last[ts.seq])
		fail("after: server %d handed out sno tick %" PRIu64 " seq %u timeline 0, and "
			 "back-filled that sequence at tick %" PRIu64, server_index(s), ts.tick, ts.seq,
			 s->bf_last[ts.seq]);
	if (type == T_SNO)
		check_after(s);
	/* a live sno in a back-fill range used before the one in use */
	if (type == T_SNO && ts.timeline == 0 &&
		uid_range_meets(bf_hull, uid_range_enc(ts.seq, ts.seq)) &&
		!uid_range_meets(bf_cur, uid_range_enc(ts.seq, ts.seq)))
		sim->live_in_old_bf++;
	sim->leased_ids += sim->leased;
	if (sim->citus)
	{
		trace(b, b->server, "%s tick %" PRIu64 " seq %u tl %d %s %" PRId64 " (%s)",
			  spec->type_name, ts.tick, ts.seq, ts.timeline,
			  ci.source == UID_ID_HAND ? "hand" : ci.source == UID_ID_LEASE ? "lease" : "group",
			  ci.value, b->scope ? "its own database" : "into the cluster");
		sim->citus_group_ids += b->scope == 0 && ci.source == UID_ID_CITUS;
		sim->citus_leased_ids += b->scope == 0 && ci.source == UID_ID_LEASE;
		sim->citus_local_ids += b->scope != 0;
		sim->default_ids += ci.source == UID_ID_DEFAULT;
		if (ci.source == UID_ID_DEFAULT && b->scope == 0)
			fail("meet: server %d handed out %s tick %" PRIu64 " seq %u of the default "
				 "identity where IDs of other servers meet (its database subscribed)",
				 s->ident, spec->type_name, ts.tick, ts.seq);
		if (!id_new(b->scope, ci.key, type, ts.timeline, ts.seq, ts.tick))
			fail("unique: server %d handed out %s tick %" PRIu64 " seq %u timeline %d of "
				 "%s %" PRId64 " (fields %u) twice%s", s->ident, spec->type_name, ts.tick,
				 ts.seq, ts.timeline, ci.source == UID_ID_HAND ? "hand value" :
				 ci.source == UID_ID_LEASE ? "lease id" : "node group",
				 ci.value, ci.key, b->scope ? " in its own database" : "");
	}
	else
	{
		trace(b, b->server, "%s tick %" PRIu64 " seq %u tl %d id %d", spec->type_name, ts.tick,
			  ts.seq, ts.timeline, ident);
		if (!id_new(0, (uint32) ident, type, ts.timeline, ts.seq, ts.tick))
			fail("unique: server %d handed out %s tick %" PRIu64 " seq %u timeline %d "
				 "of identity %d twice", s->ident, spec->type_name, ts.tick, ts.seq,
				 ts.timeline, ident);
	}
	if (sim->leased &&
		(uid_tick_end_us(spec, ts.tick) > used.expiry_us ||
		 uid_tick_end_us(spec, ts.tick) - (uint64) spec->tick_us < used.floor_us))
		fail("window: server %d handed out %s tick %" PRIu64 " of id %d outside its "
			 "lease's window %" PRIu64 "..%" PRIu64, s->ident, spec->type_name, ts.tick,
			 ident, used.floor_us, used.expiry_us);
	start = (uint64) spec->epoch_us + ts.tick * (uint64) spec->tick_us;
	if (start >= s->wal_lease)
		fail("lease: server %d handed out %s tick %" PRIu64 " starting at %" PRIu64
			 ", not before the lease in WAL, %" PRIu64,
			 s->ident, spec->type_name, ts.tick, start, s->wal_lease);
	key = order_key(spec, &ts);
	if (spec->seq_runs_on ? key < b->floor[ts.timeline] : key <= b->floor[ts.timeline])
		fail("order: server %d: %s tick %" PRIu64 " seq %u timeline %d is not after "
			 "tick %" PRIu64 " seq %u, completed before the call began",
			 s->ident, spec->type_name, ts.tick, ts.seq, ts.timeline,
			 b->floor[ts.timeline] >> (spec->unique ? 0 : UID_SEQ_BITS),
			 (uint32) (spec->unique ? 0 : b->floor[ts.timeline] & UID_SEQ_MASK));
	if (key > sim->done_max[b->server][type][ts.timeline])
		sim->done_max[b->server][type][ts.timeline] = key;
	if (!spec->ticktock && !spec->unique)
		check_pace(b, s, type, ts.tick);
	if (type == T_SNO)
		s->live_ticks[s->nlive_ticks++ % 64] = ts.tick;
}

/*
 * sno_backfill.c's sno_new_at(): an ID dated at a past tick, from the
 * back-fill range, committed (the file synced first) before it counts as
 * handed out.
 */
static void
backfill(Backend *b)
{
	Server	   *s = &sim->servers[b->server];
	const UidClockSpec *spec = &specs[T_SNO];
	UidSlot    *slot;
	UidBackfillWords w;
	UidBackfillSeen seen = {0};
	UidBackfillResult res;
	uint32		lo;
	uint32		hi;
	uint32		llo;
	uint32		lhi;
	int64		now_tick;
	uint64		back;
	uint64		tick;
	int			partition;
	CitusIdent	ci = {0};

	/* the call begins here: its settings are read first */
	b->call_t = sim->t;
	if (!settings_ready(b, s))
		return;
	partition = settings_take(b);
	if (settings_refuse_partition(b))
		return;
	/* Citus runs: sno's partition set by hand (-1: a node group, never another's) */
	if (sim->citus)
	{
		if (!citus_ident(b, s, T_SNO, -1, &ci))
		{
			citus_refusal(b, s, &specs[T_SNO], &ci);
			return;
		}
		partition = citus_hand(&ci);
	}
	/*
	 * the settings' check: back-fill is on; not under a partition another
	 * server used (its past ticks are the other server's)
	 */
	if (b->bf < 0 || (partition >= 0 && partition < NPARTITIONS &&
					  (sim->inherited[partition] & (1 << server_index(s)))))
		return;
	lo = bf_parts[b->bf][0];
	hi = bf_parts[b->bf][1];
	llo = sno_parts[b->part][0];
	lhi = sno_parts[b->part][1];
	now_tick = (server_unix_us(s) - spec->epoch_us) / spec->tick_us;
	back = rng_below(&sim->sched, 4) == 0 ? rng_below(&sim->sched, 3000) :
		rng_below(&sim->sched, 40);

	/* half the time at the tick of a recent live ID, where a mistake would show */
	if (s->nlive_ticks > 0 && rng_below(&sim->sched, 2) == 0)
	{
		uint64		at = s->live_ticks[rng_below(&sim->sched, (uint64) Min(s->nlive_ticks, 64))];

		back = now_tick > (int64) at ? (uint64) now_tick - at : 0;
	}
	uint32		seq;

	if (now_tick <= (int64) back)
		return;
	tick = (uint64) now_tick - back;
	/* the settings' check: the back-fill range is clear of the live range */
	if (lo <= lhi && hi >= llo)
	{
		sim->bf_refused++;
		return;
	}
	b->type = T_SNO;
	b->in_call = true;
	slot = gen_slot(s, spec);
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
	res = uid_backfill_alloc(&w, tick, (uint64) now_tick, lo, hi, &seen, &seq);
	b->in_call = false;
	if (res != UID_BACKFILL_ISSUED)
	{
		sim->bf_refused++;
		return;
	}
	/* made under the record in force, else given up (the call fails) */
	if (uid_record_current(&s->file.rec) >> 1 != b->rec.gen)
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
