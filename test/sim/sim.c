/*
 * sim.c
 *		The command line: runs of seeds, a run, the shrinking of a failure,
 *		the summary.
 */
#include "sim.h"

#include "step.h"

/*
 * What a run returns for the summary, each count an expression of the run's
 * Sim, summed over the runs (a flag counts the runs it holds in).
 */
#define RUN_COUNTS(X) \
	X(STEPS, sim->step) \
	X(IDS, sim->nids) \
	X(LEASED_RUNS, sim->leased) \
	X(LEASED_IDS, sim->leased_ids) \
	X(MOVES, sim->moves) \
	X(REFUSED, sim->refused) \
	X(BACKFILLED, sim->backfilled) \
	X(BF_REFUSED, sim->bf_refused) \
	X(LIVE_IN_OLD_BF, sim->live_in_old_bf) \
	X(UPGRADES_LOST, sim->upgrades_lost) \
	X(UPGRADES_WAITED, sim->upgrades_waited) \
	X(COORD_CRASHES, sim->coord_events[0]) \
	X(COORD_RESTORES, sim->coord_events[1]) \
	X(COORD_FAILOVERS, sim->coord_events[2]) \
	X(COORD_HOLDS, sim->coord_holds) \
	X(COORD_HELD, sim->coord_held) \
	X(COORD_RECLAIMS, sim->coord_reclaims) \
	X(WORKERS, sim->workers) \
	X(STALLS, sim->stalls) \
	X(WORKER_DEATHS, sim->worker_deaths) \
	X(PUBLISHED, sim->published) \
	X(PARALLEL_CALLS, sim->parallel_calls) \
	X(HANDOVERS, sim->handovers) \
	X(REC_REFUSED, sim->rec_refused) \
	X(RELOAD_REFUSED, sim->reload_refused) \
	X(LOST_SIGNALS, sim->lost_signals) \
	X(REFUSAL_EDITS, sim->refusal_edits) \
	X(KEPT, sim->kept) \
	X(PARTITION_REFUSED, sim->partition_refused) \
	X(CITUS_RUNS, sim->citus) \
	X(CITUS_ADDS, sim->citus_adds) \
	X(CITUS_REMOVES, sim->citus_removes) \
	X(CITUS_READS, sim->citus_reads) \
	X(CITUS_GROUP_IDS, sim->citus_group_ids) \
	X(CITUS_LOCAL_IDS, sim->citus_local_ids) \
	X(CITUS_REFUSED, sim->citus_refused) \
	X(CITUS_LEASED_RUNS, sim->citus && sim->leased) \
	X(CITUS_LEASED_IDS, sim->citus_leased_ids) \
	X(CLUSTER_ALONE_RUNS, sim->citus && sim->cluster_alone >= 0) \
	X(CITUS_UNSYNCED_ADDS, sim->citus_unsynced_adds) \
	X(CITUS_UNSYNCED_REFUSED, sim->citus_unsynced_refused) \
	X(CITUS_UPGRADES, sim->citus_upgrades) \
	X(CITUS_UNKNOWN_REFUSED, sim->citus_unknown_refused) \
	X(SUBSCRIBES, sim->subscribes) \
	X(SHARED_REFUSED, sim->shared_refused) \
	X(DEFAULT_IDS, sim->default_ids)

#define RUN_COUNT_ENUM(name, expr) R_##name,
enum
{
	RUN_COUNTS(RUN_COUNT_ENUM)
	NCOUNTS
};

typedef struct RunResult
{
	bool		failed;
	uint64		fail_step;
	uint64		count[NCOUNTS];
	int			nfaults;
	uint64		fault_counts[NFAULTKINDS];
	int64		sim_us;
	char		why[512];
} RunResult;

/*
 * The summary after the head (schedules, seeds, steps, IDs, simulated
 * seconds): each row a text with the place of its count, or the faults
 * applied by kind (R_FAULTS).
 */
#define R_FAULTS (-1)

typedef struct SummaryRow
{
	const char *fmt;
	int			count;
} SummaryRow;

