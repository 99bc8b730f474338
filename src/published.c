/*
 * published.c
 *		The server's settings record in the server: keeping this process's
 *		copy current, the settings worker that publishes the postmaster's
 *		values, and a single-user server's own.
 *
 * What an ID embeds (every type's identity settings, sno's live and
 * back-fill ranges, whether the identity is leased) is the record in force
 * in the state file, never this process's own settings: those may hold an
 * edit of the configuration files that no reload delivered (a process
 * takes a reload at its own moment, reading the files as they are then), a
 * startup option, or a role's or database's setting.  The rule is
 * core/record.c's; doc/design.md ("Settings") says why it cannot take an
 * unreloaded value, and the simulator checks it.
 *
 * The record is published by a settings worker: a dynamic background worker
 * that the postmaster forks (no shared_preload_libraries needed), so that
 * its values are the postmaster's, which are by definition what the last
 * reload delivered.  It connects to no database (no role's or database's
 * settings), takes no startup options and re-reads no file; it loads uid,
 * publishes what it inherited, and exits.  A process starts one when the
 * record in force does not answer the last reload it took (or it has none
 * of this server life), and waits for it, a few milliseconds.  With no
 * worker slot free, or none publishing in time, the record in force stays
 * in force and the next call tries again; only a record of an earlier
 * server life (a restart may have changed the settings) is refused.
 */
#include "postgres.h"

#include <signal.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "codec/registry.h"
#include "common/int.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqsignal.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "core/alloc.h"
#include "core/record.h"
#include "guc.h"
#include "guc_coordinator.h"
#include "published.h"
#include "sql_api.h"
#include "reload.h"
#include "sno_ranges.h"
#include "state.h"

UID_HIDDEN UidRecord uid_rec;
UID_HIDDEN uint64 uid_rec_word = UINT64_MAX;
UID_HIDDEN TimestampTz uid_rec_reload_seen = -1;
UID_HIDDEN uint32 uid_rec_signals_seen = 0;

/* How long a process waits for a settings worker to publish. */
#define UID_REC_WAIT_US INT64CONST(5000000)
/* A request in flight is joined while younger than this; then another is made. */
#define UID_REC_JOIN_US INT64CONST(1000000)
/* After a refresh that did not happen, the next is tried this much later. */
#define UID_REC_RETRY_US INT64CONST(1000000)

static int64 retry_after = 0;	/* monotonic us */

/* How a refresh ended. */
typedef enum UidRefresh
{
	UID_REFRESH_DONE,			/* the record in force answers the need */
	UID_REFRESH_NO_SLOT,		/* no worker slot was free */
	UID_REFRESH_NOT_PUBLISHED,	/* no worker published an answer in time */
} UidRefresh;
static bool noted_no_slot = false;	/* logged once until a worker starts */


/*
 * The server life a record is of: the postmaster's (its start and pid) with
 * the shared state's.  A shared state read again from the state file in
 * one postmaster life (its shared memory removed, state.c) holds the
 * record of the file's last write, perhaps of an earlier reload: it is not
 * taken for one of this life, and a record is published anew.
 */
static uint64
uid_rec_life(void)
{
	if (uid_state == NULL)
		uid_state_attach();
	return uid_mix64(uid_pm_key() ^ uid_mix64(uid_state_live_id())) | 1;
}

