/*
 * checks.c
 *		The invariants: the checks made at every step and at every hand-out.
 *
 * After every step, and at each ID handed out, the simulator checks:
 *
 *   unique     no two IDs handed out are equal, across every server, crash
 *              and failover (Citus: the coordinator's, the workers' in the
 *              cluster and the servers' outside it, as their formats hold
 *              them; a worker's outside the cluster, in its own database)
 *   order      a call returns an ID after every ID that calls completed
 *              before it began (per timeline for sno; uid60's run-on
 *              sequence: its tick)
 *   lease      the tick of every ID handed out starts before the lease its
 *              server's WAL holds
 *   reach      a lease logged runs at most UID_LEASE_US past the later of
 *              the clock and the start of the tick it is for: a fence then
 *              moves each type at most a lease and one of its own ticks
 *   raise      a raise to a lease's floor moves the marks to the last tick
 *              that starts before the floor, no further
 *   pace       a single-timeline type borrows at the pace of real time: of
 *              the IDs that move its highest tick past both the last one
 *              and the server's clock, at most 4 + backends + 1 are handed
 *              out in any 4 ticks of real time
 *   window     (leased) every ID lies in the window of the lease it embeds
 *   live       no call lasts longer than LIVE_LIMIT_US of simulated time
 *   meet       (Citus) no ID of a default identity goes where other servers'
 *              IDs meet: a server's whose database subscribed, once the
 *              process took the subscription's invalidation
 *   provenance every ID carries the values of the settings record
 *              (core/record.c) in force at its hand-out, as its publisher
 *              proposed it, of this server life, and every record that comes
 *              in force holds values the postmaster held in this life (for
 *              a value it held refused: the value of the record replaced,
 *              if that was of this life, else the refusal, on which every
 *              call refuses)
 *   from       a live sno of timeline 0 goes out only once the state file
 *              says its sequence's part was used from its tick or earlier
 *   after      a live sno of timeline 0 goes out only dated after every
 *              sno back-filled on its server (since a failover made it)
 *              with its sequence; and whenever one goes out, every sequence
 *              back-filled there that sno_new() may take again (a back-fill
 *              range used before, no longer kept clear of) has the
 *              timeline-0 mark at or past every ID back-filled with it
 *   fresh      within a server life, a record of the postmaster's values
 *              never replaces one of a later reload of the postmaster, and
 *              a session's plan uses none older than the reload it knows
 *              of (forked after it, or took it)
 *   once       a settings worker's record replaces one of this server life
 *              only if it answers a later request
 *   torn       the body in force, whenever whole, holds what it held when it
 *              came in force
 *   available  no call is refused for want of a record while one of this
 *              server life is in force, unless a reload it received is not
 *              in it and no worker could publish one (no slot; a worker
 *              stalled, died or found the writer word held; another reload
 *              overtook them), nor (Citus) for an empty pg_dist_local_group
 *              if it began once the table was filled
 *   live-writer a publication is refused as busy only for a writer word
 *              that names a living process of this server life
 *   stale-live a settings worker is refused as stale only if the postmaster
 *              reloaded since its fork, or at or after its request
 *   held-once  (leased) a claim leaves a server's key one live lease in the
 *              pool: not one more per claim it never heard back from
 *   handover   a hand-set partition is issued only by a server that may:
 *              not by a after its record showed the new one, not by b before
 *              its reload
 *   bound      no call that begins after the reload that gave a partition up
 *              hands it out, whether its process took that reload or not
 *              (issue 49: the bound is the call under way at the reload)
 */
#include "sim.h"

#define SIM_TYPE_NAME(ID, name, ...) [T_##ID] = #name,
static const char *type_names[NTYPES] = {UID_TYPES(SIM_TYPE_NAME)};

/*
 * The pace: an ID whose tick is past the highest one handed out and past the
 * server's clock moved the mark by borrowing (or right after a fence).  The
 * core lets one backend borrow a tick per tick of monotonic (here, real)
 * time; backends that took the right before being descheduled may hand
 * theirs out together, hence the slack.
 */
