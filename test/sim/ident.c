/*
 * ident.c
 *		Identities: the lease in WAL and its renewal, the fence, and leased
 *		identities: the conversation with the coordinator and its own failures.
 */
#include "sim.h"

/*
 * lease.c's renewal: the core decides who renews; the renewer logs the lease
 * in WAL and flushes it, syncs the state file, and publishes the lease.  It
 * takes time, during which the backend may die.
 */
void
lease_extend(Backend *b, Server *s, const UidClockSpec *spec, uint64 tick)
{
	uint64		need = uid_tick_lease_us(spec, tick);	/* generate.h */
	uint64		start = (uint64) spec->epoch_us + tick * (uint64) spec->tick_us;

	for (;;)
	{
		switch (uid_lease_renewal(&s->file.lease, need, sim_mono_us()))
		{
			case UID_RENEWAL_COVERED:
				return;
			case UID_RENEWAL_MINE:
				{
					int64		now = sim_unix_us();
					uint64		lease = uid_lease_next((uint64) Max(now, 0), need);

					/*
					 * reach: a lease runs a lease past the clock or past the
					 * start of the tick it is for, no further, so that a
					 * fence moves a type at most a lease and one of its own
					 * ticks, whatever the other types' ticks
					 */
					if (lease > Max((uint64) Max(now, 0), start + 1) + UID_LEASE_US)
						fail("reach: server %d logs a lease to %" PRIu64 " for %s tick %"
							 PRIu64 " starting at %" PRIu64 ", clock %" PRId64
							 ": past a lease from both", s->ident, lease,
							 spec->type_name, tick, start, now);

					sim_sleep_us((int64) rng_below(&sim->sched, 2000));	/* the WAL flush */
					if (lease > s->wal_lease)
						s->wal_lease = lease;
					trace(b, b->server, "lease logged to %" PRIu64, lease);
					sim_sleep_us((int64) rng_below(&sim->sched, 500));	/* the file's write and fsync */
					disk_write(s);
					uid_lease_renewed(&s->file.lease, lease);
					return;
				}
			case UID_RENEWAL_WAIT:
				sim_sleep_us(50);
				break;
		}
	}
}

/* lease.c's uid_gen_prepare: fence the slot once per incarnation. */
UidSlot *
gen_slot(Server *s, const UidClockSpec *spec)
{
	UidSlot    *slot = &s->file.slots[spec->slot];
	if (uid_word_read(&slot->fenced) != s->incarnation)
	{
		uint64		fence;

		if (!uid_fence_known(&s->file.lease, s->incarnation, &fence))
			fence = uid_fence_take(&s->file.lease, s->incarnation, s->wal_lease);
		uid_slot_fence(&s->file.lease, slot, spec, spec->unique, s->incarnation, fence);
	}
	return slot;
}

/* The coordinator's clock: true time. */
static int64
coord_now_us(void)
{
	return true_unix_us();
}

/* The live rows into a copy, and back. */
static void
rows_save(CoordRows *r)
{
	*r = sim->live;
}

static void
rows_load(const CoordRows *r)
{
	sim->live = *r;
}

/*
 * A claim or renewal commits (pool_functions.sql, uid_pool_rule_commit()):
 * at uid_pool_commit_level() of the coordinator's setting.  Flushed, a
 * crash keeps it; waited for by the synchronous standby, a failover does.
 * Otherwise the WAL writer flushes it a little later, and an asynchronous
 * standby receives it later still (coord_step).
 */
static void
coord_commit(void)
{
	UidCommitLevel level = uid_pool_commit_level(sim->coord_commit);

	if (level >= UID_COMMIT_LOCAL)
		rows_save(&sim->rows_flushed);
	if (sim->coord_sync_standby && level >= UID_COMMIT_REMOTE_WRITE)
		rows_save(&sim->rows_standby);
}

/*
 * What uid_pool_prepare() does for a claim or renewal at c, on the
 * coordinator's rows: puts a pool that went back in time on hold, then
 * records where it was written.  True if this call found it gone back.
 */
static bool
coord_prepare(int64 c)
{
	bool		moved = uid_pool_went_back(sim->live.written, sim->live.place == sim->coord_place,
										   sim->live.timeline == sim->coord_timeline,
										   sim->live.synced);

	if (moved)
	{
		sim->live.hold_us = uid_pool_hold_end(c, sim->live.max_ttl_us, LEASE_TTL_US,
											  LEASE_GRACE_US, sim->live.hold_us);
		sim->live.next_token = (uint64) uid_pool_token_floor((int64) sim->live.next_token, c);
		sim->coord_holds++;
		trace(NULL, -1, "coordinator: the pool went back in time, on hold until %" PRId64,
			  sim->live.hold_us);
	}
	sim->live.written = true;
	sim->live.place = sim->coord_place;
	sim->live.timeline = sim->coord_timeline;
	sim->live.synced = sim->coord_sync_standby;
	sim->live.max_ttl_us = Max(sim->live.max_ttl_us, LEASE_TTL_US);
	return moved;
}

