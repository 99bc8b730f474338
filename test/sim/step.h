/*
 * step.h
 *		What the scheduler does every step, inline in run's loop (sim.c):
 *		time moves on, the fault's draw, the coordinator's, the pick of a
 *		process, the checks after its step.  Each is the common path of its
 *		room's work; what is rare stays in the room, out of line (world.c's
 *		sched_look, faults.c's fault_draw and reloads_again, ident.c's
 *		coord_events, checks.c's record checks).  As calls into other
 *		files, these took 6% of the simulator's time.
 */
#ifndef SIM_STEP_H
#define SIM_STEP_H

#include "sim.h"

/* Time moves on: mostly a little, sometimes far. */
static inline void
time_moves_on(void)
{
	uint64		r = rng_next(&sim->sched);

	if (r % 100 < 90)
		sim->t += (int64) ((r >> 8) % (uint64) sim->dt_scale);
	else if (r % 100 < 99)
		sim->t += (int64) ((r >> 8) % (uint64) (50 * sim->dt_scale));
	else
		sim->t += (int64) ((r >> 8) % 100000);
}

/*
 * Draws the step's fault, if any: the same draws whatever the schedule.
 * The servers are read for a second reload only once one is due.
 */
static inline void
maybe_fault(void)
{
	uint64		r = rng_next(&sim->frng);

	if (sim->t >= sim->again_first)
		reloads_again();
	if (r % sim->fault_period != 0 || sim->nfaults >= NFAULTS_MAX)
		return;
	fault_draw();
}

/*
 * The coordinator's step (leased runs): its draw from krng alone, and its
 * events (ident.c) once one is due or drawn.
 */
static inline void
coord_step(void)
{
	uint64		r = rng_next(&sim->krng);

	if (sim->t >= sim->coord_flush_at || sim->t >= sim->coord_backup_at ||
		(sim->coord_event_at != 0 && sim->t >= sim->coord_event_at) || (r >> 32) % 40000 == 0)
		coord_events(r);
}

/*
 * The first process in the order from start on that can run at t, or -1;
 * then *soonest: the earliest wake of those that live.  The ready mask
 * holds while t is before ready_until, time only moving on (a process that
 * could run still can; one that could not wakes at ready_until or later),
 * so that most steps read no process; once t reaches it, or none is ready,
 * the scheduler looks again (sched_look).
 */
static inline int
sched_first(int start, int64 *soonest)
{
	uint32		below = (UINT32_C(1) << start) - 1;
	uint32		can;

	if (sim->t >= sim->ready_until)
		sched_look();
	can = sim->ready & sim->alive_mask;
	if (can == 0)
	{
		/* every living one sleeps: the earliest wake, exactly */
		sched_look();
		*soonest = Min(*soonest, sim->ready_until);
		return -1;
	}
	return __builtin_ctz((can & ~below) != 0 ? can & ~below : can);
}

/*
 * A runnable process, at random (the first that can run from a drawn
 * place on); else time moves to the first that wakes and it tries again.
 * -1: no process lives.
 */
static inline int
sched_pick(void)
{
	int			pick = -1;
	int64		soonest = INT64_MAX;

	for (int tries = 0; tries < 2 && pick < 0; tries++)
	{
		pick = sched_first((int) rng_below(&sim->sched, (uint64) NPROCS), &soonest);
		if (pick < 0 && soonest != INT64_MAX)
			sim->t = soonest;
	}
	return pick;
}

/*
 * After every step of a process p, on its server's record (checks.c): a
 * record that came in force was proposed by the process that ran (the one
 * whose compare-and-swap it was), and holds values its postmaster held
 * this life (provenance), of a reload no earlier than the record it
 * replaced (fresh); the body in force holds, whenever it is whole, what it
 * held when it came in force (torn).  And live: no call lasts too long.
 */
static inline void
check_step(Backend *p)
{
	Server	   *s = &sim->servers[p->server];
	uint64		cur = s->file.rec.current.value;

	if (cur != s->shadow_cur)
		record_in_force(s, p, cur);
	else if (p->publishing && cur != 0)
		check_torn_in_force(s, p, cur);
	if (p->in_call && sim->t - p->call_t > LIVE_LIMIT_US)
		check_live_fail(p);
}

#endif							/* SIM_STEP_H */