static void
check_pace(Backend *b, Server *s, int type, uint64 tick)
{
	const UidClockSpec *spec = &specs[type];
	int64		clock_tick = (server_unix_us(s) - spec->epoch_us) / spec->tick_us;
	int64		window = PACE_WINDOW * spec->tick_us;
	int			limit = PACE_WINDOW + sim->nbackends + 1;
	int			n = 0;

	if (tick <= s->max_tick[type])
		return;
	s->max_tick[type] = tick;
	if ((int64) tick <= clock_tick)
		return;
	s->borrows[type][s->nborrows[type]++ % PACE_RING] = sim->t;
	for (int i = 0; i < PACE_RING && i < s->nborrows[type]; i++)
		n += s->borrows[type][i] > sim->t - window;
	if (n > limit)
		fail("pace: server %d handed out %d %s IDs that borrowed a tick within %d ticks "
			 "of real time (at most %d)", s->ident, n, spec->type_name, PACE_WINDOW, limit);
}

/*
 * Were these record values ones the server's postmaster held this life?  A
 * partition it held refused is, in a record, the partition of the record
 * it replaced (before, NULL: none of this life), with that record's
 * refusal: a refused value keeps the one in force, as the postmaster keeps
 * a setting's value when a reload gives it an invalid one; only with no
 * record of this life is the refusal published.
 */
static bool
values_seen(Server *s, const int64 *values, const UidRecord *before)
{
	const uint64 bit = UINT64CONST(1) << UID_REC_PARTITION;

	for (int i = 0; i < Min(s->nseen, NSEEN); i++)
	{
		int64		v[UID_REC_NFIELDS];

		settings_values(&s->seen[i], v);
		if (s->seen[i].refused && before != NULL)
		{
			v[UID_REC_PARTITION] = before->values[UID_REC_PARTITION];
			v[UID_REC_REFUSED] = (int64) (((uint64) v[UID_REC_REFUSED] & ~bit) |
										  ((uint64) before->values[UID_REC_REFUSED] & bit));
		}
		if (memcmp(v, values, sizeof(v)) == 0)
			return true;
	}
	return false;
}

/*
 * fresh: within a server life, the record in force never goes back to
 * values of an earlier reload of the postmaster than it held.  once: a
 * worker's record replaces one of this server life only if it answers a
 * later request; a second answer to one request would make every reader's
 * copy stale for nothing.
 */
static void
check_fresh_once(Server *s, Backend *p, uint64 cur, bool had, const UidRecord *before)
{
	if (s->shadow_known && s->shadow.life == p->prop.life &&
		(s->shadow.source == UID_SOURCE_POSTMASTER || s->shadow.source == UID_SOURCE_INHERITED) &&
		(p->prop.source == UID_SOURCE_POSTMASTER || p->prop.source == UID_SOURCE_INHERITED) &&
		p->prop_reloads < s->shadow_reloads)
		fail("fresh: server %d's record gen %" PRIu64 " holds the postmaster's values of "
			 "its reload %" PRIu64 ", after a record of its reload %" PRIu64,
			 server_index(s), cur >> 1, p->prop_reloads, s->shadow_reloads);
	if (had && before->source == UID_SOURCE_POSTMASTER &&
		p->prop.source == UID_SOURCE_POSTMASTER && p->prop.life == s->life &&
		p->prop.requested <= before->requested)
		fail("once: server %d's record gen %" PRIu64 " answers the request of %" PRId64
			 " us, no later than the record it replaced (%" PRId64 " us)",
			 server_index(s), cur >> 1, p->prop.requested, before->requested);
}

/*
 * torn: the record that came in force is its publisher's, whole; provenance:
 * of this server life, with values its postmaster held in it.
 */
static void
check_torn_provenance(Server *s, Backend *p, uint64 cur, const UidRecordBody *body,
					  const UidRecord *before)
{
	if (p->prop.gen != cur >> 1 || body->seq.value != 2 * (cur >> 1))
		fail("torn: server %d's record gen %" PRIu64 " came in force from a body "
			 "not whole (seq %" PRIu64 ") or not its publisher's (gen %" PRIu64 ")",
			 server_index(s), cur >> 1, body->seq.value, p->prop.gen);
	for (int i = 0; i < UID_REC_NFIELDS; i++)
		if (s->shadow_words[UID_REC_HEAD_WORDS + i] != (uint64) p->prop.values[i])
			fail("torn: server %d's record gen %" PRIu64 " holds other values than "
				 "its publisher proposed", server_index(s), cur >> 1);
	if (p->prop.life != s->life || !values_seen(s, p->prop.values, before))
		fail("provenance: server %d's record gen %" PRIu64 " holds partition %d, "
			 "sno range %d, back-fill %d (source %d, from %s): values its "
			 "postmaster never held in this server life", server_index(s), cur >> 1,
			 (int) p->prop.values[UID_REC_PARTITION],
			 (int) (p->prop.values[UID_REC_SNO_RANGES] & 0xff),
			 (int) (p->prop.values[UID_REC_SNO_RANGES] >> 8) - 1,
			 (int) p->prop.source, p->kind == K_WORKER ? "a settings worker" :
			 p->par_pid ? "a parallel worker" : "a session");
}

