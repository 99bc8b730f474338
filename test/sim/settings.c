/*
 * settings.c
 *		The settings record: what a generator call does before it allocates
 *		(plan, refresh, publish, fall back), settings workers, reloads.
 */
#include "sim.h"

/*
 * The values a record holds for a set of settings (record.h's fields that
 * the simulator uses: the partition, and sno's ranges as one word).
 */
void
settings_values(const Settings *v, int64 *values)
{
	memset(values, 0, sizeof(int64) * UID_REC_NFIELDS);
	values[UID_REC_PARTITION] = v->partition;
	values[UID_REC_SNO_RANGES] = v->part | (int64) (v->bf + 1) << 8;
	values[UID_REC_LEASED] = sim->leased;
	if (v->refused)
	{
		/* the built-in default, and the refusal (published.c's uid_rec_own) */
		values[UID_REC_PARTITION] = -1;
		values[UID_REC_REFUSED] = (int64) (UINT64CONST(1) << UID_REC_PARTITION);
	}
	if (sim->citus)
	{
		/* the identity settings set by hand, -1 for those left at their default */
		values[UID_REC_PARTITION] = v->hand & HAND_PARTITION ? v->partition : -1;
		values[UID_REC_MEDALLION] = v->hand & HAND_MEDALLION ? v->partition : -1;
		values[UID_REC_GENERATOR] = v->hand & HAND_GENERATOR ? v->partition : -1;
		values[UID_REC_CLUSTER] = v->cluster ? sim->cluster_alone : -1;
	}
}

static bool
settings_equal(const Settings *a, const Settings *b)
{
	return a->partition == b->partition && a->part == b->part && a->bf == b->bf &&
		a->hand == b->hand && a->refused == b->refused;
}

/* The postmaster holds v: one of the values of this server life. */
void
server_seen(Server *s, const Settings *v)
{
	for (int i = 0; i < s->nseen; i++)
		if (settings_equal(&s->seen[i], v))
			return;
	s->seen[s->nseen++ % NSEEN] = *v;
}

/*
 * A settings worker forked at a step after a request: it holds the
 * postmaster's values at its fork and re-reads nothing.  Stalls and deaths
 * come at any of its steps (worker_hazard).
 */
static void
worker_main(void)
{
	Backend    *w = running;
	Server	   *s = &sim->servers[w->server];
	UidRecord  *p = &w->prop;
	UidPublishResult res;
	Settings	v = s->delivered;

	memset(p, 0, sizeof(*p));
	w->sig_pending = false;		/* forked now: the postmaster's last reload */
	p->life = s->life;
	p->requested = w->req;
	p->reload_time = s->reload_time;
	w->prop_reloads = s->reloads;
	p->source = UID_SOURCE_POSTMASTER;
	settings_values(&v, p->values);
	trace(w, w->server, "settings worker %u forked: partition %d, range %d, bf %d",
		  w->pid, v.partition, v.part, v.bf);
	w->publishing = true;
	p->published_us = sim_unix_us();
	res = uid_record_publish(&s->file.rec, p, uid_record_self(s->life, w->pid), &s->signalled);
	w->publishing = false;
	sim->outcome[w->pid % 4096] = res == UID_PUB_BUSY ? 2 : 0;
	if (res == UID_PUB_BUSY)
	{
		check_busy(s, w->pid);
		s->worker_trouble++;
	}
	if (res == UID_PUB_STALE)
		check_stale(s, w);
	trace(w, w->server, "settings worker %u: %s", w->pid,
		  (const char *[]) {"taken", "not server's", "older", "busy", "stale"}[res]);
	proc_alive(w, false);
	for (;;)
		sim_step();
}

/* A worker descheduled for long, or gone, at one of its steps. */
void
worker_hazard(Backend *w)
{
	uint64		r = rng_below(&sim->sched, 256);

	if (r < 2)
	{
		proc_wake_at(w, sim->t + 1000 + (int64) rng_below(&sim->sched, 3000000));
		sim->stalls++;
		sim->servers[w->server].worker_trouble++;
		trace(w, w->server, "settings worker %u stalls until %" PRId64, w->pid, proc_wake(w));
	}
	else if (r == 2)
	{
		proc_alive(w, false);
		sim->outcome[w->pid % 4096] = 1;
		sim->servers[w->server].worker_trouble++;
		sim->worker_deaths++;
		trace(w, w->server, "settings worker %u dies%s", w->pid,
			  w->publishing ? " mid-publication" : "");
	}
}

