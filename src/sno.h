/*
 * sno.h
 *		The sno type: 10 bytes by reference, char alignment.
 */
#ifndef UID_SNO_H
#define UID_SNO_H

#include "fmgr.h"

#include "codec/sno_codec.h"
#include "guc.h"
#include "published.h"
#include "sno_ranges.h"
#include "state.h"

typedef struct sno_t
{
	uint8		data[SNO_LEN];
} sno_t;

#define DatumGetSnoP(X)		((sno_t *) DatumGetPointer(X))
#define SnoPGetDatum(X)		PointerGetDatum(X)
#define PG_GETARG_SNO_P(n)	DatumGetSnoP(PG_GETARG_DATUM(n))
#define PG_RETURN_SNO_P(x)	return SnoPGetDatum(x)

/*
 * The ranges the server issues from now: those of the server's settings
 * record (published.c), never a session's own settings.
 */
extern void uid_sno_ranges(UidSnoRanges *r);

/*
 * What is wrong with the live range (uid.sno_sequence_min..max) or the
 * back-fill range (uid.sno_backfill_min..max, which must also keep clear of
 * the live range), or NULL: a phrase for messages.
 */
extern const char *uid_sno_live_problem(const UidSnoRanges *r);
extern const char *uid_sno_backfill_problem(const UidSnoRanges *r);

/* Errors, naming the settings, with what uid_sno_live_problem() found. */
UID_NORETURN extern void uid_sno_live_refused(const UidSnoRanges *r) UID_NORETURN_AFTER;

/*
 * Errors unless the live range is a usable one: its settings were accepted
 * and give at least UID_SNO_RANGE_MIN sequences.
 */
static inline void
uid_sno_check_live(const UidSnoRanges *r)
{
	if (unlikely((uid_rec_refused() & (UINT64CONST(1) << UID_REC_SNO_RANGES)) ||
				 r->live_max - r->live_min + 1 < UID_SNO_RANGE_MIN))
		uid_sno_live_refused(r);
}

#endif							/* UID_SNO_H */