/*
 * A record came in force in a step of process p: it must be p's proposal
 * (the checks above); the checks' copy of the record in force follows it.
 * (check_step, step.h, inline in the scheduler's loop, calls it only then,
 * and the torn check below only while p publishes.)
 */
void
record_in_force(Server *s, Backend *p, uint64 cur)
{
	UidRecordBody *body = &s->file.rec.body[cur & 1];
	UidRecord	before = s->shadow;
	bool		had = s->shadow_known && s->shadow_cur != 0 && s->shadow.life == s->life;

	if (!p->publishing)
	{
		fail("record: server %d's record changed (gen %" PRIu64 ") in a step of a "
			 "process that does not publish", server_index(s), cur >> 1);
		return;
	}
	check_fresh_once(s, p, cur, had, &before);
	s->shadow_reloads = p->prop_reloads;
	sim->kept += p->prop.kept;
	s->shadow_cur = cur;
	s->shadow = p->prop;
	s->shadow_known = true;
	for (int i = 0; i < UID_REC_WORDS; i++)
		s->shadow_words[i] = body->word[i].value;
	sim->published++;
	trace(p, p->server, "publishes gen %" PRIu64 ": partition %d, range %d, bf %d "
		  "(source %d, requested %" PRId64 ")", cur >> 1,
		  (int) p->prop.values[UID_REC_PARTITION],
		  (int) (p->prop.values[UID_REC_SNO_RANGES] & 0xff),
		  (int) (p->prop.values[UID_REC_SNO_RANGES] >> 8) - 1, (int) p->prop.source,
		  p->prop.requested);
	check_torn_provenance(s, p, cur, body, had ? &before : NULL);
	if (p->prop.life == s->life)
	{
		if (s->life_since < 0)
			s->life_since = (int64) sim->step;
	}
	else
		s->life_since = -1;
}

/* torn: the body in force, whole, holds what it held when it came in force. */
void
check_torn_in_force(Server *s, Backend *p, uint64 cur)
{
	UidRecordBody *body = &s->file.rec.body[cur & 1];

	if (body->seq.value == 2 * (cur >> 1))
		for (int i = 0; i < UID_REC_WORDS; i++)
			if (body->word[i].value != s->shadow_words[i])
			{
				fail("torn: server %d's record in force (gen %" PRIu64 ") was written "
					 "over by process %u: word %d is %" PRIu64 ", published %" PRIu64,
					 server_index(s), cur >> 1, p->pid, i, body->word[i].value,
					 s->shadow_words[i]);
				break;
			}
}

/* The record in force comes from a file a crash or failover brought back. */
void
record_forget(Server *s)
{
	UidRecordShared *r = &s->file.rec;
	uint64		cur = r->current.value;

	s->shadow_cur = cur;
	s->shadow_known = false;
	memset(&s->shadow, 0, sizeof(s->shadow));
	s->shadow.gen = cur >> 1;
	for (int i = 0; i < UID_REC_WORDS; i++)
		s->shadow_words[i] = cur ? r->body[cur & 1].word[i].value : 0;
	s->life_since = -1;
}

/*
 * live-writer: a proposal gives way (UID_PUB_BUSY) only to a writer that
 * lives, of this server life.  No step is taken between the claim's look
 * at the writer word and its answer, nor from there to here: the word is
 * what the claim saw.  A writer word kept for a dead process would make
 * every later publication of the life wait for nothing (issue 54).
 */
void
check_busy(Server *s, uint32 pid)
{
	uint64		wr = s->file.rec.writer.value;
	uint64		self = uid_record_self(s->life, pid);

	if (wr == 0 || wr == self || (wr >> 32) != (self >> 32) || !sim_alive((uint32) wr))
		fail("live-writer: server %d's process %u was told the record is busy, but the writer "
			 "word %#" PRIx64 " names %s", s->ident, pid, wr,
			 wr == 0 ? "no process" : wr == self ? "itself" :
			 (wr >> 32) != (self >> 32) ? "a process of an earlier server life" :
			 "a process that no longer lives");
}

