/*
 * sno_overflow.h
 *		sno's overflow channel (sno_overflow.c), and the layout of the sno
 *		slot's own words, which sno.c, sno_backfill.c and sno_snapshot.c read.
 */
#ifndef UID_SNO_OVERFLOW_H
#define UID_SNO_OVERFLOW_H

#include "compat.h"
#include "state.h"

/*
 * The sno slot's own words, tt.type[] beyond the generator core's (the
 * slot's words 4 to 7; see core/alloc.h).  Each reads zero in a state file
 * of uid 0.4.0 or older, where zero means "not in use", so the file's
 * layout and version stay as they were.
 *
 * type[0], type[1] (UID_SNO_BF_LANE0, core/backfill.h): the back-fill lanes
 *   (see sno_new_at): 0 while unused, else tick << 20 | (sequence + 1) of
 *   the lane's last ID.
 * type[2] (UID_SNO_BF_RANGES): the back-fill ranges: the range in use
 *   << 32 | the smallest range that holds every back-fill range used since
 *   the file was made, each min << 16 | max; 0 before the first back-fill.
 * type[3]: overflow notifications: the last tick notified << 24 | for how
 *   many ticks in a row one was (capped at 2^24 - 1).
 * spare[0]: overflow_waits as the last notification found it.
 */
#define SNO_OVERFLOW		3
#define SNO_OVF_RUN_BITS	24
#define SNO_OVF_RUN_MAX		((UINT64CONST(1) << SNO_OVF_RUN_BITS) - 1)

StaticAssertDecl(SNO_UNITS_MAX >> (64 - SNO_OVF_RUN_BITS) == 0,
				 "a sno tick and a run of ticks fit one word");

/*
 * The first call that waits for the clock to pass a used-up tick NOTIFYs
 * uid.sno_overflow_channel: on_wait of sno's clock (sno.c).
 */
extern UID_HIDDEN void sno_on_wait(const UidClockSpec *spec, UidSlot *slot, uint64 tick,
								   bool used_up);

#endif							/* UID_SNO_OVERFLOW_H */