/*
 * Each step (leased runs), on r, the step's draw from krng (coord_step,
 * step.h, calls this only when something is due or drawn): the WAL
 * writer's flush every 200 ms (an asynchronous standby receives what it
 * flushed half the time: it lags), a backup every 1 to 3 s, and now and
 * then one of the coordinator's failures: a crash (it restarts from what
 * was flushed), a restore of its last backup into a new cluster, a
 * failover to its standby (a new timeline).
 */
void
coord_events(uint64 r)
{
	int			kind;

	if (sim->t >= sim->coord_flush_at)
	{
		rows_save(&sim->rows_flushed);
		if (!sim->coord_sync_standby && r % 8 == 0)
			rows_save(&sim->rows_standby);
		sim->coord_flush_at = sim->t + 200000;
	}
	if (sim->t >= sim->coord_backup_at)
	{
		rows_save(&sim->rows_backup);
		sim->coord_backup_at = sim->t + 1000000 + (int64) ((r >> 8) % 2000000);
	}
	if (sim->coord_event_at != 0 && sim->t >= sim->coord_event_at)
	{
		/* one due after an id moved between servers (ident_talk) */
		kind = sim->coord_event_kind;
		sim->coord_event_at = 0;
	}
	else if ((r >> 32) % 40000 == 0)
		kind = (int) ((r >> 16) % 3);
	else
		return;
	switch (kind)
	{
		case 0:
			rows_load(&sim->rows_flushed);
			trace(NULL, -1, "coordinator: crash, restarted from its flushed WAL");
			break;
		case 1:
			rows_load(&sim->rows_backup);
			sim->coord_place++;
			trace(NULL, -1, "coordinator: restored from its last backup into cluster %d",
				  sim->coord_place);
			break;
		case 2:
			rows_load(&sim->rows_standby);
			sim->coord_timeline++;
			trace(NULL, -1, "coordinator: failover to its %s standby, timeline %d",
				  sim->coord_sync_standby ? "synchronous" : "asynchronous", sim->coord_timeline);
			break;
	}
	sim->coord_events[kind]++;
	rows_save(&sim->rows_flushed);
	rows_save(&sim->rows_standby);
}

/* A conversation under way, not one that died with its backend long ago. */
static bool
ident_busy(Server *s)
{
	return s->talk_began != 0 && sim->t - s->talk_began < 10 * RETRY_US;
}

/*
 * The coordinator committed and answered with no lease for the server (on
 * hold, or no id free): its answer comes back, the server's lease is then
 * *id_to (NULL: as it was), and it tries again a pace later.
 */
static void
talk_unanswered(Backend *b, Server *s, const char *why, const int *id_to)
{
	coord_commit();
	sim_sleep_us((int64) rng_below(&sim->sched, 20000));
	trace(b, server_index(s), "%s", why);
	if (id_to)
		s->file.ident.id = *id_to;
	s->retry_at = sim->t + RETRY_US;
	s->talk_began = 0;
}

/*
 * The conversation's way to the coordinator: false if the server is cut off
 * from it (the conversation times out, and is tried again later).
 */
static bool
talk_reaches(Backend *b, Server *s)
{
	sim_sleep_us((int64) rng_below(&sim->sched, 20000));	/* the query's way there */
	if (sim->t >= s->cut_until)
		return true;
	/* no answer: the conversation times out */
	sim_sleep_us(100000);
	trace(b, server_index(s), "coordinator unreachable");
	s->retry_at = sim->t + RETRY_US;
	s->talk_began = 0;
	return false;
}

/*
 * A renewal of the lease held, at c: the token alone names the lease, as in
 * uid_pool_renew().  TALK_ANSWERED (*expiry_c: the lease's new expiry),
 * TALK_DONE (on hold: not confirmed, the lease runs on and is retried
 * later), or TALK_CLAIM (handed to another holder: not ours from now on).
 */
enum
{
	TALK_ANSWERED, TALK_DONE, TALK_CLAIM
};