/*
 * stale-live: a settings worker's proposal is refused as stale only if the
 * postmaster reloaded since the worker's fork, or at or after the request
 * it answers (its requester, which took that signal, asks again).  One
 * forked after the last reload, for a request made after it, holds the
 * server's values: refused, it would leave the reload unpublished and its
 * requester refusing calls (issue 54).
 */
void
check_stale(Server *s, Backend *w)
{
	if (s->reloads != w->prop_reloads || s->reload_mono >= w->prop.requested)
		return;
	fail("stale-live: server %d's settings worker %u, forked after the postmaster's last "
		 "reload (at %" PRId64 " us) for a request made after it (%" PRId64 " us), was "
		 "refused as stale", server_index(s), w->pid, s->reload_mono, w->prop.requested);
}

/*
 * provenance, at the hand-out: the ID carries the record in force, as its
 * publisher proposed it, of this server life; a hand-set partition is one
 * this server may issue (handover).
 */
void
settings_check_id(Backend *b, Server *s, int partition, uint64 end_us)
{
	if (!s->shadow_known || b->rec.gen != s->shadow.gen || b->rec.life != s->life ||
		b->rec.source != s->shadow.source || b->rec.requested != s->shadow.requested ||
		memcmp(b->rec.values, s->shadow.values, sizeof(b->rec.values)) != 0)
	{
		fail("provenance: server %d handed out an ID of partition %d under a record "
			 "(gen %" PRIu64 ", life %" PRIu64 ") that is not the one published in force "
			 "(gen %" PRIu64 "%s)", server_index(s), partition, b->rec.gen, b->rec.life,
			 s->shadow.gen, s->shadow_known ? "" : ", of an earlier life");
		return;
	}
	/* a lease id, or (-1 in Citus runs) a node group: no hand value */
	if (sim->leased || (sim->citus && partition < 0))
		return;
	/*
	 * bound: a reload gives an identity up for every call that begins after
	 * it, whether or not the process took the reload, and whether or not a
	 * settings worker could publish it
	 */
	if (sim->ho_phase != 0 && server_index(s) == sim->ho_a && partition == sim->ho_old &&
		b->call_t > sim->ho_reload_t)
	{
		fail("bound: server %d handed out an ID of partition %d in a call begun %" PRId64
			 " us after the reload that gave it up (backend b%d%s, record gen %" PRIu64
			 " requested %" PRId64 ", signal %s at %" PRId64 ")", server_index(s), partition,
			 b->call_t - sim->ho_reload_t, b->num, b->par_pid ? ", a parallel worker" : "",
			 b->rec.gen, b->rec.requested, b->sig_pending ? "pending" : "taken", b->sig_at);
		return;
	}
	if (partition < 0 || partition >= NPARTITIONS ||
		!(sim->owners[partition] & (1 << server_index(s))))
	{
		fail("handover: server %d handed out an ID of partition %d, which it may not "
			 "issue now", server_index(s), partition);
		return;
	}
	if (end_us > sim->part_last_end[partition])
		sim->part_last_end[partition] = end_us;
}

/* The order key of a pair: what later calls must exceed. */
static uint64
order_key(const UidClockSpec *spec, const UidTickSeq *ts)
{
	if (spec->unique)
		return ts->tick;
	if (spec->seq_runs_on)
		return ts->tick << UID_SEQ_BITS;	/* the run-on sequence does not sort */
	return ts->tick << UID_SEQ_BITS | ts->seq;
}

/*
 * after: every sequence back-filled on server s that sno_new() may take
 * again (in a back-fill range used before, and in none it keeps clear of)
 * has the timeline-0 mark at or past every ID back-filled with it, its tick
 * used up: no live sno of timeline 0 made from now on can equal one.
 */
static void
check_after(Server *s)
{
	UidSlot    *slot = &s->file.slots[specs[T_SNO].slot];
	uint64		ranges = slot->tt.type[UID_SNO_BF_RANGES].value;
	uint64		mark0 = slot->tt.mark[0].value;
	uint32		n[UID_KEPT_CLEAR];

	/* read as a check does, outside the schedule */
	if (ranges == 0)
		return;
	uid_live_kept_clear(ranges, s->file.bf_kept.value, n);
	for (uint32 q = 0; q < 32; q++)
	{
		uint32		one = uid_range_enc(q, q);

		if (s->bf_last[q] == 0 || !uid_range_meets((uint32) ranges, one) ||
			uid_range_meets(n[0], one) || uid_range_meets(n[1], one) ||
			uid_range_meets(n[2], one))
			continue;
		if (mark0 < (s->bf_last[q] << UID_SEQ_BITS | UID_SNO_SEQ_LAST))
			fail("after: server %d may issue sequence %u live again, back-filled at tick %"
				 PRIu64 ", while its timeline-0 mark is at tick %" PRIu64 " seq %u",
				 server_index(s), q, s->bf_last[q], mark0 >> UID_SEQ_BITS,
				 (uint32) (mark0 & UID_SEQ_MASK));
	}
}

