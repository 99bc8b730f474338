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
 * sno's sequence ranges.  back-fill -1, -1: off.  Not checked here.
 */
typedef struct UidSnoRanges
{
	int			live_min;
	int			live_max;
	int			backfill_min;
	int			backfill_max;
} UidSnoRanges;

/*
 * The ranges as one word of the settings record: live min << 48 | live max
 * << 32 | back-fill min << 16 | back-fill max, back-fill -1 encoded as
 * 0xFFFF (min) and 0 (max), neither of which is a valid end of a back-fill
 * range of 4.
 */
static inline uint64
uid_sno_ranges_enc(const UidSnoRanges *r)
{
	uint64		bmin = r->backfill_min < 0 ? 0xFFFF : (uint64) r->backfill_min;
	uint64		bmax = r->backfill_max < 0 ? 0 : (uint64) r->backfill_max;

	return (uint64) r->live_min << 48 | (uint64) r->live_max << 32 | bmin << 16 | bmax;
}

static inline void
uid_sno_ranges_dec(uint64 w, UidSnoRanges *r)
{
	uint32		bmin = (uint32) (w >> 16) & 0xFFFF;
	uint32		bmax = (uint32) w & 0xFFFF;

	r->live_min = (int) (w >> 48);
	r->live_max = (int) (w >> 32) & 0xFFFF;
	r->backfill_min = bmin == 0xFFFF ? -1 : (int) bmin;
	r->backfill_max = bmax == 0 ? -1 : (int) bmax;
}

/* A back-fill range in words. */
static inline const char *
uid_sno_range_text(int lo, int hi)
{
	return lo < 0 ? "off" : psprintf("%d..%d", lo, hi);
}

/* The highest tick either sno timeline has issued (or been fenced to). */
static inline uint64
uid_sno_marks_tick(void)
{
	UidSlot    *slot = &uid_state->slots[UID_SLOT_SNO];

	return Max(uid_word_tick(pg_atomic_read_u64(&slot->tt.mark[0])),
			   uid_word_tick(pg_atomic_read_u64(&slot->tt.mark[1])));
}

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
