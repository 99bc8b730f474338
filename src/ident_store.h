/*
 * ident_store.h
 *		The leased identity as the state file keeps it (ident_store.c).
 */
#ifndef UID_IDENT_STORE_H
#define UID_IDENT_STORE_H

#include "compat.h"
#include "state.h"
#include "core/window.h"

#define ID_MASK ((UINT64CONST(1) << UID_IDENT_ID_BITS) - 1)

/* The lease as one consistent reading. */
typedef struct UidIdentSnap
{
	uint64		word;
	uint64		floor_us;
	uint64		key;
	uint64		token;
	uint64		renew_at_us;
	/* the clock measured with the lease's last claim or renewal */
	int64		offset_lo_us;
	int64		offset_hi_us;
	uint64		bound_us;
	uint64		measured_us;	/* 0: not measured */
	uint64		measured_by;	/* UID_MEASURED_BY_CLAIM or _RENEWAL */
	bool		skewed;			/* measured further off than the bound */
} UidIdentSnap;

#define UID_MEASURED_BY_CLAIM	1
#define UID_MEASURED_BY_RENEWAL	2

#define SNAP_ID(s)			((int32) (((s)->word & ID_MASK) - 1))
#define SNAP_EXPIRY_US(s)	(((s)->word >> UID_IDENT_ID_BITS) * 1000)

/*
 * How far this server's clock is surely off the coordinator's, by the
 * lease's last measurement (uid_ident_measure): the smallest |offset| that
 * the measured interval allows, 0 if it holds 0 or nothing was measured.
 */
static inline int64
uid_ident_skew_us(const UidIdentSnap *s)
{
	UidClockOffset o = {s->offset_lo_us, s->offset_hi_us, s->bound_us};

	if (s->measured_us == 0)
		return 0;
	return uid_window_skew_us(&o);
}

/* Reads the lease, and the gen it was read at (odd if none). */
extern UID_HIDDEN void uid_ident_read_at(UidIdentSnap *s, uint64 *at);
extern UID_HIDDEN void uid_ident_read(UidIdentSnap *s);

/* Rewrites the lease; by the backend that holds busy with stamp. */
extern UID_HIDDEN void uid_ident_publish(uint64 stamp, const UidIdentSnap *s);

#endif							/* UID_IDENT_STORE_H */