static const SummaryRow summary_rows[] = {
	{"%" PRIu64 " schedules with leased identities: ", R_LEASED_RUNS},
	{"%" PRIu64 " IDs under them, ", R_LEASED_IDS},
	{"%" PRIu64 " ids moved between servers, ", R_MOVES},
	{"%" PRIu64 " calls refused (no usable lease); ", R_REFUSED},
	{"%" PRIu64 " sno back-filled beside live IDs, ", R_BACKFILLED},
	{"%" PRIu64 " back-fill calls refused, ", R_BF_REFUSED},
	{"%" PRIu64 " live sno in back-fill ranges used before; faults:", R_LIVE_IN_OLD_BF},
	{" %s %" PRIu64, R_FAULTS},
	{" (upgrades: %" PRIu64 " with the old state file lost, ", R_UPGRADES_LOST},
	{"%" PRIu64 " waited for the clock)", R_UPGRADES_WAITED},
	{"; the coordinator: %" PRIu64 " crashes, ", R_COORD_CRASHES},
	{"%" PRIu64 " restores of a backup, ", R_COORD_RESTORES},
	{"%" PRIu64 " failovers, ", R_COORD_FAILOVERS},
	{"%" PRIu64 " holds (", R_COORD_HOLDS},
	{"%" PRIu64 " conversations answered on hold), ", R_COORD_HELD},
	{"%" PRIu64 " claims handed back", R_COORD_RECLAIMS},
	{"; settings: %" PRIu64 " workers started (", R_WORKERS},
	{"%" PRIu64 " stalled, ", R_STALLS},
	{"%" PRIu64 " died), ", R_WORKER_DEATHS},
	{"%" PRIu64 " records published, ", R_PUBLISHED},
	{"%" PRIu64 " calls in parallel workers, ", R_PARALLEL_CALLS},
	{"%" PRIu64 " partitions handed over, ", R_HANDOVERS},
	{"%" PRIu64 " calls refused (no record of the server life), ", R_REC_REFUSED},
	{"%" PRIu64 " (a reload no worker published), ", R_RELOAD_REFUSED},
	{"%" PRIu64 " workers' reload signals lost", R_LOST_SIGNALS},
	{", %" PRIu64 " edits of a partition the checks refuse (", R_REFUSAL_EDITS},
	{"%" PRIu64 " records kept a refused value, ", R_KEPT},
	{"%" PRIu64 " calls refused it)", R_PARTITION_REFUSED},
	{"; %" PRIu64 " schedules of a Citus cluster: ", R_CITUS_RUNS},
	{"%" PRIu64 " nodes added, ", R_CITUS_ADDS},
	{"%" PRIu64 " removed, ", R_CITUS_REMOVES},
	{"%" PRIu64 " reads of the node group, ", R_CITUS_READS},
	{"%" PRIu64 " IDs into the cluster that embed a node group, ", R_CITUS_GROUP_IDS},
	{"%" PRIu64 " made by workers outside it, ", R_CITUS_LOCAL_IDS},
	{"%" PRIu64 " calls refused (an identity beyond the type's fields)", R_CITUS_REFUSED},
	{", %" PRIu64 " of them leased (", R_CITUS_LEASED_RUNS},
	{"%" PRIu64 " IDs into the cluster under leased ids), ", R_CITUS_LEASED_IDS},
	{"%" PRIu64 " with uid.cluster alone; ", R_CLUSTER_ALONE_RUNS},
	{"%" PRIu64 " nodes added without metadata, ", R_CITUS_UNSYNCED_ADDS},
	{"%" PRIu64 " tasks refused there; ", R_CITUS_UNSYNCED_REFUSED},
	{"%" PRIu64 " upgrades of Citus, ", R_CITUS_UPGRADES},
	{"%" PRIu64 " calls refused (pg_dist_local_group empty)", R_CITUS_UNKNOWN_REFUSED},
	{"; %" PRIu64 " servers outside a cluster with no identity subscribed, ", R_SUBSCRIBES},
	{"%" PRIu64 " calls refused there, ", R_SHARED_REFUSED},
	{"%" PRIu64 " IDs of a default identity into a database of their own", R_DEFAULT_IDS},
};

/*
 * A run's draws from its seed: the schedule's shape, the coordinator's, a
 * Citus cluster, then each server.
 */