/* This process's own values, as a proposal from source. */
static void
uid_rec_own(UidRecord *p, UidRecordSource source, int64 requested)
{
	UidSnoRanges r = {uid_sno_sequence_min, uid_sno_sequence_max,
	uid_sno_backfill_min, uid_sno_backfill_max};
	uint64		refused = 0;

	for (int bit = 0; bit < UID_NSETTINGS; bit++)
		if ((uid_settings_refused & (1u << bit)) && uid_settings[bit].identity)
			refused |= UINT64CONST(1) << uid_rec_field_of(bit);
	if (uid_settings_refused & ((1u << UID_SET_SNO_SEQUENCE_MIN) | (1u << UID_SET_SNO_SEQUENCE_MAX)))
		refused |= UINT64CONST(1) << UID_REC_SNO_RANGES;
	/* a refused back-fill end publishes back-fill off */
	if (uid_settings_refused & ((1u << UID_SET_SNO_BACKFILL_MIN) | (1u << UID_SET_SNO_BACKFILL_MAX)))
	{
		r.backfill_min = r.backfill_max = -1;
		refused |= UID_REC_REFUSED_BACKFILL;
	}
	if (uid_settings_refused & (1u << UID_SET_COORDINATOR))
		refused |= UINT64CONST(1) << UID_REC_LEASED;
	memset(p, 0, sizeof(*p));
	p->life = uid_rec_life();
	p->requested = requested;
	/* Unix us, as published_us (core/record.c compares the two) */
	p->reload_time = PgReloadTime + PG_EPOCH_UNIX_US;
	p->published_us = uid_plat_unix_us();
	p->source = source;
	/* left at the built-in default: -1, not set by hand (source.c) */
	p->values[UID_REC_GENERATOR] = uid_setting_is_default(UID_SET_GENERATOR) ? -1 : uid_generator;
	p->values[UID_REC_CLUSTER] = uid_setting_is_default(UID_SET_CLUSTER) ? -1 : uid_cluster;
	p->values[UID_REC_PARTITION] = uid_partition;
	p->values[UID_REC_MEDALLION] = uid_medallion_value;
	p->values[UID_REC_EPOCH_MS] = uid_snowflake_si_epoch_ms;
	p->values[UID_REC_INDEX_BITS] = uid_snowflake_si_index_bits;
	p->values[UID_REC_SNO_RANGES] = (int64) uid_sno_ranges_enc(&r);
	p->values[UID_REC_LEASED] = uid_ident_leased ? 1 : 0;
	p->values[UID_REC_LEASE_KEY] = (int64) uid_lease_settings_key();
	p->values[UID_REC_REFUSED] = (int64) refused;
}

/*
 * A record was published: if sno's ranges changed, note the switch for
 * sno_range(): the ranges before, when, and the highest sno tick issued
 * under them (the marks read after the switch, + 1; a sno_new() that
 * allocated under the old record does not hand its ID out).
 */
static void
uid_rec_note_switch(const UidRecord *was, const UidRecord *now)
{
	UidSnoConfig *c = &uid_state->sno_cfg;
	uint64		before = was->gen != 0 && was->life == now->life ?
		(uint64) was->values[UID_REC_SNO_RANGES] : 0;
	uint64		after = (uint64) now->values[UID_REC_SNO_RANGES];
	uint64		marks;
	UidSnoRanges b;
	UidSnoRanges a;

	if (before == after)
		return;
	pg_atomic_write_u64(&c->previous_until, 0);
	pg_atomic_write_u64(&c->previous, before);
	pg_atomic_write_u64(&c->taken_us, (uint64) now->published_us);
	pg_memory_barrier();
	marks = uid_sno_marks_tick();
	pg_atomic_write_u64(&c->previous_until, before == 0 || marks == 0 ? 0 : marks + 1);
	if (before == 0)
		return;
	uid_sno_ranges_dec(before, &b);
	uid_sno_ranges_dec(after, &a);
	ereport(LOG,
			(errmsg("uid: sno issues from live range %d..%d and back-fill range %s, taken from the configuration reloaded at %s",
					a.live_min, a.live_max, uid_sno_range_text(a.backfill_min, a.backfill_max),
					timestamptz_to_str(now->reload_time - PG_EPOCH_UNIX_US)),
			 errdetail("Before: live range %d..%d, back-fill range %s.",
					   b.live_min, b.live_max, uid_sno_range_text(b.backfill_min, b.backfill_max))));
}

/*
 * The first record of a server life: if the last one of the life before
 * gave IDs another identity, the log says what changed.  A start applies
 * whatever the files hold, an ALTER SYSTEM written for a later reload too.
 */
