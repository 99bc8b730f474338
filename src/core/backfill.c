/*
 * core/backfill.c
 *		sno's back-fill lanes and the record of live sequences, as
 *		decisions on shared words (see core/backfill.h, and sno.c above
 *		sno_new_at() for the protocol).  Plain C over core/platform.h: the
 *		server and the simulator (test/sim) run this same file.
 */
#include "core/backfill.h"

uint64
uid_used_take_over(UidWord *used, UidWord *used_since, uint64 fence_us,
				   const UidClockSpec *spec, UidSlot *sno_slot)
{
	uint64		u = uid_word_read(used);
	uint64		zero = 0;
	uint64		since;

	if (u != 0)
		return u;
	since = uid_word_read(used_since);
	if (since == UID_USED_SINCE_FENCE)
	{
		/* a file made anew: what came before the fence is unknown */
		uint64		tick = fence_us <= (uint64) spec->epoch_us ? 0 :
			(fence_us - 1 - (uint64) spec->epoch_us) / (uint64) spec->tick_us;

		(void) uid_word_cas(used_since, &since, tick);
	}
	else
	{
		/* an older file: what came before the marks is unknown */
		uint64		m0 = uid_word_tick(uid_word_read(&sno_slot->tt.mark[0]));
		uint64		m1 = uid_word_tick(uid_word_read(&sno_slot->tt.mark[1]));

		uid_raise_u64(used_since, m0 > m1 ? m0 : m1);
	}
	uid_full_barrier();
	(void) uid_word_cas(used, &zero, UID_USED_EMPTY);
	return uid_word_read(used);
}

bool
uid_state_has_record(UidLeaseWords *lease, UidWord *used, UidWord *used_since,
					 UidSlot *slots, int nslots)
{
	if (uid_word_read(&lease->lease_us) != 0 ||
		uid_word_read(used_since) != UID_USED_SINCE_FENCE ||
		uid_word_read(used) != 0)
		return true;
	for (int i = 0; i < nslots; i++)
		for (int w = 0; w < (int) (sizeof(slots[i].word) / sizeof(slots[i].word[0])); w++)
			if (uid_word_read(&slots[i].word[w]) != 0)
				return true;
	return false;
}

/* Lowers the from words of the parts of lo..hi to at most bound + 1; true if any moved. */
static bool
uid_from_lower(UidWord *from, uint32 lo, uint32 hi, uint64 bound)
{
	bool		moved = false;

	for (uint32 k = lo >> UID_FROM_SHIFT; k <= (hi >> UID_FROM_SHIFT) && k < UID_FROM_WORDS; k++)
	{
		uint64		w = uid_word_read(&from[k]);

		while (w > bound + 1)
		{
			if (uid_word_cas(&from[k], &w, bound + 1))
			{
				moved = true;
				break;
			}
		}
	}
	return moved;
}

bool
uid_from_after(UidWord *from, uint32 lo, uint32 hi, uint64 tick)
{
	if (from == NULL)
		return false;
	for (uint32 k = lo >> UID_FROM_SHIFT; k <= (hi >> UID_FROM_SHIFT) && k < UID_FROM_WORDS; k++)
	{
		uint64		w = uid_word_read(&from[k]);

		/* 0: unknown; else live IDs hold its sequences from tick w - 1 on */
		if (w == 0 || tick + 1 >= w)
			return false;
	}
	return true;
}

/*
 * The bound of from when a live ID (f->tick on f->timeline) is handed out
 * with a sequence of lo..hi: its own tick on timeline 0; on timeline 1 the
 * timeline-0 mark, at or below every timeline-0 ID allocated after this.
 */
static uint64
uid_from_bound(const UidUsedFrom *f)
{
	return f->timeline == 0 ? f->tick : uid_word_tick(uid_word_read(f->mark0));
}