static int
talk_renew(Backend *b, Server *s, int64 c, bool moved, int64 *expiry_c)
{
	PoolEntry  *e = &sim->live.pool[s->file.ident.id];

	if (e->holder >= 0 && e->token == s->file.ident.token &&
		uid_pool_renews(c, e->expiry_us, sim->live.hold_us))
	{
		e->expiry_us = c + LEASE_TTL_US;
		*expiry_c = e->expiry_us;
		return TALK_ANSWERED;
	}
	if (moved || !uid_pool_hands_out(c, sim->live.hold_us))
	{
		/* on hold: not confirmed (null, or 55P03); the lease runs on, retried later */
		sim->coord_held++;
		talk_unanswered(b, s, "renewal not confirmed: the pool is on hold", NULL);
		return TALK_DONE;
	}
	return TALK_CLAIM;
}

/*
 * The id a claim takes at c: a live lease of this server's key (a claim it
 * never heard back from), else a free one (or one expired past its grace);
 * -1: none.
 */
static int
talk_free_id(Server *s, int64 c)
{
	int			id = -1;

	for (int i = 0; i < sim->pool_size && id < 0; i++)
	{
		PoolEntry  *e = &sim->live.pool[i];

		if (e->holder >= 0 &&
			uid_pool_reclaims(e->holder_key == s->key, false, e->expiry_us, c))
		{
			id = i;
			sim->coord_reclaims++;
		}
	}
	for (int i = 0; i < sim->pool_size && id < 0; i++)
	{
		PoolEntry  *e = &sim->live.pool[i];

		if (e->holder < 0 || e->expiry_us + LEASE_GRACE_US <= c)
			id = i;
	}
	return id;
}

/*
 * A claim at c: on hold, nothing is handed out (no row, or 55000); else an
 * id is, to n (*expiry_c: its lease's expiry).  False: no answer with a
 * lease (the conversation is over).
 */
static bool
talk_claim(Backend *b, Server *s, int64 c, bool moved, SimIdent *n, int64 *expiry_c)
{
	int			me = server_index(s);
	PoolEntry  *e;
	int			id;

	if (moved || !uid_pool_hands_out(c, sim->live.hold_us))
	{
		sim->coord_held++;
		talk_unanswered(b, s, "no id handed out: the pool is on hold", &n->id);
		return false;
	}
	id = talk_free_id(s, c);
	if (id < 0)
	{
		talk_unanswered(b, s, "no id free in the pool", &n->id);
		return false;
	}
	e = &sim->live.pool[id];
	if (e->holder >= 0 && e->holder != me)
	{
		sim->moves++;
		/*
		 * Half the time one of the coordinator's failures follows within 2
		 * s: the rare case where the history it may lose holds an id handed
		 * from one server to another.
		 */
		if (sim->coord_event_at == 0 && rng_below(&sim->krng, 2) == 0)
		{
			sim->coord_event_at = sim->t + 1 + (int64) rng_below(&sim->krng, 2000000);
			sim->coord_event_kind = (int) rng_below(&sim->krng, 3);
		}
	}
	e->holder = me;
	e->holder_key = s->key;
	e->token = ++sim->live.next_token;
	e->expiry_us = c + LEASE_TTL_US;
	*expiry_c = e->expiry_us;
	n->id = id;
	n->key = s->key;
	n->token = e->token;
	check_held_once(s, id, c);
	return true;
}

/*
 * The coordinator's answer comes back: its commit, the way back, then the
 * clock's measure and the lease as the state file keeps it, published at
 * once (as under identity.c's seqlock).
 */
static void
talk_answer(Backend *b, Server *s, SimIdent n, bool claim, int64 t0, int64 expiry_c)
{
	SimIdent   *li = &s->file.ident;
	int64		t1;
	UidClockOffset o;

	coord_commit();
	sim_sleep_us((int64) rng_below(&sim->sched, 20000));	/* the answer's way back */
	t1 = sim_unix_us();

	o = uid_window_measure(t0, t1, expiry_c, LEASE_TTL_US, LEASE_GRACE_US);
	if (claim)
		n.floor_us = (uint64) t1;
	else if (li->skewed && !uid_window_skewed(&o))
		n.floor_us = Max(n.floor_us, (uint64) t1);
	n.expiry_us = uid_window_expiry(t0, LEASE_TTL_US);
	n.renew_at_us = (uint64) (t0 + LEASE_TTL_US / 2);
	n.skewed = uid_window_skewed(&o);
	*li = n;
	if (n.skewed)
		s->retry_at = sim->t + RETRY_US;
	trace(b, server_index(s), "%s id %d: floor %" PRIu64 ", expiry %" PRIu64 ", clock off by %"
		  PRId64 "..%" PRId64 " us%s", claim ? "claims" : "renews", n.id, n.floor_us,
		  n.expiry_us, o.lo_us, o.hi_us, n.skewed ? ": skewed" : "");
	s->talk_began = 0;
}

