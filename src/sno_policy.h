/*
 * sno_policy.h
 *		sno's range policy (sno_policy.c): the ranges the server issues from
 *		now and what is wrong with them.
 */
#ifndef UID_SNO_POLICY_H
#define UID_SNO_POLICY_H

#include "compat.h"
#include "guc.h"
#include "published.h"
#include "sno_ranges.h"

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

/*
 * The live range *lo..*hi without the back-fill ranges it keeps clear of
 * (ranges, the back-fill word, and kept, the state file's backfill_kept);
 * fewer than UID_SNO_RANGE_MIN left is an error, or with error unset an
 * empty range, *lo > *hi.
 */
extern UID_HIDDEN void sno_live_clear_of_backfill(uint64 ranges, uint64 kept, uint32 *lo,
												  uint32 *hi, bool error);

/* The ranges word in force now (after uid_rec_sync()). */
static inline uint64
sno_ranges_word(void)
{
	return (uint64) uid_rec_value(UID_REC_SNO_RANGES);
}

#endif							/* UID_SNO_POLICY_H */