void
uid_used_widen(UidWord *used, uint64 *copy, uint32 seq, uint32 live_lo, uint32 live_hi,
			   uint32 block, void (*sync) (void), const UidUsedFrom *f)
{
	/* seq's block of the live range */
	uint32		block_lo = Max(live_lo, seq & ~(block - 1));
	uint32		block_hi = Min(live_hi, seq | (block - 1));
	uint64		u = uid_word_read(used);
	bool		fresh_from = false;

	/*
	 * First, from when the ID's part is used (a backend that allocated
	 * before another widened the record over its sequence comes here too,
	 * its copy not covering it): durable with the record below, or synced
	 * here if the record needs no widening.
	 */
	if (f != NULL && f->from != NULL)
		fresh_from = uid_from_lower(f->from, seq, seq, uid_from_bound(f));
	for (;;)
	{
		uint32		lo = Min(uid_used_lo(u), block_lo);
		uint32		hi = Max(uid_used_hi(u), block_hi);
		uint64		want = UID_USED_VALID | (uint64) lo << 16 | hi;

		if (u != 0 && seq >= uid_used_lo(u) && seq <= uid_used_hi(u))
		{
			if (u & UID_USED_DURABLE)
			{
				if (fresh_from)
					sync();
				*copy = u;
				return;
			}
			/* another backend widened it and has not synced yet: sync too */
			sync();
			want = u;
		}
		else
		{
			/*
			 * The parts the record now takes in were used by no live ID
			 * before: from this ID's bound on (a later timeline-0 ID is at
			 * or above it).
			 */
			if (f != NULL && f->from != NULL)
				(void) uid_from_lower(f->from, lo, hi, uid_from_bound(f));
			if (!uid_word_cas(used, &u, want))
				continue;
			sync();
			u = want;
		}
		/* the file holds want (or a wider record) now */
		if (uid_word_cas(used, &u, want | UID_USED_DURABLE))
		{
			*copy = want | UID_USED_DURABLE;
			return;
		}
		/* widened or marked meanwhile: look again */
	}
}

/* The first and the last sequence of lane i's half of lo..hi (at least 4). */
static inline uint32
uid_lane_first(int i, uint32 lo, uint32 hi)
{
	return i == 0 ? lo : lo + (hi - lo + 1) / 2;
}

static inline uint32
uid_lane_last(int i, uint32 lo, uint32 hi)
{
	return i == 0 ? lo + (hi - lo + 1) / 2 - 1 : hi;
}

static inline uint64
uid_lane_word(uint64 tick, uint32 seq)
{
	return tick << UID_SEQ_BITS | (seq + 1);
}

/*
 * Would back-fill at tick with lo..hi repeat a live ID?  Not if the record
 * (used) holds none of lo..hi, or if every part of them that it holds was
 * first used by live IDs after tick (from).  A record not taken over yet
 * (0) holds everything.
 */
static bool
uid_backfill_live_used(const UidBackfillWords *w, uint64 used, uint32 lo, uint32 hi,
					   uint64 tick)
{
	if (used == 0)
		return true;
	if (uid_used_lo(used) > hi || uid_used_hi(used) < lo)
		return false;
	return !uid_from_after(w->from, Max(lo, uid_used_lo(used)), Min(hi, uid_used_hi(used)), tick);
}

/*
 * Takes over the back-fill of a file of an older library (kept 0), before
 * this library writes a lane: a single pass whose lanes are not after the
 * clock is bounded by them (until), every other range used is kept out of
 * the live range for good (lasting), as that library did.  The lanes are
 * read before kept is set, and no call of this library writes one before
 * it sees kept set.
 */
static void
uid_backfill_take_over(const UidBackfillWords *w, uint64 now)
{
	uint64		ranges = uid_word_read(w->ranges);
	uint64		latest = 0;
	uint64		zero = 0;
	uint32		lasting = UID_RANGE_NONE;

	for (int i = 0; i < UID_BACKFILL_LANES; i++)
		latest = Max(latest, uid_word_read(&w->lanes[i]) >> UID_SEQ_BITS);
	if (ranges != 0 && ((uint32) (ranges >> 32) != (uint32) ranges || latest > now))
		lasting = (uint32) ranges;
	else
		uid_raise_u64(w->until, latest);
	(void) uid_word_cas(w->kept, &zero, (uint64) UID_RANGE_NONE << 32 | lasting);
}

