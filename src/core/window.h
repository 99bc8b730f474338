/*
 * core/window.h
 *		The window a leased identity allows: the rules of ident_lease.c's lease
 *		that decide which IDs a holder may issue, as plain functions, so
 *		that the server and the simulator (test/sim) apply the same ones.
 *
 * Two holders of one id never issue the same ID because their IDs' times
 * are disjoint (ident_lease.c says why, at length): a holder's IDs end at or
 * before its expiry, t0 + TTL by its own clock, t0 read before it asked the
 * coordinator; the next holder gets the id only after the coordinator's
 * expiry plus the grace G, and its IDs begin at or after its floor, t1, its
 * clock read after the claim returned.  That holds while each holder's
 * clock is within G/2 of the coordinator's; every claim and renewal
 * measures it, and a lease measured beyond the bound is not used.
 */
#ifndef UID_CORE_WINDOW_H
#define UID_CORE_WINDOW_H

#include "core/alloc.h"

/*
 * What a claim or renewal measured of this server's clock against the
 * coordinator's: the coordinator read c (its expiry less the TTL) after t0
 * and before t1 in real time, so this clock minus the coordinator's lay in
 * [t0 - c, t1 - c].  bound is half the coordinator's grace.
 */
typedef struct UidClockOffset
{
	int64		lo_us;
	int64		hi_us;
	uint64		bound_us;
} UidClockOffset;

static inline UidClockOffset
uid_window_measure(int64 t0, int64 t1, int64 coord_expiry_us, int64 ttl_us, int64 grace_us)
{
	int64		c = coord_expiry_us - ttl_us;
	UidClockOffset o;

	o.lo_us = t0 - c;
	o.hi_us = t1 - c;
	o.bound_us = (uint64) Max(grace_us, 0) / 2;
	return o;
}

/* How far the clock is surely off: the smallest |offset| the interval allows. */
static inline int64
uid_window_skew_us(const UidClockOffset *o)
{
	return Max(Max(o->lo_us, -o->hi_us), 0);
}

/* Measured further off than the bound: the lease is kept, and not used. */
static inline bool
uid_window_skewed(const UidClockOffset *o)
{
	return uid_window_skew_us(o) > (int64) o->bound_us;
}

/* Where a lease's IDs end: t0 + TTL, to the millisecond below (as it is stored). */
static inline uint64
uid_window_expiry(int64 t0, int64 ttl_us)
{
	return (uint64) (t0 + ttl_us) / 1000 * 1000;
}

typedef enum UidWindowVerdict
{
	UID_WINDOW_ISSUE,			/* the tick lies in the window */
	UID_WINDOW_RENEW,			/* it does, in the lease's second half: renew early */
	UID_WINDOW_RAISE,			/* it begins before the floor: raise the marks
								 * (uid_window_raise_to) and allocate again */
	UID_WINDOW_ACQUIRE			/* it ends past the expiry, or the lease is not
								 * usable: renew or claim, or refuse */
} UidWindowVerdict;

/*
 * May a tick be issued under a lease usable for this server (held, for its
 * key, not skewed) with floor, expiry and renewal time (this server's
 * clock, Unix us)?  Checked against the tick, not the clock: IDs dated
 * ahead of the clock (borrowed, or a fence) never pass the expiry.
 */
static inline UidWindowVerdict
uid_window_check(const UidClockSpec *spec, uint64 tick, bool usable,
				 uint64 floor_us, uint64 expiry_us, uint64 renew_at_us)
{
	uint64		end = uid_tick_end_us(spec, tick);

	if (!usable || end > expiry_us)
		return UID_WINDOW_ACQUIRE;
	if (end - (uint64) spec->tick_us < floor_us)
		return UID_WINDOW_RAISE;
	if (end > renew_at_us)
		return UID_WINDOW_RENEW;
	return UID_WINDOW_ISSUE;
}

/*
 * The fence that makes the next ticks begin at or after the floor: the
 * floor itself, since uid_fence_marks() marks used every tick that starts
 * before its fence.  (Before the lease covered tick starts, a fence marked
 * the ticks that end at or before it, and this added a tick less 1 us; kept
 * after that change, it dated a lease's first IDs a tick late: uid60's a
 * second, which TAP 023 and the simulator's "raise" check caught.)
 */
static inline uint64
uid_window_raise_to(const UidClockSpec *spec, uint64 floor_us)
{
	return floor_us;
}

#endif							/* UID_CORE_WINDOW_H */