static void
run_setup(uint64 seed, const bool *skip, bool show)
{
	Rng			setup = {seed};
	static const int dt_scales[] = {2, 20, 200};

	sim = calloc(1, sizeof(Sim));
	sim->skip = skip;
	sim->record_trace = show;
	/*
	 * biased to a rare case (issue 54): in an eighth of the runs every edit
	 * that reloads is followed by a second reload within 5 ms, as a tool
	 * that edits and reloads twice in a row, so that settings workers are
	 * requested and forked across the pair (plant stale).  Drawn from the
	 * seed alone: the other runs' schedules stay as they were.
	 */
	sim->storm = uid_mix64(seed ^ UINT64CONST(0x73746f726d)) % 8 == 0;
	sim->sched.s = rng_next(&setup);
	sim->frng.s = rng_next(&setup);
	sim->nservers = 1 + (int) rng_below(&setup, NSERVERS_MAX);
	sim->nbackends = 1 + (int) rng_below(&setup, NBACKENDS_MAX);
	sim->dt_scale = dt_scales[rng_below(&setup, 3)];
	sim->fault_period = 200 + rng_below(&setup, 4000);
	sim->leased = rng_below(&setup, 2) == 1;
	sim->used_block = (uint32[]) {1, 2, 256}[rng_below(&setup, 3)];
	sim->pool_size = Max(1, sim->nservers + (rng_below(&setup, 2) ? 1 : -1));
	sim->next_partition = NSERVERS_MAX;
	sim->t = 0;
	/*
	 * A Citus cluster: half the schedules of hand-set identities on more than
	 * one server, a quarter of the leased ones, drawn apart from the draws
	 * above (the other schedules run as they did before Citus was modelled;
	 * the draws of the Citus events added since, xrng, apart again)
	 */
	sim->crng.s = uid_mix64(seed ^ UINT64CONST(0xC17C5C17C5C17C5));
	sim->xrng.s = uid_mix64(seed ^ UINT64CONST(0x5EC0DC17C5A11));
	coord_setup(seed);
	sim->citus = sim->nservers > 1 && rng_below(&sim->crng, sim->leased ? 4 : 2) == 0;
	if (sim->citus)
		citus_setup();
	for (int i = 0; i < sim->nservers; i++)
		server_setup(i, seed, &setup);
}

/* What the run returns: its outcome and its counts. */
static void
run_result(RunResult *out)
{
#define RUN_COUNT_GET(name, expr) out->count[R_##name] = (uint64) (expr);
	RUN_COUNTS(RUN_COUNT_GET)
	out->failed = sim->failed;
	out->fail_step = sim->fail_step;
	out->nfaults = sim->nfaults;
	out->sim_us = sim->t;
	memcpy(out->fault_counts, sim->fault_counts, sizeof(out->fault_counts));
	snprintf(out->why, sizeof(out->why), "%s", sim->why);
}

/* A schedule shown: its shape, the faults applied, its last events. */
static void
run_show(const bool *skip)
{
	uint64		first = sim->ntrace > TRACE_LEN ? sim->ntrace - TRACE_LEN : 0;

	printf("  %d servers, %d backends each, time steps of ~%d us, a fault every ~%" PRIu64 " steps\n",
		   sim->nservers, sim->nbackends, sim->dt_scale, sim->fault_period);
	if (sim->leased)
		printf("  identities leased from a pool of %d ids\n", sim->pool_size);
	if (sim->citus)
		citus_show();
	printf("  faults applied:\n");
	for (int i = 0; i < sim->nfaults; i++)
		if (!(skip && skip[i]))
			printf("    #%d at step %" PRIu64 ": %s\n", i, sim->fault_step[i],
				   fault_name(sim->faults[i].kind));
	printf("  the last events (step, time in us, server, backend):\n");
	for (uint64 i = first; i < sim->ntrace; i++)
	{
		Trace	   *e = &sim->trace[i % TRACE_LEN];
		char		who[16] = "";

		if (e->backend >= 0)
			snprintf(who, sizeof(who), "b%d", e->backend);
		printf("    %8" PRIu64 " %12" PRId64 "  s%d %-5s %s\n", e->step, e->t, e->server,
			   who, e->text);
	}
}

/*
 * One run of a seed, of at most max_steps, leaving out the faults skip
 * says; show: print the schedule.  Each step time moves on, the step's
 * fault, coordinator, handover and Citus events come, and a process runs
 * to its next step; then the checks of the step.
 */
static void
run(uint64 seed, uint64 max_steps, const bool *skip, bool show, RunResult *out)
{
	run_setup(seed, skip, show);
	for (sim->step = 0; sim->step < max_steps && !sim->failed; sim->step++)
	{
		int			pick;

		time_moves_on();
		maybe_fault();
		if (sim->leased)
			coord_step();
		if (sim->ho_phase)
			handover_step();
		if (sim->citus)
			citus_step();
		pick = sched_pick();
		if (pick < 0)
			break;
		sim_resume(&sim->backends[pick]);
		check_step(running);
		running = NULL;
	}
	run_result(out);
	if (show)
		run_show(skip);
	for (int i = 0; i < NPROCS; i++)
		free(sim->backends[i].stack);
	free(sim->ids);
	free(sim);
	sim = NULL;
}

/*
 * The shortest schedule that shows a failure: leave out each fault in turn
 * and keep it out when the run still fails; the run then ends at the step
 * it fails at.
 */