/*
 * Ends the closing of the back-fill ranges in kept's closing part once no
 * ID back-filled in them can be dated after until, nor until after the
 * clock (now): the timeline-0 mark goes to until, its tick used up, and the
 * closing part is emptied (core/backfill.h, above UID_RANGE_NONE).  Read in
 * this order: kept, the range word (a range in closing and no longer in use
 * has been replaced: every call that back-filled in it and hands its ID out
 * raised until before), until.
 */
static void
uid_backfill_finish(const UidBackfillWords *w, uint64 now)
{
	for (;;)
	{
		uint64		kept = uid_word_read(w->kept);
		uint32		closing = (uint32) (kept >> 32);
		uint64		until;

		if (uid_range_empty(closing))
			return;
		uid_read_barrier();
		/* the pass that closes them has not published its range yet */
		if (uid_range_meets(closing, (uint32) (uid_word_read(w->ranges) >> 32)))
			return;
		uid_read_barrier();
		until = uid_word_read(w->until);
		/* the clock is behind an ID back-filled (it stepped back): later */
		if (until > now)
			return;
		if (until != 0)
			uid_raise_u64(w->mark0, until << UID_SEQ_BITS | UID_SNO_SEQ_LAST);
		if (uid_word_cas(w->kept, &kept, (uint64) UID_RANGE_NONE << 32 | (uint32) kept))
			return;
	}
}

/*
 * Starts a pass of back-fill range lo..hi: publishes it with the hull of
 * every range used, the range in use until now added to kept's closing part
 * first, or says why not.  Whether the CASes win or not, the caller reads
 * the words again (ISSUED: look again).
 */
static UidBackfillResult
uid_backfill_pass(const UidBackfillWords *w, uint64 old, uint32 lo, uint32 hi,
				  uint64 tick, UidBackfillSeen *seen)
{
	uint32		mine = uid_range_enc(lo, hi);
	uint32		hull = (uint32) old;
	uint32		hlo = old == 0 ? lo : uid_range_lo(hull);
	uint32		hhi = old == 0 ? hi : uid_range_hi(hull);

	if (old != 0 && !(hi < hlo || lo > hhi))
		return UID_BACKFILL_OVERLAPS;
	/*
	 * A range that holds live sequences is refused before it is published:
	 * published, it would stay in the hull for good.  The caller checks the
	 * record again after the range word (the order sno_new() relies on); a
	 * sequence recorded in between still refuses the pass, after it was
	 * published.
	 */
	seen->used = uid_word_read(w->used);
	if (uid_backfill_live_used(w, seen->used, lo, hi, tick))
		return UID_BACKFILL_LIVE_USED;
	hlo = Min(hlo, lo);
	hhi = Max(hhi, hi);

	/*
	 * The range in use until now stays out of the live range (in closing)
	 * until the pass that replaces it has bounded its IDs by the
	 * timeline-0 mark (uid_backfill_finish, at the caller's next look).
	 * While it is in use, closing it changes nothing for sno_new().
	 */
	if (old != 0)
	{
		uint32		cur = (uint32) (old >> 32);
		uint64		kept = uid_word_read(w->kept);
		uint32		closing = (uint32) (kept >> 32);

		if (uid_range_add(closing, cur) != closing)
		{
			(void) uid_word_cas(w->kept, &kept,
								(uint64) uid_range_add(closing, cur) << 32 | (uint32) kept);
			return UID_BACKFILL_ISSUED;
		}
	}
	(void) uid_word_cas(w->ranges, &old, (uint64) mine << 32 | uid_range_enc(hlo, hhi));
	return UID_BACKFILL_ISSUED;
}