static void
uid_rec_note_start(const UidRecord *was, const UidRecord *now)
{
	static const char *const names[UID_REC_NFIELDS] = {
		[UID_REC_GENERATOR] = "uid.generator",
		[UID_REC_CLUSTER] = "uid.cluster",
		[UID_REC_PARTITION] = "uid.partition",
		[UID_REC_MEDALLION] = "uid.medallion",
		[UID_REC_EPOCH_MS] = "uid.snowflake_si_epoch",
		[UID_REC_INDEX_BITS] = "uid.snowflake_si_index_bits",
		[UID_REC_SNO_RANGES] = "sno's ranges",
		[UID_REC_LEASED] = "uid.coordinator",
		[UID_REC_LEASE_KEY] = "the lease pool",
		[UID_REC_REFUSED] = "the values refused",
	};
	StringInfoData changed;

	if (was->gen == 0 || was->life == now->life || uid_record_same_identity(was, now))
		return;
	initStringInfo(&changed);
	for (int i = 0; i < UID_REC_NFIELDS; i++)
		if (was->values[i] != now->values[i])
			appendStringInfo(&changed, "%s%s", changed.len > 0 ? ", " : "", names[i]);
	ereport(LOG,
			(errmsg("uid: this start changed what IDs carry: %s", changed.data),
			 errdetail("The last settings of the server's life before were published at %s; a start applies what the configuration files hold, values written with ALTER SYSTEM for a later reload included.",
					   timestamptz_to_str(was->published_us - PG_EPOCH_UNIX_US)),
			 errhint("uid_config() shows what IDs carry now.")));
}

/* Publishes p from this process; a living publisher is waited for, a while. */
static UidPublishResult
uid_rec_publish(UidRecord *p)
{
	uint64		self = uid_record_self(p->life, (uint32) MyProcPid);
	UidRecord	was;
	UidPublishResult r = UID_PUB_BUSY;

	for (int i = 0; i < 1000; i++)
	{
		(void) uid_record_read(&uid_state->rec, &was);
		r = uid_record_publish(&uid_state->rec, p, self, uid_state_signalled());
		if (r != UID_PUB_BUSY)
			break;
		pg_usleep(1000);
	}
	if (r == UID_PUB_TAKEN && p->kept)
		ereport(LOG,
				(errmsg("uid: the configuration reloaded at %s gives a uid setting an invalid value: IDs keep the settings in force",
						timestamptz_to_str(p->reload_time - PG_EPOCH_UNIX_US)),
				 errhint("Correct it and reload the configuration; the server log says which setting and why.")));
	if (r == UID_PUB_OLDER || r == UID_PUB_STALE)
		ereport(DEBUG1,
				(errmsg("uid: the settings of the configuration reloaded at %s were not published",
						timestamptz_to_str(p->reload_time - PG_EPOCH_UNIX_US)),
				 r == UID_PUB_STALE ?
				 errdetail("A reload signal came after the request this process answers: its values may be of an earlier reload.") :
				 errdetail("The record in force (published at %s) answers a later request.",
						   timestamptz_to_str(was.published_us - PG_EPOCH_UNIX_US)),
				 errhint("The process that asked starts another settings worker.")));
	if (r == UID_PUB_TAKEN)
	{
		uid_rec_note_start(&was, p);
		uid_rec_note_switch(&was, p);
		ereport(DEBUG1,
				(errmsg_internal("uid: settings record " UINT64_FORMAT " published from %s, reloaded at %s",
								 p->gen,
								 p->source == UID_SOURCE_SINGLE_USER ? "a single-user server" :
								 p->source == UID_SOURCE_INHERITED ? "a session's values inherited from the postmaster" :
								 "the postmaster",
								 timestamptz_to_str(p->reload_time - PG_EPOCH_UNIX_US))));
	}
	return r;
}

/*
 * The settings worker: forked by the postmaster, so its settings are the
 * postmaster's; publishes them as the answer to the request in bgw_extra.
 */
void
uid_settings_worker(Datum arg)
{
	int64		requested;
	UidRecord	p;

	/*
	 * Every signal but SIGHUP: a reload signal stays pending, and says that
	 * the postmaster reloaded since this worker was forked (core/record.c).
	 */
	{
		sigset_t	mask = UnBlockSig;

		sigaddset(&mask, SIGHUP);
		sigprocmask(SIG_SETMASK, &mask, NULL);
	}
	memcpy(&requested, MyBgworkerEntry->bgw_extra, sizeof(requested));
	uid_state_attach();
	uid_rec_own(&p, UID_SOURCE_POSTMASTER, requested);
	(void) uid_rec_publish(&p);
}

