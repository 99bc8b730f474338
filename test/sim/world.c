/*
 * world.c
 *		The world: servers and their processes, the state file and its disk
 *		images, the clocks, the IDs handed out, the scheduling of coroutines.
 */
#include "sim.h"

static uint64 sim_now(const UidClockSpec *spec);

/*
 * The types' clocks as the server has them (codec/registry.h); snowflake_si
 * with a 2-bit sequence (the server's is the index width, a setting), set
 * in main, so that its ticks fill.
 */
#define SIM_SPEC(ID, tname, tslot, nbytes, text, clock, ...) \
	[T_##ID] = {.type_name = #tname, .slot = tslot, UID_CLOCK_FIELDS(clock), .now = sim_now},

UidClockSpec specs[NTYPES] = {UID_TYPES(SIM_SPEC)};
Sim *sim;
Backend *running;

#ifdef SIM_SWITCH_ASM
SimJump		sched_jb;
#else
static ucontext_t sched_ctx;
static SimJump sched_jb;

/* (apart, as the compiler asks: never in the function that set the jump) */
static void __attribute__((noinline, noreturn))
sim_jump(SimJump to)
{
	__builtin_longjmp(to, 1);
}
#endif

void
trace(Backend *b, int server, const char *fmt, ...)
{
	Trace	   *e;
	va_list		ap;

	if (!sim->record_trace)
		return;
	e = &sim->trace[sim->ntrace++ % TRACE_LEN];
	e->step = sim->step;
	e->t = sim->t;
	e->backend = b ? b->num : -1;
	e->server = server;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

void
fail(const char *fmt, ...)
{
	va_list		ap;

	if (sim->failed)
		return;
	sim->failed = true;
	sim->fail_step = sim->step;
	va_start(ap, fmt);
	vsnprintf(sim->why, sizeof(sim->why), fmt, ap);
	va_end(ap);
}

void
server_set_clock(Server *s, int64 unix_us, int num, int den)
{
	s->anchor_unix = unix_us;
	s->anchor_t = sim->t;
	s->rate_num = num;
	s->rate_den = den;
}

int64
sim_unix_us(void)
{
	sim_step();
	return server_unix_us(&sim->servers[running->server]);
}

int64
sim_mono_us(void)
{
	Server	   *s = &sim->servers[running->server];

	sim_step();
	return server_mono_us(s);
}

static uint64
sim_now(const UidClockSpec *spec)
{
	int64		us = sim_unix_us() - spec->epoch_us;

	return us < 0 ? 0 : (uint64) us / (uint64) spec->tick_us;
}

bool
sim_sleep_us(int64 us)
{
	proc_wake_at(running, sim->t + (us > 0 ? us : 0));
	sim_step();
	return true;
}

void
sim_step(void)
{
	/* the scheduler's own call of the core (a fault): one step, no switch */
	if (unlikely(running == NULL))
		return;
	if (unlikely(running->kind == K_WORKER))
		worker_hazard(running);
#ifdef SIM_SWITCH_ASM
	sim_switch(&running->jb, &sched_jb);
#else
	if (__builtin_setjmp(running->jb) == 0)
		sim_jump(sched_jb);
#endif
}

#ifdef SIM_SWITCH_ASM
/*
 * A new coroutine's stack: its main function entered as if called, the
 * stack 16-byte aligned below a return address (a null one: it never
 * returns).
 */
static void
proc_stack_init(Backend *b, void (*main_fn) (void))
{
	uintptr_t	top = ((uintptr_t) b->stack + STACK_SIZE) & ~(uintptr_t) 15;
	void	  **sp = (void **) (top - sizeof(void *));

	*sp = NULL;
	b->jb.sp = sp;
	b->jb.fp = NULL;
	b->jb.pc = (void *) main_fn;
}
#else
void
sim_resume(Backend *b)
{
	running = b;
	if (__builtin_setjmp(sched_jb) == 0)
	{
		if (!b->entered)
		{
			b->entered = true;
			swapcontext(&sched_ctx, &b->ctx);
		}
		else
			sim_jump(b->jb);
	}
}

/* A new coroutine, entered the first time by swapcontext (sim_resume). */
static void
proc_stack_init(Backend *b, void (*main_fn) (void))
{
	getcontext(&b->ctx);
	b->ctx.uc_stack.ss_sp = b->stack;
	b->ctx.uc_stack.ss_size = STACK_SIZE;
	b->ctx.uc_link = NULL;
	makecontext(&b->ctx, main_fn, 0);
}
#endif

static uint64
key_hash(const IdKey *k)
{
	return uid_mix64(k->tick * 31 + ((uint64) k->seq << 24 | (uint64) k->timeline << 20 |
									 (uint64) k->type << 8 | k->server));
}

/* Adds an ID; false if it was handed out before. */
static bool
ids_add(const IdKey *k)
{
	uint64		i;

	if (2 * (sim->nids + 1) > sim->ids_cap)
	{
		IdKey	   *old = sim->ids;
		uint64		cap = sim->ids_cap;

		sim->ids_cap = cap ? 2 * cap : 1 << 16;
		sim->ids = calloc(sim->ids_cap, sizeof(IdKey));
		sim->nids = 0;
		for (i = 0; i < cap; i++)
			if (old[i].tick != 0)
				ids_add(&old[i]);
		free(old);
	}
	for (i = key_hash(k) & (sim->ids_cap - 1);; i = (i + 1) & (sim->ids_cap - 1))
	{
		if (sim->ids[i].tick == 0)
		{
			sim->ids[i] = *k;
			sim->nids++;
			return true;
		}
		if (memcmp(&sim->ids[i], k, sizeof(IdKey)) == 0)
			return false;
	}
}

/*
 * Records an ID handed out; false if it was handed out before.  ident is
 * what it embeds of its server's identity: in Citus runs, its fields as the
 * format holds them (TypeIdent); scope is where it goes: 0, the IDs that
 * must be unique across every server, or 1 + a server, a database of its
 * own (a Citus worker outside the cluster).
 */
bool
id_new(int scope, uint32 ident, int type, int timeline, uint32 seq, uint64 tick)
{
	IdKey		k;

	memset(&k, 0, sizeof(k));
	k.server = ident;
	k.type = (uint32) type | (uint32) scope << 8;
	k.timeline = (uint32) timeline;
	k.seq = seq;
	k.tick = tick + 1;			/* 0 marks a free entry */
	return ids_add(&k);
}

/* The state file's current image goes to disk (a sync, or the OS's writeback). */
void
disk_write(Server *s)
{
	if (s->nimages == NIMAGES)
	{
		memmove(&s->images[0], &s->images[1], sizeof(SimFile) * (NIMAGES - 1));
		s->nimages--;
	}
	s->images[s->nimages++] = s->file;
}

/*
 * uid_state_sync(): the disk holds the file as it is when the sync begins;
 * no crash goes back further.  It takes time, during which the backend may
 * die.
 */
void
disk_sync(Server *s)
{
	s->images[0] = s->file;
	s->nimages = 1;
	sim_sleep_us((int64) rng_below(&sim->sched, 500));
}

/* The sync a core function asks for: the running backend's server's. */
void
sync_running(void)
{
	disk_sync(&sim->servers[running->server]);
}

/* A crash or a failover may lose the pace word: borrowing starts afresh. */
void
pace_forget(Server *s)
{
	memset(s->nborrows, 0, sizeof(s->nborrows));
}

Backend *
worker_of(int server, int j)
{
	return &sim->backends[NSERVERS_MAX * NBACKENDS_MAX + server * NWORKERS_MAX + j];
}

/*
 * A reload signal the running process has not taken: a settings worker
 * keeps it pending (the postmaster reloaded since its fork); a backend
 * takes it at its own time.
 */
bool
sim_reload_signalled(void)
{
	return running != NULL && running->sig_pending;
}

bool
sim_alive(uint32 pid)
{
	for (int i = 0; i < NPROCS; i++)
	{
		Backend    *p = &sim->backends[i];

		if (p->alive && (p->pid == pid || p->par_pid == pid))
			return true;
	}
	return false;
}

/* A process forked by the server's postmaster: a coroutine, a new pid. */
void
proc_init(Backend *b, int server, void (*main_fn) (void))
{
	proc_alive(b, true);
	b->entered = false;
	b->server = server;
	b->num = sim->started++;
	b->pid = ++sim->next_pid;
	b->par_pid = 0;
	b->kind = K_BACKEND;
	b->publishing = false;
	proc_wake_at(b, sim->t);
	b->in_call = false;
	memset(&b->rec, 0, sizeof(b->rec));
	if (b->stack == NULL)
		b->stack = malloc(STACK_SIZE);
	proc_stack_init(b, main_fn);
}

void
backend_start(Backend *b, int server)
{
	Server	   *s = &sim->servers[server];

	proc_init(b, server, backend_main);
	b->part = 0;
	b->bf = -1;
	b->used_copy = 0;
	memset(b->cur, 0, sizeof(b->cur));
	for (int i = 0; i < NTYPES; i++)
		b->cur[i].seq_origin = uid_seq_origin(s->file.secret, i);
	/*
	 * its values: the postmaster's, inherited at the fork, or its startup
	 * options' (arbitrary); uid preloaded, or loaded at its first call
	 */
	b->own = s->delivered;
	b->has_opts = rng_below(&sim->sched, 4) == 0;
	if (b->has_opts)
	{
		b->own.partition = OWN_PARTITION + (int) rng_below(&sim->sched, 100);
		b->own.part = (int) rng_below(&sim->sched, NPARTS);
		b->own.hand = sim->citus ? HAND_ALL : 0;
	}
	/* a new process: no copy of the node group, no invalidation */
	b->gcache = (UidGroupCache) UID_GROUP_CACHE_INIT;
	b->subcache = (UidGroupCache) UID_GROUP_CACHE_INIT;
	b->sub_mark = 0;
	b->invals = 0;
	b->inval_sent = 0;
	b->scope = 0;
	b->citus_call = false;
	/* on a worker, half the sessions are Citus's tasks (from the coordinator, or another worker) */
	b->task = sim->citus && s->role == ROLE_WORKER && rng_below(&sim->xrng, 2) == 0;
	b->busy = rng_below(&sim->sched, 6) == 0;
	b->late = rng_below(&sim->sched, 3) == 0;
	b->after = b->late ? -1 : server_mono_us(s);
	b->reload_time = s->reload_time;
	b->prop_reloads = s->reloads;
	b->known = s->reloads;
	b->sig_pending = false;
	b->sig_at = 0;
}

/* All of a server's processes die where they are; new backends start. */
void
server_backends_restart(int server)
{
	for (int j = 0; j < NWORKERS_MAX; j++)
		proc_alive(worker_of(server, j), false);
	for (int i = 0; i < sim->nbackends; i++)
		backend_start(&sim->backends[server * sim->nbackends + i], server);
}

/*
 * A new server life: the postmaster reads the files (an edit made ahead of
 * a handover's reload is not in them: the operator writes it on a running
 * server), its reload time is its start.
 */
void
server_new_live(Server *s)
{
	s->live_id = ++sim->next_live;
	s->signalled.value = 0;		/* the live state is built anew */
	s->incarnation = uid_incarnation_of(s->key, s->live_id, s->pm_start, 0, 0);
}

void
server_new_incarnation(Server *s)
{
	s->life = ++sim->next_incarnation << 32;
	s->pm_start = s->life;
	server_new_live(s);
	if (s->hostile)
	{
		s->files.partition = s->delivered.partition;
		s->hostile = false;
	}
	s->delivered = s->files;
	s->reload_time = server_unix_us(s);
	s->reloads++;
	s->reload_mono = 0;
	s->nseen = 0;
	server_seen(s, &s->delivered);
	s->life_since = -1;
}

/*
 * A state file made anew, as uid_state_create() makes it: the record of
 * live sequences begins at its first use, which takes it over from the
 * fence then (core/backfill.h, uid_used_take_over).
 */
void
file_init(SimFile *f, uint64 secret)
{
	memset(f, 0, sizeof(*f));
	f->secret = secret;
	f->ident.id = -1;
	f->used.value = 0;
	f->used_since.value = UID_USED_SINCE_FENCE;
	for (int i = 0; i < UID_FROM_WORDS; i++)
		f->from[i].value = UID_FROM_NONE;
	f->bf_kept.value = UID_KEPT_NONE;
}

/* A boot: the monotonic clock starts again, from an arbitrary value. */
void
server_boot(Server *s, uint64 r)
{
	s->boot_t = sim->t;
	s->mono_base = (int64) (r % 1000000000);
}

/* A server of the run at its start: its identity, key, file, clocks and files. */
void
server_setup(int i, uint64 seed, Rng *setup)
{
	Server	   *s = &sim->servers[i];

	s->ident = i;
	s->key = uid_mix64(seed * 8 + (uint64) i) | 1;
	file_init(&s->file, rng_next(setup));
	server_boot(s, rng_next(setup));
	server_set_clock(s, true_unix_us() + (int64) rng_below(setup, 2000000) - 1000000, 1, 1);
	if (!sim->citus)
	{
		s->files.partition = i;
		sim->owners[i] = 1 << i;
	}
	s->files.part = (int) rng_below(setup, NPARTS);
	s->files.bf = server_bf_pick(s, rng_next(setup));
	server_new_incarnation(s);
	server_backends_restart(i);
}

/*
 * The scheduler looks at the living processes it did not see ready: each
 * that wakes by t is ready, and ready_until is the earliest wake of the
 * others (INT64_MAX: none).
 */
void
sched_look(void)
{
	sim->ready_until = INT64_MAX;
	for (uint32 m = sim->alive_mask & ~sim->ready; m != 0; m &= m - 1)
	{
		int			k = __builtin_ctz(m);

		if (sim->wake_t[k] <= sim->t)
			sim->ready |= UINT32_C(1) << k;
		else
			sim->ready_until = Min(sim->ready_until, sim->wake_t[k]);
	}
}

/*
 * The types' tables at the start: snowflake_si's machine id (the bits its
 * index, the sim's sequence, leaves) and the types' identities
 * (codec/registry.h), some of the index width.
 */
void
types_setup(void)
{
	const TypeIdent idents[NTYPES] = {UID_TYPES(SIM_IDENT)};

	specs[T_SNOWFLAKE_SI].seq_max = snowflake_si_uin_max(SI_INDEX_BITS);
	memcpy(type_idents, idents, sizeof(idents));
}