UidBackfillResult
uid_backfill_alloc(const UidBackfillWords *w, uint64 tick, uint64 now, uint32 lo, uint32 hi,
				   UidBackfillSeen *seen, uint32 *seq_out)
{
	for (;;)
	{
		uint64		ranges;
		uint64		kept;
		uint32		hull;
		uint64		word[UID_BACKFILL_LANES];
		bool		in_use[UID_BACKFILL_LANES];
		uint64		at[UID_BACKFILL_LANES];
		uint32		seq[UID_BACKFILL_LANES];
		bool		later_pass = false;
		bool		full = false;
		int			best = -1;
		int			i;

		uid_plat_interrupts();
		kept = uid_word_read(w->kept);
		if (kept == 0)
		{
			uid_backfill_take_over(w, now);
			continue;
		}
		if (!uid_range_empty((uint32) (kept >> 32)))
			uid_backfill_finish(w, now);
		ranges = uid_word_read(w->ranges);
		seen->ranges = ranges;
		hull = (uint32) ranges;
		if (ranges == 0 || (uint32) (ranges >> 32) != uid_range_enc(lo, hi))
		{
			UidBackfillResult r = uid_backfill_pass(w, ranges, lo, hi, tick, seen);

			if (r != UID_BACKFILL_ISSUED)
				return r;
			continue;
		}

		/*
		 * Clear of the live sequences, read after the range word (sno_new()
		 * reads the range word after it recorded its sequence, so one of
		 * the two sees the other), and the lanes as of this pass.
		 */
		uid_full_barrier();
		seen->used = uid_word_read(w->used);
		seen->used_since = uid_word_read(w->used_since);
		if (seen->used_since != 0 && tick <= seen->used_since)
			return UID_BACKFILL_UNRECORDED;
		if (uid_backfill_live_used(w, seen->used, lo, hi, tick))
			return UID_BACKFILL_LIVE_USED;
		for (i = 0; i < UID_BACKFILL_LANES; i++)
		{
			uint64		lw = uid_word_read(&w->lanes[i]);
			uint32		s = (uint32) (lw & UID_SEQ_MASK) - 1;

			word[i] = lw;
			seen->lanes[i] = lw;
			in_use[i] = lw != 0 && s >= lo && s <= hi;
			at[i] = lw >> UID_SEQ_BITS;
			seq[i] = s;
			/* neither this pass's nor an earlier one's: a later pass began */
			if (lw != 0 && !in_use[i] &&
				!(s >= uid_range_lo(hull) && s <= uid_range_hi(hull)))
				later_pass = true;
		}
		if (later_pass)
		{
			/*
			 * A later pass published its range before it wrote a lane, and
			 * the range word never goes back to an earlier range: unless
			 * the file is damaged, it has moved on, and the call is refused
			 * when it looks again.
			 */
			uid_read_barrier();
			if (uid_word_read(w->ranges) == ranges)
				return UID_BACKFILL_CORRUPT;
			continue;
		}

		/*
		 * The pass that replaces this one bounds its IDs by until, read
		 * after the range word moved on (uid_backfill_finish): raised
		 * before a lane is written, and an ID is handed out only if the
		 * range word has not moved since (checked after the lane's CAS, a
		 * full barrier).  Else the call looks again (and is refused, its
		 * range being older).
		 */
		uid_raise_u64(w->until, tick);

		/* a lane at this tick with a sequence left */
		for (i = 0; i < UID_BACKFILL_LANES; i++)
		{
			if (in_use[i] && at[i] == tick)
			{
				uint32		next = seq[i] + 1;

				if (next > uid_lane_last(i, lo, hi))
				{
					full = true;
					continue;
				}
				if (uid_word_cas(&w->lanes[i], &word[i], uid_lane_word(tick, next)))
				{
					if (uid_word_read(w->ranges) != ranges)
						break;	/* a later pass began: look again */
					*seq_out = next;
					return UID_BACKFILL_ISSUED;
				}
				break;
			}
		}
		if (i < UID_BACKFILL_LANES)
			continue;			/* lost a race: read again */

		/* else the lane furthest ahead that is before it, or unused */
		for (i = 0; i < UID_BACKFILL_LANES; i++)
		{
			if (in_use[i] && at[i] >= tick)
				continue;
			if (best < 0 ||
				(in_use[i] && (!in_use[best] || at[i] > at[best])))
				best = i;
		}
		if (best >= 0)
		{
			uint32		first = uid_lane_first(best, lo, hi);

			if (uid_word_cas(&w->lanes[best], &word[best], uid_lane_word(tick, first)) &&
				uid_word_read(w->ranges) == ranges)
			{
				*seq_out = first;
				return UID_BACKFILL_ISSUED;
			}
			continue;
		}
		return full ? UID_BACKFILL_FULL : UID_BACKFILL_PASSED;
	}
}