/*
 * One conversation with the coordinator, as identity.c's uid_ident_talk:
 * renew the lease held, or claim an id; the answer measures the clock.  The
 * backend may die at any step of it.
 */
void
ident_talk(Backend *b, Server *s)
{
	SimIdent	n = s->file.ident;
	bool		claim = !(n.id >= 0 && n.key == s->key);
	int64		t0;
	int64		c;
	int64		expiry_c = 0;
	bool		moved;

	s->talk_began = sim->t;
	t0 = sim_unix_us();
	if (!talk_reaches(b, s))
		return;
	c = coord_now_us();
	/* a claim or renewal: a pool that went back in time goes on hold (core/pool.h) */
	moved = coord_prepare(c);
	if (!claim)
	{
		int			r = talk_renew(b, s, c, moved, &expiry_c);

		if (r == TALK_DONE)
			return;
		if (r == TALK_CLAIM)
		{
			/* handed to another holder: not ours from now on; claim another */
			n.id = -1;
			claim = true;
		}
	}
	if (claim && !talk_claim(b, s, c, moved, &n, &expiry_c))
		return;
	talk_answer(b, s, n, claim, t0, expiry_c);
}

/*
 * identity.c's uid_ident_check on an allocated tick: issue it under the
 * lease (*id, *used), or raise the marks to the floor, or talk to the
 * coordinator first; refuse when no usable lease can be had.
 */
LeaseStep
ident_cover(Backend *b, Server *s, UidSlot *slot, const UidClockSpec *spec, uint64 tick,
			int *talks, int *id, SimIdent *used)
{
	SimIdent	li = s->file.ident;
	bool		usable = li.id >= 0 && li.key == s->key && !li.skewed;

	switch (uid_window_check(spec, tick, usable, li.floor_us, li.expiry_us, li.renew_at_us))
	{
		case UID_WINDOW_ISSUE:
			break;
		case UID_WINDOW_RENEW:
			if (!ident_busy(s) && sim->t >= s->retry_at)
			{
				ident_talk(b, s);
				return LEASE_AGAIN;
			}
			break;
		case UID_WINDOW_RAISE:
			{
				uint64		to = uid_window_raise_to(spec, li.floor_us);
				uint64		epoch = (uint64) spec->epoch_us;

				/*
				 * raise: the marks go to the last tick that starts before
				 * the floor and no further (uid_fence_marks marks every tick
				 * that starts before its fence), so the first ID after a
				 * claim is not dated a tick later than the floor allows
				 */
				if (to > epoch && li.floor_us > epoch &&
					(to - 1 - epoch) / (uint64) spec->tick_us >
					(li.floor_us - 1 - epoch) / (uint64) spec->tick_us)
					fail("raise: server %d raises %s past the floor %" PRIu64
						 " to %" PRIu64 ": a tick later than the floor's",
						 s->ident, spec->type_name, li.floor_us, to);
				uid_fence_marks(slot, spec, spec->unique, to);
			}
			return LEASE_AGAIN;
		case UID_WINDOW_ACQUIRE:
			if (*talks > 0 || (sim->t < s->retry_at && !ident_busy(s)))
				return LEASE_REFUSED;
			if (ident_busy(s))
				sim_sleep_us(10000);
			else
			{
				ident_talk(b, s);
				(*talks)++;
			}
			return LEASE_AGAIN;
	}
	*id = li.id;
	*used = li;
	return LEASE_ISSUE;
}

/*
 * A run's coordinator (leased runs): its pool empty, its synchronous_commit
 * and standby drawn apart from the other draws (no other schedule moves),
 * the guard's row of the install written before any claim, and copied.
 */
void
coord_setup(uint64 seed)
{
	for (int i = 0; i < POOL_MAX; i++)
		sim->live.pool[i].holder = -1;
	/* the coordinator's own failures, drawn apart again */
	sim->krng.s = uid_mix64(seed ^ UINT64CONST(0xC00D1A7012A11));
	sim->coord_commit = (UidCommitLevel) rng_below(&sim->krng, UID_COMMIT_REMOTE_APPLY + 1);
	sim->coord_sync_standby = rng_below(&sim->krng, 2) == 0;
	sim->live.hold_us = INT64_MIN;
	/* the guard's row of the install: written here, before any claim */
	sim->live.written = true;
	sim->live.synced = sim->coord_sync_standby;
	rows_save(&sim->rows_flushed);
	rows_save(&sim->rows_standby);
	rows_save(&sim->rows_backup);
}
