/*
 * core/pool.h
 *		The lease pool's rules for its coordinator's own failures: how a
 *		claim or renewal commits, when the pool has gone back in time, and
 *		what it hands out and renews until its hold ends.  Plain functions,
 *		so that the coordinator (src/pool_functions.sql, through pool.c's
 *		SQL functions) and the simulator (test/sim) apply the same ones.
 *
 * A claim or renewal is a promise its holder acts on at once: it makes IDs
 * under it as soon as the answer comes.  The pool's rows keep two holders
 * of one id apart (who holds it, until when), but only while the rows
 * never go back to a state older than an answer given:
 *
 * - A claim or renewal is answered only once it is durable: its commit
 *   waits for the WAL flush (and for a synchronous standby, if there is
 *   one), whatever the session says.
 * - A pool whose rows are older than answers it gave (a restored dump or
 *   backup, a failover to a standby that had not received them) may hand
 *   out again an id a server still holds.  Every claim and renewal records
 *   where it was written; one that finds the last written elsewhere (another
 *   cluster or database, or another timeline without a synchronous standby
 *   having waited) puts the pool on hold until every lease the lost history
 *   may have given has ended, plus the grace: until then no claim hands out
 *   an id, only leases its rows hold and that still run are renewed, and
 *   tokens start past every one the lost history may have given.
 */
#ifndef UID_CORE_POOL_H
#define UID_CORE_POOL_H

#include "core/platform.h"

/* synchronous_commit's levels, from the weakest guarantee to the strongest */
typedef enum UidCommitLevel
{
	UID_COMMIT_OFF,				/* answers before its WAL is flushed */
	UID_COMMIT_LOCAL,			/* flushed here, no standby waited for */
	UID_COMMIT_REMOTE_WRITE,	/* and written by the synchronous standbys */
	UID_COMMIT_ON,				/* and flushed there */
	UID_COMMIT_REMOTE_APPLY		/* and applied there */
} UidCommitLevel;

/*
 * The level a claim or renewal commits with, the session's being session:
 * never one that answers before the commit is flushed, nor one that leaves
 * out a synchronous standby that a failover may promote.
 */
static inline UidCommitLevel
uid_pool_commit_level(UidCommitLevel session)
{
	return session < UID_COMMIT_REMOTE_WRITE ? UID_COMMIT_ON : session;
}

/*
 * Has the pool gone back in time?  written: a claim or renewal was recorded
 * before; same_place: in this cluster and database; same_timeline: on this
 * timeline; synced: that write waited for a synchronous standby (so a
 * promotion, which changes the timeline, lost nothing of it).
 */
static inline bool
uid_pool_went_back(bool written, bool same_place, bool same_timeline, bool synced)
{
	return written && (!same_place || (!same_timeline && !synced));
}

/*
 * a + b in microseconds, held at int64's end on b's side where the sum is
 * past it: a time that far ahead is the end of time (timestamptz's
 * infinity), never one wrapped into the past.
 */
static inline int64
uid_pool_add_us(int64 a, int64 b)
{
	int64		sum;

	if (__builtin_add_overflow(a, b, &sum))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return sum;
}

/*
 * The longest time to live a claim or renewal gives (uid_pool_prepare's
 * check, since 0.4.0; the guard row came in 0.7.0): no lease outlasts it.
 */
#define UID_POOL_TTL_MAX_US (INT64_C(365) * 86400 * 1000000)

/*
 * When a hold found at now_us ends: once every lease the lost history gave
 * has ended (each at most the longest TTL the pool has given, ttl_us the
 * asking call's, from now; never past UID_POOL_TTL_MAX_US, which no lease
 * outlasts, whatever a row edited by hand says) and the grace has passed.
 * A hold that already ends later stands.
 */
static inline int64
uid_pool_hold_end(int64 now_us, int64 max_ttl_us, int64 ttl_us, int64 grace_us, int64 hold_us)
{
	int64		ttl = Min(Max(max_ttl_us, ttl_us), UID_POOL_TTL_MAX_US);
	int64		end = uid_pool_add_us(uid_pool_add_us(now_us, ttl), grace_us);

	return Max(end, hold_us);
}

/*
 * The claims' count once a hold begins: past every token the lost history
 * may have given (a count, far below the clock's microseconds), so that no
 * token after it repeats one of those, which would renew another's lease.
 */
static inline int64
uid_pool_token_floor(int64 claims, int64 now_us)
{
	return Max(claims, now_us);
}

/* Does a claim hand out an id at now_us?  Not while the pool is on hold. */
static inline bool
uid_pool_hands_out(int64 now_us, int64 hold_us)
{
	return hold_us <= now_us;
}

/*
 * Is a lease that the pool's rows hold (the token's, not released) renewed
 * at now_us?  On hold only while it runs: the lost history may have handed
 * the id of an expired one to another holder.
 */
static inline bool
uid_pool_renews(int64 now_us, int64 expires_us, int64 hold_us)
{
	return hold_us <= now_us || expires_us > now_us;
}

/*
 * Does a claim take back a lease of the pool rather than another id?  A
 * live lease (not released, not expired) of the claimant's own key: one of
 * its claims that it gave up waiting for (or whose backend died) and that
 * committed, which would otherwise hold an id nobody uses until it expires.
 */
static inline bool
uid_pool_reclaims(bool same_key, bool released, int64 expires_us, int64 now_us)
{
	return same_key && !released && expires_us > now_us;
}

#endif							/* UID_CORE_POOL_H */