/* Starts a settings worker for a request made at requested; false if none could start. */
static bool
uid_rec_start_worker(int64 requested, BackgroundWorkerHandle **handle)
{
	BackgroundWorker w;

	memset(&w, 0, sizeof(w));
	snprintf(w.bgw_name, BGW_MAXLEN, "uid settings worker");
	snprintf(w.bgw_type, BGW_MAXLEN, "uid settings worker");
	w.bgw_flags = BGWORKER_SHMEM_ACCESS;
	w.bgw_start_time = BgWorkerStart_PostmasterStart;
	w.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(w.bgw_library_name, sizeof(w.bgw_library_name), "$libdir/uid");
	snprintf(w.bgw_function_name, sizeof(w.bgw_function_name), "uid_settings_worker");
	w.bgw_main_arg = (Datum) 0;
	memcpy(w.bgw_extra, &requested, sizeof(requested));
	w.bgw_notify_pid = MyProcPid;
	return RegisterDynamicBackgroundWorker(&w, handle);
}

/*
 * Makes the record answer need: starts a settings worker (or joins one
 * started for a later request than need asks) and waits until the record
 * in force answers or deadline (monotonic us) passes.  A worker gone
 * without publishing an answer (a reload signal came after its request, a
 * failure) is followed by another.  With no slot free, tries again every
 * 10 ms if wait_for_slot, else gives up at once.  Returns UID_REFRESH_DONE
 * if the record answers.
 */