/* live: a call lasted too long (check_step, step.h). */
void
check_live_fail(Backend *p)
{
	fail("live: a %s call on server %d has lasted %" PRId64 " us",
		 type_names[p->type], p->server, sim->t - p->call_t);
}

/*
 * from, after: a live sno of timeline 0 goes out only once the state file
 * says its sequence's part was used from its tick or earlier, and dated
 * after every sno back-filled on its server with its sequence.
 */
static void
check_sno_handout(Server *s, const MadeId *m)
{
	const UidTickSeq *ts = &m->ts;

	/*
	 * from: back-fill dated before the part was used is let through the
	 * record of live sequences
	 */
	if (ts->timeline == 0 && s->file.from[ts->seq >> UID_FROM_SHIFT].value > ts->tick + 1)
		fail("from: server %d handed out sno tick %" PRIu64 " seq %u while its part "
			 "was used from %" PRIu64 " only", s->ident, ts->tick, ts->seq,
			 s->file.from[ts->seq >> UID_FROM_SHIFT].value - 1);
	/* after: an equal one would be the same ID */
	if (ts->timeline == 0 && ts->seq < 32 && ts->tick <= s->bf_last[ts->seq])
		fail("after: server %d handed out sno tick %" PRIu64 " seq %u timeline 0, and "
			 "back-filled that sequence at tick %" PRIu64, server_index(s), ts->tick, ts->seq,
			 s->bf_last[ts->seq]);
	check_after(s);
	/* a live sno in a back-fill range used before the one in use */
	if (ts->timeline == 0 &&
		uid_range_meets(m->bf_hull, uid_range_enc(ts->seq, ts->seq)) &&
		!uid_range_meets(m->bf_cur, uid_range_enc(ts->seq, ts->seq)))
		sim->live_in_old_bf++;
}

/*
 * unique (Citus runs): the ID as its format holds the identity, where it
 * goes; meet: not of a default identity where other servers' IDs meet.
 */
static void
check_citus_unique(Backend *b, Server *s, const UidClockSpec *spec, const MadeId *m)
{
	const UidTickSeq *ts = &m->ts;
	const CitusIdent *ci = &m->ci;

	trace(b, b->server, "%s tick %" PRIu64 " seq %u tl %d %s %" PRId64 " (%s)",
		  spec->type_name, ts->tick, ts->seq, ts->timeline,
		  ci->source == UID_ID_HAND ? "hand" : ci->source == UID_ID_LEASE ? "lease" : "group",
		  ci->value, b->scope ? "its own database" : "into the cluster");
	sim->citus_group_ids += b->scope == 0 && ci->source == UID_ID_CITUS;
	sim->citus_leased_ids += b->scope == 0 && ci->source == UID_ID_LEASE;
	sim->citus_local_ids += b->scope != 0;
	sim->default_ids += ci->source == UID_ID_DEFAULT;
	if (ci->source == UID_ID_DEFAULT && b->scope == 0)
		fail("meet: server %d handed out %s tick %" PRIu64 " seq %u of the default "
			 "identity where IDs of other servers meet (its database subscribed)",
			 s->ident, spec->type_name, ts->tick, ts->seq);
	if (!id_new(b->scope, ci->key, m->type, ts->timeline, ts->seq, ts->tick))
		fail("unique: server %d handed out %s tick %" PRIu64 " seq %u timeline %d of "
			 "%s %" PRId64 " (fields %u) twice%s", s->ident, spec->type_name, ts->tick,
			 ts->seq, ts->timeline, ci->source == UID_ID_HAND ? "hand value" :
			 ci->source == UID_ID_LEASE ? "lease id" : "node group",
			 ci->value, ci->key, b->scope ? " in its own database" : "");
}

/*
 * unique, window, lease: the ID never handed out before; (leased) in the
 * window of the lease it embeds; its tick starts before the lease in WAL.
 */