static void
shrink(uint64 seed, uint64 max_steps, const RunResult *first)
{
	bool	   *skip = calloc(NFAULTS_MAX, sizeof(bool));
	RunResult	r = *first;
	uint64		steps = first->fail_step + 1;
	int			kept = 0;

	for (int i = 0; i < first->nfaults && i < NFAULTS_MAX; i++)
	{
		RunResult	t;

		skip[i] = true;
		run(seed, steps, skip, false, &t);
		if (t.failed)
		{
			r = t;
			steps = t.fail_step + 1;
		}
		else
			skip[i] = false;
	}
	for (int i = 0; i < first->nfaults; i++)
		kept += !skip[i];
	printf("shortest schedule found: %" PRIu64 " steps, %d of %d faults (seed %" PRIu64 "):\n",
		   steps, kept, first->nfaults, seed);
	run(seed, steps, skip, true, &r);
	printf("  fails: %s\n", r.why);
	printf("  replay: test/sim/sim --seed %" PRIu64 " --steps %" PRIu64 "\n", seed, max_steps);
	free(skip);
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: sim [--seeds FIRST-LAST | --seed N] [--steps N] [--seconds S]\n"
			"  --seeds A-B   run seeds A to B (default 1-200)\n"
			"  --seed N      run one seed\n"
			"  --steps N     steps per run (default 200000)\n"
			"  --seconds S   run seeds from FIRST on until S seconds have passed\n"
			"  --quiet       print only the summary\n"
			"  --all         on a failure, go on with the next seed (no shrinking);\n"
			"                exits 1 if any failed\n");
	exit(2);
}

/* The command line's options. */
typedef struct Options
{
	uint64		first;
	uint64		last;
	uint64		steps;
	double		seconds;
	bool		quiet;
	bool		all;
} Options;

static void
parse_args(int argc, char **argv, Options *o)
{
	*o = (Options) {.first = 1, .last = 200, .steps = 200000};
	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
		{
			if (sscanf(argv[++i], "%" SCNu64 "-%" SCNu64, &o->first, &o->last) != 2 ||
				o->last < o->first)
				usage();
		}
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			o->first = o->last = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
			o->steps = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			o->seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--quiet") == 0)
			o->quiet = true;
		else if (strcmp(argv[i], "--all") == 0)
			o->all = true;
		else
			usage();
	}
	if (o->steps == 0)
		usage();
}

static double
seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The runs' sums: the counts, the faults by kind, the simulated time. */
typedef struct Totals
{
	uint64		runs;
	uint64		failures;
	uint64		count[NCOUNTS];
	uint64		fault_counts[NFAULTKINDS];
	int64		sim_us;
} Totals;

static void
totals_add(Totals *t, const RunResult *r)
{
	t->runs++;
	for (int k = 0; k < NCOUNTS; k++)
		t->count[k] += r->count[k];
	t->sim_us += r->sim_us;
	for (int k = 0; k < NFAULTKINDS; k++)
		t->fault_counts[k] += r->fault_counts[k];
}

/* The summary line, its time last. */
static void
summary(const Options *o, const Totals *t, double secs)
{
	printf("simcheck: %" PRIu64 " schedules (seeds %" PRIu64 "-%" PRIu64 "), %" PRIu64
		   " steps, %" PRIu64 " IDs, %.0f simulated s; ", t->runs, o->first,
		   o->first + t->runs - 1, t->count[R_STEPS], t->count[R_IDS], t->sim_us / 1e6);
	for (size_t i = 0; i < sizeof(summary_rows) / sizeof(summary_rows[0]); i++)
	{
		const SummaryRow *row = &summary_rows[i];

		if (row->count != R_FAULTS)
			printf(row->fmt, t->count[row->count]);
		else
			for (int k = 0; k < NFAULTKINDS; k++)
				printf(row->fmt, fault_name(k), t->fault_counts[k]);
	}
	if (t->failures)
		printf("; %" PRIu64 " schedules failed (%.1f s)\n", t->failures, secs);
	else
		printf("; all invariants held (%.1f s)\n", secs);
}

int
main(int argc, char **argv)
{
	Options		o;
	Totals		t = {0};
	struct timespec t0;

	parse_args(argc, argv, &o);
	types_setup();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64 seed = o.first;; seed++)
	{
		RunResult	r;

		if (o.seconds > 0 ? seconds_since(&t0) >= o.seconds : seed > o.last)
			break;
		run(seed, o.steps, NULL, false, &r);
		totals_add(&t, &r);
		if (r.failed)
		{
			printf("FAIL seed %" PRIu64 " at step %" PRIu64 " (%.1f s into the run): %s\n",
				   seed, r.fail_step, seconds_since(&t0), r.why);
			t.failures++;
			if (o.all)
				continue;
			shrink(seed, o.steps, &r);
			return 1;
		}
		if (!o.quiet && t.runs % 50 == 0)
		{
			printf("  %" PRIu64 " schedules passed\n", t.runs);
			fflush(stdout);
		}
	}
	summary(&o, &t, seconds_since(&t0));
	return t.failures ? 1 : 0;
}