static UidRefresh
uid_rec_refresh(const UidRecordNeed *need, int64 deadline, bool wait_for_slot)
{
	UidRecordShared *s = &uid_state->rec;
	BackgroundWorkerHandle *handle = NULL;
	UidRefresh	why = UID_REFRESH_NOT_PUBLISHED;

	for (;;)
	{
		UidRecord	in_force;
		int64		now = uid_plat_mono_us();
		pid_t		pid;

		(void) uid_record_read(s, &in_force);
		if (uid_record_plan(&in_force, need) == UID_PLAN_USE)
			return UID_REFRESH_DONE;
		if (handle != NULL)
		{
			BgwHandleStatus st = GetBackgroundWorkerPid(handle, &pid);

			/* gone: it published, or could not; the record is read again first */
			if (st != BGWH_STARTED && st != BGWH_NOT_YET_STARTED)
			{
				pfree(handle);
				handle = NULL;
				continue;
			}
		}
		else
		{
			int64		inflight = (int64) pg_atomic_read_u64(&s->requested);

			/*
			 * Join a request in flight that answers this need: made after
			 * it, and less than UID_REC_JOIN_US ago (the word is on the
			 * monotonic clock of the boot that wrote it: one ahead of now
			 * is of an earlier boot, or another machine's, in a copy).  Its
			 * requester starts another if it fails.
			 */
			bool		joined = inflight > uid_record_need_after(need) && inflight <= now &&
				now - inflight < UID_REC_JOIN_US;

			/*
			 * Made after the need's time, even within its microsecond: the
			 * worker is forked later still.
			 */
			int64		req = Max(now, uid_record_need_after(need) + 1);

			if (!joined && uid_rec_start_worker(req, &handle))
			{
				noted_no_slot = false;
				/* the request in flight, for others to join (a hint: last one wins) */
				pg_atomic_write_u64(&s->requested, (uint64) req);
			}
			else if (!joined)
			{
				if (!noted_no_slot)
					ereport(LOG,
							(errmsg("uid: no background worker slot free for a settings worker"),
							 errdetail("Sessions that took a reload changing no uid setting make IDs with the settings record in force; the others wait for a slot, then refuse."),
							 errhint("Raise \"max_worker_processes\" if this recurs.")));
				noted_no_slot = true;
				why = UID_REFRESH_NO_SLOT;
				if (!wait_for_slot)
					return why;
			}
		}
		if (now > deadline)
			return handle != NULL ? UID_REFRESH_NOT_PUBLISHED : why;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 handle != NULL ? 2 : 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/* What this process needs of the record (core/record.h). */
static void
uid_rec_need(UidRecordNeed *need)
{
	need->life = uid_rec_life();
	need->own = IsUnderPostmaster ? UID_SOURCE_SESSION : UID_SOURCE_SINGLE_USER;
	need->overridden = uid_settings_overridden;
	need->parallel = IsParallelWorker();
	uid_reload_need(&need->after, &need->signalled, &need->reload_time, &need->pending);
	if (need->reload_time >= 0)
		need->reload_time += PG_EPOCH_UNIX_US;
}

static uint64
uid_rec_adopt(const UidRecord *r, uint64 word, uint32 signals)
{
	uid_rec = *r;
	uid_rec_word = word;
	uid_rec_reload_seen = PgReloadTime;
	uid_rec_signals_seen = signals;
	return word;
}

/*
 * This process's own values as a proposal beside the record in force, the
 * refused ones kept as a publication would keep them (uid_record_fallback).
 */
static void
uid_rec_own_beside(const UidRecord *in_force, UidRecord *own)
{
	uid_rec_own(own, UID_SOURCE_SESSION, 0);
	uid_record_keep_refused(in_force, own);
}

uint64
uid_rec_sync_slow(void)
{
	UidRecordShared *s;
	UidRecordNeed need;
	UidRecord	in_force;
	UidRecord	own;
	uint64		word;
	uint32		signals;
	UidRefresh	refresh = UID_REFRESH_DONE;
	UidRecordPlan fallback;

	if (uid_state == NULL)
		uid_state_attach();
	s = &uid_state->rec;
	/* counted before the need is read: a signal that comes later is seen next time */
	signals = uid_reload_signals;
	pg_compiler_barrier();
	uid_rec_need(&need);
	word = uid_record_read(s, &in_force);

	/*
	 * A standby or a read-only transaction makes no ID: the generator
	 * refuses (uid_gen_slot) before it uses the copy; no worker for it.
	 */
	if (RecoveryInProgress() || XactReadOnly)
	{
		(void) uid_rec_adopt(&in_force, word, signals);
		uid_rec_reload_seen = -1;
		return word;
	}
	switch (uid_record_plan(&in_force, &need))
	{
		case UID_PLAN_USE:
			return uid_rec_adopt(&in_force, word, signals);
		case UID_PLAN_PUBLISH_OWN:
			uid_rec_own(&own, need.own, uid_plat_mono_us());
			(void) uid_rec_publish(&own);
			word = uid_record_read(s, &in_force);
			if (uid_record_plan(&in_force, &need) == UID_PLAN_USE)
				return uid_rec_adopt(&in_force, word, signals);
			break;
		case UID_PLAN_REFRESH:

			/*
			 * Where the record in force would be refused, wait for a slot
			 * too, and try every call; where it would be used (the reload
			 * changed nothing it holds), once a second.
			 */
			uid_rec_own_beside(&in_force, &own);
			fallback = uid_record_fallback(&in_force, &need, &own);
			if (fallback == UID_PLAN_REFUSE || uid_plat_mono_us() >= retry_after)
			{
				refresh = uid_rec_refresh(&need, uid_plat_mono_us() + UID_REC_WAIT_US,
										  fallback == UID_PLAN_REFUSE);
				word = uid_record_read(s, &in_force);
				if (uid_record_plan(&in_force, &need) == UID_PLAN_USE)
					return uid_rec_adopt(&in_force, word, signals);
				retry_after = uid_plat_mono_us() + UID_REC_RETRY_US;
			}
			break;
		case UID_PLAN_REFUSE:
			break;
	}

	/*
	 * Not refreshed.  The record in force, if it is this server life's and
	 * the reload changed none of it as this process read it; else, with
	 * none of this life (a start, every worker slot taken), a session whose
	 * values are still those it inherited from the postmaster publishes
	 * them, as a worker forked with it would have.
	 */
	uid_rec_own_beside(&in_force, &own);
	fallback = uid_record_fallback(&in_force, &need, &own);
	if (fallback == UID_PLAN_PUBLISH_OWN)
	{
		UidRecord	inherited;

		uid_rec_own(&inherited, UID_SOURCE_INHERITED, 0);
		(void) uid_rec_publish(&inherited);
		word = uid_record_read(s, &in_force);
		uid_rec_own_beside(&in_force, &own);
		fallback = uid_record_fallback(&in_force, &need, &own);
	}
	if (fallback == UID_PLAN_USE)
	{
		(void) uid_rec_adopt(&in_force, word, signals);
		uid_rec_reload_seen = -1;	/* the slow path again next time */
		return word;
	}
	if (uid_record_usable(&in_force, need.life))
	{
		/*
		 * Refused: a reload this process received is not in the record,
		 * and it cannot tell that the reload left the identity the record
		 * gives: another server may hold that identity now.
		 */
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid could not publish the server's settings of its last reload"),
				 refresh == UID_REFRESH_NO_SLOT ?
				 errdetail("No background worker slot was free for a settings worker for %d s, and %s.",
						   (int) (UID_REC_WAIT_US / 1000000),
						   need.pending ? "this session has not taken the reload yet (a statement or a procedure that began before it), so it cannot tell whether the reload changed the identity its IDs carry" :
						   "this session's values, as the reload gave them, differ from those IDs carry now") :
				 errdetail("No settings worker published them within %d s, and %s.",
						   (int) (UID_REC_WAIT_US / 1000000),
						   need.pending ? "this session has not taken the reload yet (a statement or a procedure that began before it), so it cannot tell whether the reload changed the identity its IDs carry" :
						   "this session's values, as the reload gave them, differ from those IDs carry now"),
				 errhint("Free or add a \"max_worker_processes\" slot, or end a stalled \"uid settings worker\", and try again; uid_reload() reloads and returns once the settings are published. See doc/settings.md.")));
	}
	/*
	 * Refused: the record in force is of an earlier server life (a restart
	 * may have given this server another identity, which another server
	 * may hold now), and this session's own values may be a startup
	 * option's, a role's or database's, an edit no reload delivered, or a
	 * leader's: either could repeat another server's IDs.  Each reason is
	 * a detail of its own; how the settings worker publishes is the
	 * manual's, which the hint names.
	 */
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("uid could not read the server's settings since it started"),
			 need.parallel ?
			 errdetail("No settings worker has published them yet, and a parallel worker cannot stand in with its leader's values.") :
			 need.overridden ?
			 errdetail("No settings worker has published them yet, and this session cannot stand in: it set uid settings of its own (a startup option, a role's or a database's setting).") :
			 errdetail("No settings worker has published them yet, and this session cannot stand in: it took a reload, which may hold edits of the configuration files that no reload delivered."),
			 errhint("Connect without uid settings of your own and make an ID, or free a \"max_worker_processes\" slot; see doc/settings.md.")));
}