/*
 * A refresh: start a settings worker (or wait for one under way that
 * answers the need) and wait for it.  False if none could start or none
 * ended in time.  *excuse: no slot, or a worker that stalled or died (a
 * refusal may follow), or one that found the writer word held by a stalled
 * publisher.
 */
static bool
settings_refresh(Backend *b, Server *s, int64 after, bool *excuse)
{
	Backend    *w = NULL;
	uint32		pid;
	int64		began;

	for (int j = 0; j < NWORKERS_MAX && !w; j++)
		if (worker_of(b->server, j)->alive && worker_of(b->server, j)->req > after)
			w = worker_of(b->server, j);
	if (!w)
	{
		/* after the need's time, even within its microsecond (published.c) */
		int64		req = sim_mono_us() > after ? sim_mono_us() : after + 1;

		/* no free background worker slot, or the worker fails to start */
		if (rng_below(&sim->sched, 8) == 0)
		{
			trace(b, b->server, "no settings worker could start");
			*excuse = true;
			return false;
		}
		for (int j = 0; j < NWORKERS_MAX && !w; j++)
			if (!worker_of(b->server, j)->alive)
				w = worker_of(b->server, j);
		if (!w)
		{
			*excuse = true;
			return false;
		}
		proc_init(w, b->server, worker_main);
		w->kind = K_WORKER;
		w->req = req;
		sim->outcome[w->pid % 4096] = 0;
		/* forked at a later step: mostly soon, one in four late (a busy postmaster) */
		proc_wake_at(w, sim->t + (rng_below(&sim->sched, 4) == 0 ?
								  (int64) rng_below(&sim->sched, 100000) :
								  (int64) rng_below(&sim->sched, 2000)));
		sim->workers++;
		trace(b, b->server, "requests a settings worker (%u) at %" PRId64, w->pid, req);
	}
	pid = w->pid;
	began = sim->t;
	while (w->alive && w->pid == pid)
	{
		if (sim->t - began > WAIT_US)
		{
			*excuse = true;
			return false;
		}
		sim_sleep_us(20 + (int64) rng_below(&sim->sched, 200));
	}
	/* it died, or a stalled publisher held the writer word */
	if (sim->outcome[pid % 4096] != 0)
		*excuse = true;
	return true;
}

/* A backend proposes its own values as source (a session's, or inherited). */
static void
publish_own(Backend *b, Server *s, const Settings *own, UidRecordSource source,
			int64 requested, int64 reload_time, uint32 pid)
{
	memset(&b->prop, 0, sizeof(b->prop));
	b->prop.life = s->life;
	b->prop.requested = requested;
	b->prop.reload_time = reload_time;
	b->prop.source = source;
	settings_values(own, b->prop.values);
	b->prop.published_us = sim_unix_us();
	trace(b, b->server, "%s publishes its own values (source %d): partition %d, range %d",
		  b->par_pid ? "parallel worker" : "session", (int) source, own->partition, own->part);
	b->publishing = true;
	if (uid_record_publish(&s->file.rec, &b->prop, uid_record_self(s->life, pid),
						   &s->signalled) == UID_PUB_BUSY)
		check_busy(s, pid);
	b->publishing = false;
}

/* uid_record_fallback() with the process's own values as a proposal beside b->rec. */
static UidRecordPlan
settings_fallback(Backend *b, Server *s, const UidRecordNeed *need, const Settings *own)
{
	UidRecord	mine;

	memset(&mine, 0, sizeof(mine));
	mine.life = s->life;
	mine.source = UID_SOURCE_SESSION;
	settings_values(own, mine.values);
	uid_record_keep_refused(&b->rec, &mine);
	return uid_record_fallback(&b->rec, need, &mine);
}

/*
 * What the call needs of the record (record.h's UidRecordNeed), from the
 * process, or its leader's for a parallel worker; a session that loads uid
 * at its first call loads it now.
 */
