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
#include "libpq/pqsignal.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/timestamp.h"

#include "core/record.h"
#include "guc.h"
#include "guc_coordinator.h"
#include "published.h"
#include "reload.h"
#include "sno_ranges.h"
#include "state.h"

UID_HIDDEN UidRecord uid_rec;
UID_HIDDEN uint64 uid_rec_word = UINT64_MAX;
UID_HIDDEN TimestampTz uid_rec_reload_seen = -1;

/* How long a process waits for a settings worker to publish. */
#define UID_REC_WAIT_US INT64CONST(5000000)
/* After a refresh that did not happen, the next is tried this much later. */
#define UID_REC_RETRY_US INT64CONST(1000000)

static int64 retry_after = 0;	/* monotonic us */
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
		r = uid_record_publish(&uid_state->rec, p, self);
		if (r != UID_PUB_BUSY)
			break;
		pg_usleep(1000);
	}
	if (r == UID_PUB_TAKEN && p->kept)
		ereport(LOG,
				(errmsg("uid: the configuration reloaded at %s gives a uid setting an invalid value: IDs keep the settings in force",
						timestamptz_to_str(p->reload_time - PG_EPOCH_UNIX_US)),
				 errhint("Correct it and reload the configuration; the server log says which setting and why.")));
	if (r == UID_PUB_TAKEN)
	{
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
 * in force answers, the worker is gone, or UID_REC_WAIT_US passed.
 */
static void
uid_rec_refresh(const UidRecordNeed *need)
{
	UidRecordShared *s = &uid_state->rec;
	BackgroundWorkerHandle *handle = NULL;
	int64		now = uid_plat_mono_us();
	int64		deadline = now + UID_REC_WAIT_US;
	int64		inflight = (int64) pg_atomic_read_u64(&s->requested);

	/*
	 * Join a request in flight that answers this need: made after it, and
	 * less than UID_REC_WAIT_US ago.  The word is on the monotonic clock of
	 * the boot that wrote it: one ahead of now is of an earlier boot (or
	 * another machine's, in a copy) and is ignored.
	 */
	if (!(inflight > need->after && inflight <= now && now - inflight < UID_REC_WAIT_US))
	{
		if (!uid_rec_start_worker(now, &handle))
		{
			if (!noted_no_slot)
				ereport(LOG,
						(errmsg("uid: no background worker slot free for a settings worker"),
						 errdetail("IDs keep the settings record in force; the next call tries again in a second."),
						 errhint("Raise \"max_worker_processes\" if this recurs.")));
			noted_no_slot = true;
			return;
		}
		noted_no_slot = false;
		/* the request in flight, for others to join (a hint: last one wins) */
		pg_atomic_write_u64(&s->requested, (uint64) now);
	}
	for (;;)
	{
		UidRecord	in_force;
		pid_t		pid;

		(void) uid_record_read(s, &in_force);
		if (uid_record_plan(&in_force, need) == UID_PLAN_USE)
			return;
		/* gone: it published or it failed (the caller looks once more) */
		if (handle != NULL)
		{
			BgwHandleStatus st = GetBackgroundWorkerPid(handle, &pid);

			if (st != BGWH_STARTED && st != BGWH_NOT_YET_STARTED)
				return;
		}
		if (uid_plat_mono_us() > deadline)
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 2,
						 PG_WAIT_EXTENSION);
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
	uid_reload_need(&need->after, &need->reload_time);
	if (need->reload_time >= 0)
		need->reload_time += PG_EPOCH_UNIX_US;
}

static uint64
uid_rec_adopt(const UidRecord *r, uint64 word)
{
	uid_rec = *r;
	uid_rec_word = word;
	uid_rec_reload_seen = PgReloadTime;
	return word;
}

uint64
uid_rec_sync_slow(void)
{
	UidRecordShared *s;
	UidRecordNeed need;
	UidRecord	in_force;
	uint64		word;

	if (uid_state == NULL)
		uid_state_attach();
	s = &uid_state->rec;
	uid_rec_need(&need);
	word = uid_record_read(s, &in_force);

	/*
	 * A standby or a read-only transaction makes no ID: the generator
	 * refuses (uid_gen_slot) before it uses the copy; no worker for it.
	 */
	if (RecoveryInProgress() || XactReadOnly)
	{
		(void) uid_rec_adopt(&in_force, word);
		uid_rec_reload_seen = -1;
		return word;
	}
	switch (uid_record_plan(&in_force, &need))
	{
		case UID_PLAN_USE:
			return uid_rec_adopt(&in_force, word);
		case UID_PLAN_PUBLISH_OWN:
			{
				UidRecord	own;

				uid_rec_own(&own, need.own, uid_plat_mono_us());
				(void) uid_rec_publish(&own);
				word = uid_record_read(s, &in_force);
				if (uid_record_plan(&in_force, &need) == UID_PLAN_USE)
					return uid_rec_adopt(&in_force, word);
				break;
			}
		case UID_PLAN_REFRESH:
			if (uid_plat_mono_us() >= retry_after)
			{
				uid_rec_refresh(&need);
				word = uid_record_read(s, &in_force);
				if (uid_record_plan(&in_force, &need) == UID_PLAN_USE)
					return uid_rec_adopt(&in_force, word);
				retry_after = uid_plat_mono_us() + UID_REC_RETRY_US;
			}
			break;
		case UID_PLAN_REFUSE:
			break;
	}

	/*
	 * Not refreshed: the record in force stays in force if it is this
	 * server life's, and the next call (after UID_REC_RETRY_US) tries again.
	 * With none of this life (a start, every worker slot taken), a session
	 * whose values are still those it inherited from the postmaster
	 * publishes them, as a worker forked with it would have.
	 */
	if (uid_record_fallback(&in_force, &need) == UID_PLAN_PUBLISH_OWN)
	{
		UidRecord	own;

		uid_rec_own(&own, UID_SOURCE_INHERITED, 0);
		(void) uid_rec_publish(&own);
		word = uid_record_read(s, &in_force);
	}
	if (uid_record_usable(&in_force, need.life))
	{
		(void) uid_rec_adopt(&in_force, word);
		uid_rec_reload_seen = -1;	/* the slow path again next time */
		return word;
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
	uint64		invals = uid_citus_invals;

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