/* The longest tick of any type (codec/registry.h's clocks), in microseconds. */
static int64
uid_rec_longest_tick_us(void)
{
#define UID_REC_CLOCK(ID, name, slot, len, words, clock, ...) {UID_CLOCK_FIELDS(clock)},
	static const UidClockSpec clocks[] = {UID_TYPES(UID_REC_CLOCK)};
#undef UID_REC_CLOCK
	int64		longest = 0;

	for (size_t i = 0; i < lengthof(clocks); i++)
		longest = Max(longest, clocks[i].tick_us);
	return longest;
}

/*
 * uid_reload(timeout): reloads the server's configuration and returns once
 * the settings record holds what the reload delivered, so that every process
 * of the server makes its next ID with it (each ID checks the record it was
 * made under, uid_rec_still), or fails with the reason.  Returns a time
 * every ID made with the settings before it is dated before: the lease
 * (every ID's tick starts before it) once the record is published, plus the
 * longest tick.  Another server may take an identity this reload gave up
 * once its clock is past that.  A standby makes no IDs: it reloads and
 * returns NULL.
 */
PG_FUNCTION_INFO_V1(uid_reload);
Datum
uid_reload(PG_FUNCTION_ARGS)
{
	Interval   *timeout = PG_GETARG_INTERVAL_P(0);
	int64		timeout_us;
	int64		deadline;
	uint32		before;
	int64		start_unix;
	UidRecordNeed need;
	UidRecord	in_force;
	UidRefresh	refresh;
	uint64		lease_us;

	timeout_us = uid_interval_us(timeout);	/* saturates, never wraps */
	if (timeout_us <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uid_reload() needs a positive timeout")));
	if (uid_state == NULL)
		uid_state_attach();
	uid_reload_init();
	if (pg_add_s64_overflow(uid_plat_mono_us(), timeout_us, &deadline))
		deadline = PG_INT64_MAX;
	start_unix = uid_plat_unix_us();
	before = uid_reload_signals;
	pg_compiler_barrier();
	if (kill(PostmasterPid, SIGHUP) != 0)
		ereport(ERROR,
				(errmsg("could not send a reload signal to the postmaster: %m")));

	/*
	 * The postmaster reads the files, then signals every child, this
	 * backend too: its signal says the reload happened.
	 */
	while (uid_reload_signals == before)
	{
		if (uid_plat_mono_us() > deadline)
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("the postmaster did not reload within the timeout")));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (RecoveryInProgress())
		PG_RETURN_NULL();

	for (;;)
	{
		int64		second;

		uid_rec_need(&need);
		refresh = uid_rec_refresh(&need, deadline, true);
		(void) uid_record_read(&uid_state->rec, &in_force);
		if (refresh != UID_REFRESH_DONE || in_force.reload_time >= start_unix)
			break;

		/*
		 * The postmaster's reload ended before this call began: the signal
		 * was of another session's reload, under way when this one's came,
		 * which the postmaster then takes as a reload of its own.  Its
		 * signal comes within a second, or there is none (a wall clock
		 * stepped back since makes a later reload look earlier).
		 */
		before = uid_reload_signals;
		second = Min(deadline, uid_plat_mono_us() + INT64CONST(1000000));
		while (uid_reload_signals == before && uid_plat_mono_us() < second)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
							 PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		if (uid_reload_signals == before)
			break;
	}
	if (refresh != UID_REFRESH_DONE || uid_record_plan(&in_force, &need) != UID_PLAN_USE)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the reload's uid settings were not published within the timeout"),
				 refresh == UID_REFRESH_NO_SLOT ?
				 errdetail("No background worker slot was free for a settings worker.") :
				 errdetail("No settings worker published them (one may be stalled, or each was overtaken by another reload)."),
				 errhint("The reload happened: sessions that took it and whose values changed refuse to make IDs until the settings are published. Free a \"max_worker_processes\" slot and call uid_reload() again.")));
	if (in_force.kept)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the reload gave a uid setting an invalid value: IDs keep the settings in force"),
				 errdetail("The server log says which setting and why; uid_config() shows what IDs carry."),
				 errhint("Correct it and call uid_reload() again.")));
	pg_memory_barrier();
	lease_us = pg_atomic_read_u64(&uid_state->lease.lease_us);
	PG_RETURN_TIMESTAMPTZ((TimestampTz) (Max(lease_us, (uint64) uid_plat_unix_us()) +
										 (uint64) uid_rec_longest_tick_us()) - PG_EPOCH_UNIX_US);
}