static void
check_unique_lease(Backend *b, Server *s, const UidClockSpec *spec, const MadeId *m)
{
	const UidTickSeq *ts = &m->ts;
	uint64		start;

	if (sim->citus)
		check_citus_unique(b, s, spec, m);
	else
	{
		trace(b, b->server, "%s tick %" PRIu64 " seq %u tl %d id %d", spec->type_name, ts->tick,
			  ts->seq, ts->timeline, m->ident);
		if (!id_new(0, (uint32) m->ident, m->type, ts->timeline, ts->seq, ts->tick))
			fail("unique: server %d handed out %s tick %" PRIu64 " seq %u timeline %d "
				 "of identity %d twice", s->ident, spec->type_name, ts->tick, ts->seq,
				 ts->timeline, m->ident);
	}
	if (sim->leased &&
		(uid_tick_end_us(spec, ts->tick) > m->used.expiry_us ||
		 uid_tick_end_us(spec, ts->tick) - (uint64) spec->tick_us < m->used.floor_us))
		fail("window: server %d handed out %s tick %" PRIu64 " of id %d outside its "
			 "lease's window %" PRIu64 "..%" PRIu64, s->ident, spec->type_name, ts->tick,
			 m->ident, m->used.floor_us, m->used.expiry_us);
	start = (uint64) spec->epoch_us + ts->tick * (uint64) spec->tick_us;
	if (start >= s->wal_lease)
		fail("lease: server %d handed out %s tick %" PRIu64 " starting at %" PRIu64
			 ", not before the lease in WAL, %" PRIu64,
			 s->ident, spec->type_name, ts->tick, start, s->wal_lease);
}

/* order: after every ID that calls completed before the call began. */
static void
check_order(Backend *b, Server *s, const UidClockSpec *spec, const MadeId *m)
{
	const UidTickSeq *ts = &m->ts;
	uint64		key = order_key(spec, ts);

	if (spec->seq_runs_on ? key < b->floor[ts->timeline] : key <= b->floor[ts->timeline])
		fail("order: server %d: %s tick %" PRIu64 " seq %u timeline %d is not after "
			 "tick %" PRIu64 " seq %u, completed before the call began",
			 s->ident, spec->type_name, ts->tick, ts->seq, ts->timeline,
			 b->floor[ts->timeline] >> (spec->unique ? 0 : UID_SEQ_BITS),
			 (uint32) (spec->unique ? 0 : b->floor[ts->timeline] & UID_SEQ_MASK));
	if (key > sim->done_max[b->server][m->type][ts->timeline])
		sim->done_max[b->server][m->type][ts->timeline] = key;
}

/*
 * An ID handed out: provenance and handover (settings_check_id), from and
 * after (sno), unique and meet, window and lease, order, pace.
 */
void
check_handout(Backend *b, Server *s, const MadeId *m)
{
	const UidClockSpec *spec = &specs[m->type];

	settings_check_id(b, s, sim->citus ? citus_hand(&m->ci) : m->ident,
					  uid_tick_end_us(spec, m->ts.tick));
	if (m->type == T_SNO)
		check_sno_handout(s, m);
	sim->leased_ids += sim->leased;
	check_unique_lease(b, s, spec, m);
	check_order(b, s, spec, m);
	if (!spec->ticktock && !spec->unique)
		check_pace(b, s, m->type, m->ts.tick);
	if (m->type == T_SNO)
		s->live_ticks[s->nlive_ticks++ % 64] = m->ts.tick;
}

/*
 * held-once (leased): a claim at c of id leaves the server's key one live
 * lease in the pool, not one more per claim it never heard back from.
 */
void
check_held_once(Server *s, int id, int64 c)
{
	for (int i = 0; i < sim->pool_size; i++)
		if (i != id && sim->live.pool[i].holder >= 0 && sim->live.pool[i].holder_key == s->key &&
			sim->live.pool[i].expiry_us > c)
			fail("held-once: server %d claims id %d while its key holds id %d until %" PRId64
				 " (a claim it never heard back from)", s->ident, id, i, sim->live.pool[i].expiry_us);
}

/*
 * fresh, at a plan's use: a session's plan took a record of the
 * postmaster's reload it knows of or a later one (a fallback may not).
 */
void
check_fresh_use(Backend *b, Server *s)
{
	if (!b->par_pid && s->shadow_known && b->rec.gen == s->shadow_cur >> 1 &&
		b->rec.life == s->life && s->shadow_reloads < b->known)
		fail("fresh: server %d's session uses record gen %" PRIu64 " of the postmaster's "
			 "reload %" PRIu64 ", knowing of its reload %" PRIu64, server_index(s),
			 b->rec.gen, s->shadow_reloads, b->known);
}