static void
settings_need(Backend *b, Server *s, UidRecordNeed *need)
{
	if (b->late && b->after < 0)
	{
		/* uid loads now: what it needs is a record requested after this */
		b->after = sim_mono_us();
		trace(b, b->server, "loads uid");
	}
	need->life = s->life;
	need->after = b->par_pid ? b->par_after : b->after;
	/* a parallel worker is forked for the call: no signal of its own yet */
	need->signalled = b->par_pid ? 0 : b->sig_at;
	need->pending = b->par_pid ? false : b->sig_pending;
	need->reload_time = b->par_pid ? b->par_reload : b->reload_time;
	need->own = UID_SOURCE_SESSION;
	need->overridden = b->has_opts;
	need->parallel = b->par_pid != 0;
}

/*
 * Read the record and plan, until the plan uses it (true) or no worker
 * answers (false): publish its own values as the plan says, or refresh
 * (published.c: workers one after another, until its deadline).
 */
static bool
settings_plan(Backend *b, Server *s, const UidRecordNeed *need, const Settings *own, uint32 pid,
			  bool *excuse, int64 *refresh_began)
{
	for (int tries = 0;; tries++)
	{
		uint64		cur = uid_record_current(&s->file.rec);
		UidRecordPlan plan;

		if (cur == 0 || cur >> 1 != b->rec.gen)
			uid_record_read(&s->file.rec, &b->rec);
		plan = uid_record_plan(&b->rec, need);
		if (plan == UID_PLAN_USE)
		{
			check_fresh_use(b, s);
			return true;
		}
		if (plan == UID_PLAN_PUBLISH_OWN && tries < 3)
		{
			/* its own values, as what it is (a session's) */
			publish_own(b, s, own, need->own, sim_mono_us(), need->reload_time, pid);
			continue;
		}
		if (plan == UID_PLAN_REFRESH && *refresh_began < 0)
			*refresh_began = sim->t;
		if (plan == UID_PLAN_REFRESH && (tries < 3 || sim->t - *refresh_began <= WAIT_US) &&
			settings_refresh(b, s, uid_record_need_after(need), excuse))
			continue;
		return false;
	}
}

/*
 * A call refused for want of a record: a reload no settings worker
 * published, or no record of this server life.  available: only where no
 * worker could publish one (no slot, a worker stalled or dead), and never
 * while a record of this life is in force (since before the fallback
 * began).
 */
static void
settings_refusal(Backend *b, Server *s, bool excuse, int64 began)
{
	if (uid_record_usable(&b->rec, s->life))
	{
		sim->reload_refused++;
		trace(b, b->server, "refuses: a reload no settings worker published%s",
			  excuse ? "" : ", though one could");
		if (!excuse)
			fail("available: server %d refused a call for a reload no settings worker "
				 "published, though workers could start and did not stall or die",
				 server_index(s));
		return;
	}
	sim->rec_refused++;
	trace(b, b->server, "refuses: no record of this server life");
	if (s->life_since >= 0 && s->life_since < began)
		fail("available: server %d refused a call while a record of this server life "
			 "(in force since step %" PRId64 ") was", server_index(s), s->life_since);
}

/*
 * What a generator does before it allocates (record.h): read the record,
 * plan, refresh or publish its own values as the plan says, and fall back
 * on the record in force when no worker answers.  False: the call is
 * refused.  b->rec is the record to use.
 */
bool
settings_ready(Backend *b, Server *s)
{
	UidRecordNeed need;
	Settings	own = b->own;
	uint32		pid = b->par_pid ? b->par_pid : b->pid;
	int64		began;
	bool		excuse = false;
	UidRecordPlan fallback;
	int64		refresh_began = -1;
	uint64		trouble = s->worker_trouble;

	settings_need(b, s, &need);
	if (settings_plan(b, s, &need, &own, pid, &excuse, &refresh_began))
		return true;
	/*
	 * no worker answered: the record in force, if it is of this server life
	 * and the reloads it has not answered changed none of it as this process
	 * read them; else, a session whose values are still the postmaster's as
	 * it was forked publishes them
	 */
	began = (int64) sim->step;
	/*
	 * its deadline passed while workers stalled, died or waited for the
	 * writer word, or another reload overtook each worker
	 */
	if (s->worker_trouble != trouble || (refresh_began >= 0 && s->last_reload_t >= refresh_began))
		excuse = true;
	uid_record_read(&s->file.rec, &b->rec);
	fallback = settings_fallback(b, s, &need, &own);
	if (fallback == UID_PLAN_PUBLISH_OWN)
	{
		publish_own(b, s, &own, UID_SOURCE_INHERITED, 0, need.reload_time, pid);
		uid_record_read(&s->file.rec, &b->rec);
		fallback = settings_fallback(b, s, &need, &own);
	}
	if (fallback == UID_PLAN_USE)
		return true;
	settings_refusal(b, s, excuse, began);
	return false;
}

