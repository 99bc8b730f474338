/*
 * sno_policy.c
 *		sno's range policy: the sequence ranges the server issues from now
 *		(those of the settings record, published.c), what is wrong with the
 *		live or back-fill range, and the live range clear of the back-fill
 *		ranges it must not use.  Called by sno_new() (sno.c), sno_new_at()
 *		(sno_backfill.c), sno_snapshot() (sno_snapshot.c) and uid_config()
 *		(report.c).
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "guc.h"
#include "sno_policy.h"
#include "core/backfill.h"

/*
 * The live range lo..hi without the back-fill ranges it keeps clear of
 * (uid_live_clear_of_backfill, core/backfill.h: the range in use, and those
 * used before while a back-filled ID of theirs could be dated at or after a
 * live one; ranges is the back-fill word, type[2], kept the state file's
 * backfill_kept, read after it).  The range in use is clear of the live
 * range while the settings record holds the ranges the back-fill was made
 * with (sno_new_at() checks that); ranges changed later could otherwise
 * issue a back-filled (time, sequence) pair at a time that was back-filled.
 * Fewer than UID_SNO_RANGE_MIN left is an error, or with error unset (for
 * sno_snapshot()) an empty range, *lo > *hi.
 */
void
sno_live_clear_of_backfill(uint64 ranges, uint64 kept, uint32 *lo, uint32 *hi, bool error)
{
	uint32		n[UID_KEPT_CLEAR];
	StringInfoData list;

	if (uid_live_clear_of_backfill(ranges, kept, lo, hi))
		return;
	if (!error)
	{
		*lo = 1;
		*hi = 0;
		return;
	}
	uid_live_kept_clear(ranges, kept, n);
	initStringInfo(&list);
	for (int i = 0; i < UID_KEPT_CLEAR; i++)
		if (!uid_range_empty(n[i]))
			appendStringInfo(&list, "%s%u..%u", list.len > 0 ? ", " : "",
							 uid_range_lo(n[i]), uid_range_hi(n[i]));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the sno sequence range %u..%u leaves fewer than %d sequences beside the back-fill ranges %s",
					*lo, *hi, UID_SNO_RANGE_MIN, list.data),
			 errdetail("sno_new() never issues a sequence of the back-fill range in use, nor one of a range used before while an ID back-filled in it could be dated after a live ID."),
			 errhint("Set \"uid.sno_sequence_min\" and \"uid.sno_sequence_max\" clear of %s and reload the configuration.",
					 list.data)));
}

/*
 * The ranges the server issues from: the sno ranges of the server's
 * settings record (published.c), never this session's own settings.  A
 * record is published once per reload from the postmaster's values, so
 * every session of the server issues from the same ranges at once, and an
 * edit of the configuration files that no reload delivered is never among
 * them.  sno_new() checks after it allocated that the record is still the
 * one in force: a pair allocated while another was published is not handed
 * out (the words only grow, so it is simply not used).  So once sno_range()
 * shows a new range on a server, no ID of the old range is handed out there
 * any more, and the old range's IDs are dated at most previous_until:
 * another server may take the range once its clock is past that.
 */
const char *
uid_sno_live_problem(const UidSnoRanges *r)
{
	if (uid_rec_refused() & (UINT64CONST(1) << UID_REC_SNO_RANGES))
		return "the server's value of one of them is invalid";
	if (r->live_min > r->live_max)
		return psprintf("%d..%d is no range", r->live_min, r->live_max);
	if (r->live_max - r->live_min + 1 < UID_SNO_RANGE_MIN)
		return psprintf("%d..%d holds %d sequences, fewer than %d",
						r->live_min, r->live_max, r->live_max - r->live_min + 1,
						UID_SNO_RANGE_MIN);
	return NULL;
}

const char *
uid_sno_backfill_problem(const UidSnoRanges *r)
{
	if (uid_rec_refused() & UID_REC_REFUSED_BACKFILL)
		return "the server's value of one of them is invalid";
	if (r->backfill_min < 0 && r->backfill_max < 0)
		return "back-fill is off";
	if (r->backfill_min < 0 || r->backfill_max < 0)
		return "only one of them is set";
	if (r->backfill_min > r->backfill_max)
		return psprintf("%d..%d is no range", r->backfill_min, r->backfill_max);
	if (r->backfill_max - r->backfill_min + 1 < UID_SNO_RANGE_MIN)
		return psprintf("%d..%d holds %d sequences, fewer than %d",
						r->backfill_min, r->backfill_max,
						r->backfill_max - r->backfill_min + 1, UID_SNO_RANGE_MIN);
	if (r->backfill_min <= r->live_max && r->backfill_max >= r->live_min)
		return psprintf("%d..%d overlaps the live range %d..%d (\"uid.sno_sequence_min\"..\"uid.sno_sequence_max\")",
						r->backfill_min, r->backfill_max, r->live_min, r->live_max);
	return NULL;
}

void
uid_sno_live_refused(const UidSnoRanges *r)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("\"uid.sno_sequence_min\" and \"uid.sno_sequence_max\" give sno no sequence range"),
			 errdetail("There is none because %s.  sno_new() needs a range of at least %d sequences within 0..%d, the same for every session of the server.",
					   uid_sno_live_problem(r), UID_SNO_RANGE_MIN, SNO_SEQ_MAX),
			 errhint("Correct them and reload the configuration.")));
}

void
uid_sno_ranges(UidSnoRanges *r)
{
	(void) uid_rec_sync();
	uid_sno_ranges_dec(sno_ranges_word(), r);
}
