/*
 * sno_ranges.h
 *		sno's sequence ranges (uid.sno_sequence_*, uid.sno_backfill_*) as
 *		one word of the settings record, and sno's highest tick: what the
 *		record (published.c) needs of sno to write the ranges and note their
 *		switch.  Apart from sno.h, which includes published.h.
 */
#ifndef UID_SNO_RANGES_H
#define UID_SNO_RANGES_H

#include "state.h"

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

#endif							/* UID_SNO_RANGES_H */