/*
 * The record holds the partition refused (the files held a value the checks
 * refuse, and no record of the server life had one to keep): every
 * generator refuses; none uses the default in its place.
 */
bool
settings_refuse_partition(Backend *b)
{
	if (!((uint64) b->rec.values[UID_REC_REFUSED] & (UINT64CONST(1) << UID_REC_PARTITION)))
		return false;
	sim->partition_refused++;
	trace(b, b->server, "refuses: the record holds uid.partition refused");
	return true;
}

/* The settings a record gives the call: its partition and sno's ranges. */
int
settings_take(Backend *b)
{
	int64		w = b->rec.values[UID_REC_SNO_RANGES];

	b->part = (int) (w & 0xff);
	b->bf = (int) (w >> 8) - 1;
	if (b->part < 0 || b->part >= (int) NPARTS || b->bf < -1 || b->bf >= (int) NBF)
	{
		fail("provenance: a record with sno ranges %" PRId64 " that no setting gives", w);
		b->part = 0;
		b->bf = -1;
	}
	return (int) b->rec.values[UID_REC_PARTITION];
}

/*
 * A reload: the postmaster reads the files and takes their values, its
 * reload time moves, then it signals each backend.
 */
void
server_reload(Server *s)
{
	int			si = server_index(s);

	s->delivered = s->files;
	s->reload_time = server_unix_us(s);
	s->reloads++;
	s->last_reload_t = sim->t;
	s->reload_mono = server_mono_us(s);
	server_seen(s, &s->delivered);
	for (int i = 0; i < sim->nbackends; i++)
	{
		Backend    *b = &sim->backends[si * sim->nbackends + i];

		/* received now, taken or not: its handler notes when, here and in the live state */
		b->sig_pending = true;
		b->sig_at = server_mono_us(s);
		s->signalled.value = (uint64) b->sig_at;
	}
	/*
	 * every child, settings workers too, before the postmaster forks
	 * another; a worker's signal that comes before it set its handling up
	 * is lost (one in four, at any step of it here)
	 */
	for (int j = 0; j < NWORKERS_MAX; j++)
		if (worker_of(si, j)->alive)
		{
			Backend    *w = worker_of(si, j);

			/*
			 * biased to where a record could go back (core/record.c): a
			 * postmaster busy with the reload forks a requested worker
			 * late, half the time, so that workers requested in one order
			 * are forked across the reload in the other; a worker under
			 * way is descheduled a while, a quarter of the time, so that
			 * one forked after the reload publishes first
			 */
			if (!w->entered && rng_below(&sim->sched, 2) == 0)
				proc_wake_at(w, Max(proc_wake(w), sim->t) + (int64) rng_below(&sim->sched, 50000));
			else if (w->entered && rng_below(&sim->sched, 4) == 0)
				proc_wake_at(w, Max(proc_wake(w), sim->t) + (int64) rng_below(&sim->sched, 20000));
			if (rng_below(&sim->sched, 4) == 0)
			{
				/*
				 * lost: it had not run far enough to set its handling up,
				 * and runs on a while later
				 */
				proc_wake_at(w, Max(proc_wake(w), sim->t) + (int64) rng_below(&sim->sched, 20000));
				sim->lost_signals++;
				trace(worker_of(si, j), si, "settings worker %u loses the reload signal",
					  worker_of(si, j)->pid);
			}
			else
				worker_of(si, j)->sig_pending = true;
		}
	trace(NULL, si, "reload: partition %d, sno range %d, back-fill %d", s->delivered.partition,
		  s->delivered.part, s->delivered.bf);
}