bool
uid_rec_leased(void)
{
	(void) uid_rec_sync();
	if (uid_rec.gen == 0 || uid_rec.life != uid_rec_life())
		return uid_ident_leased;
	return uid_rec_value(UID_REC_LEASED) != 0;
}

void
uid_rec_refused_error(int bit)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the server's value of \"%s\" is invalid", uid_settings[bit].name),
			 errdetail("IDs are not made with the built-in default in its place."),
			 errhint("Correct it and reload the configuration; the server log says why.")));
}

int64
uid_per_record_slow(UidPerRecord *c, int64 (*work_out) (void))
{
	/* counted before: a node group that changes while read is read again */
	uint64		invals = uid_ident_invals;

	c->word = UINT64_MAX;
	c->value = work_out();
	c->invals = invals;
	c->word = uid_rec_word;
	return c->value;
}

UidRecordField
uid_rec_field_of(int bit)
{
	switch (bit)
	{
		case UID_SET_GENERATOR:
			return UID_REC_GENERATOR;
		case UID_SET_CLUSTER:
			return UID_REC_CLUSTER;
		case UID_SET_PARTITION:
			return UID_REC_PARTITION;
		case UID_SET_MEDALLION:
			return UID_REC_MEDALLION;
		case UID_SET_EPOCH:
			return UID_REC_EPOCH_MS;
		case UID_SET_INDEX_BITS:
			return UID_REC_INDEX_BITS;
		case UID_SET_SNO_SEQUENCE_MIN:
		case UID_SET_SNO_SEQUENCE_MAX:
			return UID_REC_SNO_RANGES;
		case UID_SET_COORDINATOR:
			return UID_REC_LEASED;
	}
	elog(ERROR, "uid: setting %d is not in the settings record", bit);
	pg_unreachable();
}
