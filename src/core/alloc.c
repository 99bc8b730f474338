/*
 * core/alloc.c
 *		The generator core: lock-free allocation of (tick, sequence) pairs,
 *		the pace of borrowing, the fair share of a tick, waits for the next
 *		tick, and the rules of the fence and the lease.  See alloc.h.
 *
 * Plain C over core/platform.h: the server and the simulator (test/sim)
 * compile this same file.  The server compiles it into generate.c, whose
 * generators call the allocators' _inline forms, so that the per-ID path
 * is one function as it was before the core was a module.
 */
#include "core/alloc.h"

/*
 * The last part of a wait for the next tick is spent spinning, not sleeping;
 * at most this many clock reads (a few ms even if each took 10 ns).  A wait
 * sleeps again when a signal or the latch woke it early; sleeps that ran
 * their full time count, at most UID_WAIT_SLEEPS_MAX of them (they bound a
 * wait only when the monotonic clock stands still too).
 */
#define UID_WAIT_SPIN_US	100
#define UID_WAIT_SPIN_MAX	200000
#define UID_WAIT_SLEEPS_MAX 4

/* How a wait for the next tick ended. */
typedef enum UidWaitEnd
{
	UID_WAIT_PASSED,			/* the clock is past the tick */
	UID_WAIT_CLOCK_BACK,		/* the clock went back meanwhile */
	UID_WAIT_STALLED			/* the wait's time passed, the clock did not move on */
} UidWaitEnd;

/*
 * Waits until the clock is past tick, whose sequence is used up (used_up) or
 * this backend's fair share of it.  It sleeps for most of the wait and
 * spins through the last UID_WAIT_SPIN_US: a sleep overshoots by the timer
 * slack (about 50 us), which would cost a format with 1 ms ticks a tenth of
 * its capacity.  A sleep that a signal cut short is taken up again.
 *
 * The wait also ends when the clock goes back (the caller then looks
 * again: behind the full tick it borrows, still in it it waits again), and
 * when the monotonic clock says it has lasted as long as it should have:
 * then the clock has stopped or crawls, and it reports UID_WAIT_STALLED,
 * after which the caller borrows the next tick.  Only that makes a caller
 * borrow: a wait cut short by signals is taken up again, so generation
 * never runs ahead of a clock that works.  The counts of full sleeps and
 * of spins bound a wait even if both clocks stood still.
 */
static UidWaitEnd
uid_wait_past(UidSlot *slot, const UidClockSpec *spec, uint64 tick, bool used_up)
{
	int64		target = spec->epoch_us + (int64) (tick + 1) * spec->tick_us;
	int64		start = uid_plat_unix_us();
	int64		wait = target - start;

	/*
	 * More than a tick away means the clock jumped back since the caller
	 * read it: the caller looks again, and borrows.
	 */
	if (wait > spec->tick_us)
		return UID_WAIT_CLOCK_BACK;
	uid_word_add(&slot->overflow_waits, 1);
	if (spec->on_wait != NULL)
		spec->on_wait(spec, slot, tick, used_up);
	if (wait > 0)
	{
		int64		deadline = uid_plat_mono_us() + wait + wait / 16 + UID_WAIT_SPIN_US;
		int64		now;
		int			sleeps = 0;
		int64		spins = 0;
		UidWaitEnd	end = UID_WAIT_PASSED;

		while ((now = uid_plat_unix_us()) < target)
		{
			int64		left = Min(target - now, deadline - uid_plat_mono_us());

			if (now < start)
			{
				end = UID_WAIT_CLOCK_BACK;
				break;
			}
			if (left <= 0 || sleeps >= UID_WAIT_SLEEPS_MAX || spins >= UID_WAIT_SPIN_MAX)
			{
				/*
				 * The wait's time is up.  Read the clock again: this
				 * backend may have been descheduled between the two reads
				 * above, and a clock that did move on is not stalled.
				 */
				now = uid_plat_unix_us();
				if (now < start)
					end = UID_WAIT_CLOCK_BACK;
				else if (now < target)
					end = UID_WAIT_STALLED;
				break;
			}
			if (left > UID_WAIT_SPIN_US)
				sleeps += uid_plat_sleep_us(left - UID_WAIT_SPIN_US) ? 1 : 0;
			else
			{
				spins++;
				uid_plat_spin();
			}
			uid_plat_interrupts();
		}
		if (now > start && now - start <= 2 * spec->tick_us)
			uid_word_add(&slot->overflow_wait_us, (uint64) (now - start));
		uid_plat_interrupts();
		return end;
	}
	uid_plat_interrupts();
	return UID_WAIT_PASSED;
}

/*
 * Reads the clock after the state it is to be compared with.  A CAS that
 * then succeeds proves the state did not change in between, so the reading
 * is no older than whatever wrote that state: "the clock is behind the mark"
 * means the clock really went back, never that this backend was slow.
 */
static inline uint64
uid_clock_after_state(const UidClockSpec *spec)
{
	uid_read_barrier();
	return spec->now(spec);
}

typedef enum UidAttempt
{
	UID_ATTEMPT_DONE,			/* issued: *out is set */
	UID_ATTEMPT_RETRY,			/* lost a race: read again */
	UID_ATTEMPT_FULL,			/* the clock's tick is used up */
	UID_ATTEMPT_BORROW,			/* it would borrow, and the caller paces that */
	UID_ATTEMPT_OUT_OF_TIME		/* past the format's time range */
} UidAttempt;

/*
 * One attempt to move a tick/sequence word from old (read before the clock
 * read now) to its next value, within the sequence part lo..hi (see
 * uid_alloc_tick).  On success it counts the call as one that found the
 * clock behind the mark if behind is set; when the clock's tick is used up
 * it reports that tick in *full_tick.  With paced set, an attempt that would
 * borrow the tick after the mark reports that instead (uid_pace_claim).
 * Inlined into both allocators: called, it passed its arguments on the
 * stack on every ID (counted with bench/instructions.sh: 40 to 50
 * instructions per ID).
 */
static UID_ALWAYS_INLINE UidAttempt
uid_tick_attempt(UidSlot *slot, int timeline, const UidClockSpec *spec,
				 uint32 lo, uint32 hi, const UidCursor *cur,
				 uint64 old, uint64 now, bool stalled, bool behind, bool paced,
				 UidTickSeq *out, uint64 *full_tick)
{
	uint64		mark = uid_word_tick(old);
	uint32		seq = (uint32) (old & UID_SEQ_MASK);
	int			width = 0;
	uint32		start = 0;
	uint64		tick;
	uint32		next;

	/*
	 * A run-on sequence counts the tick's IDs in seq like any other, so that
	 * the rules below are the same for it; start says where they began.
	 */
	if (spec->seq_runs_on)
	{
		width = uid_leftmost_one_pos32(spec->seq_max) + 1;
		Assert(spec->seq_max == (1u << width) - 1 && 2 * width <= UID_SEQ_BITS);
		Assert(lo == 0 && hi == spec->seq_max);
		start = seq >> width;
		seq &= spec->seq_max;
	}

	/*
	 * Within a tick the sequence only grows: a part that moved up since the
	 * word's last ID (a reload) begins at its lo, one that moved below it
	 * finds the tick used up.
	 */
	if (now > mark)
	{
		tick = now;
		next = lo;
	}
	else if (seq < hi)
	{
		tick = mark;
		next = Max(seq + 1, lo);
	}
	else if (now == mark && !stalled)
	{
		*full_tick = now;
		return UID_ATTEMPT_FULL;
	}
	else
	{
		if (paced)
			return UID_ATTEMPT_BORROW;
		tick = mark + 1;
		next = lo;
	}

	/*
	 * The clock read may use a wider range than the format (snowflake_si
	 * reads Unix milliseconds and ends 2^40 ms after its base clock), and
	 * borrowing moves past the clock: check what would be issued.
	 */
	if (unlikely(tick > spec->tick_max))
		return UID_ATTEMPT_OUT_OF_TIME;

	/* a new tick's run-on sequence begins one after the last number issued */
	if (spec->seq_runs_on && tick != mark)
		start = (start + seq + 1) & spec->seq_max;

	if (!uid_word_cas(&slot->word[timeline], &old, tick << UID_SEQ_BITS | start << width | next))
		return UID_ATTEMPT_RETRY;

	if (unlikely(behind))
		uid_word_add(&slot->clock_regressions, 1);
	out->tick = tick;
	out->seq = next;
	if (spec->seq_runs_on)
		out->seq = (cur->seq_origin + start + next) & spec->seq_max;
	out->timeline = timeline;
	return UID_ATTEMPT_DONE;
}

/* uid_tick_attempt's CAS addresses a timeline's mark as word[timeline]. */
UID_STATIC_ASSERT(offsetof(UidSlot, one.mark) == offsetof(UidSlot, word[0]) &&
				  offsetof(UidSlot, tt.mark[1]) == offsetof(UidSlot, word[1]),
				  "a timeline's mark is word[timeline]");

/*
 * Borrowing at the pace of real time.  A single-timeline type borrows the
 * tick after its mark when the mark's tick is used up and the clock is
 * behind it (after a step back or a restart's fence) or has stopped.  Each
 * borrow first takes the right to it here: the slot's pace word holds the
 * monotonic time before which no backend may borrow again, and taking the
 * right moves it one tick past now.  So across every session the mark moves
 * at most one tick per tick of real time while the clock is behind, as it
 * does at real time, and IDs keep about their real dates however long the
 * load stays above the format's capacity; without it they ran ahead as
 * far as the load borrowed (uid60 593 s after an 8 s step).  A backend that
 * must wait for the right sleeps until then, at most a tick, counted as an
 * overflow wait, and returns false: the caller looks at the state again
 * (the clock may have caught up meanwhile), and takes the right when it
 * still has to borrow.  A word more than a tick ahead of now was written
 * before a reboot restarted the monotonic clock: it is taken as free.
 * (sno has no pace word; its 65,536 IDs per 4 ms are beyond any load.)
 */
static bool
uid_pace_claim(UidSlot *slot, const UidClockSpec *spec)
{
	UidWord    *word = &slot->one.pace;
	uint64		old = uid_word_read(word);

	for (;;)
	{
		int64		now = uid_plat_mono_us();
		int64		at = (int64) old;

		if (at > now && at <= now + spec->tick_us)
		{
			uid_word_add(&slot->overflow_waits, 1);
			uid_plat_sleep_us(at - now);
			uid_word_add(&slot->overflow_wait_us,
						 (uint64) Max(uid_plat_mono_us() - now, 0));
			uid_plat_interrupts();
			return false;
		}
		if (uid_word_cas(word, &old, (uint64) (now + spec->tick_us)))
			return true;
	}
}

static UID_ALWAYS_INLINE UidAttempt
uid_one_alloc(UidSlot *slot, const UidClockSpec *spec, uint32 lo, uint32 hi,
			  const UidCursor *cur, bool stalled, UidTickSeq *out, uint64 *full_tick)
{
	bool		behind = false;
	bool		may_borrow = false;

	for (;;)
	{
		uint64		old = uid_word_read(&slot->one.mark);
		uint64		now = uid_clock_after_state(spec);
		UidAttempt	r;

		behind |= now < uid_word_tick(old);
		r = uid_tick_attempt(slot, 0, spec, lo, hi, cur, old, now,
							 stalled, behind, !may_borrow, out, full_tick);
		if (r == UID_ATTEMPT_BORROW)
			may_borrow = uid_pace_claim(slot, spec);
		else if (r != UID_ATTEMPT_RETRY)
			return r;
	}
}

/*
 * Tick-tock: two timelines, each with its own state word, flips selecting
 * the current one, seen the highest clock tick read so far.  When the clock
 * goes back to a time behind the current timeline but ahead of the other
 * one, generation flips to the other timeline at the clock's time; when it
 * is behind both, it holds at the current timeline's high-water mark.
 * Every timeline word only ever grows, so no pair is issued twice whatever
 * the races on the selector.
 */
static UID_ALWAYS_INLINE UidAttempt
uid_ticktock_alloc(UidSlot *slot, const UidClockSpec *spec, uint32 lo, uint32 hi,
				   bool stalled, UidTickSeq *out, uint64 *full_tick)
{
	bool		behind = false;

	for (;;)
	{
		uint64		sel = uid_word_read(&slot->tt.flips);
		int			cur = (int) (sel & 1);
		uint64		old = uid_word_read(&slot->tt.mark[cur]);
		uint64		other = uid_word_read(&slot->tt.mark[1 - cur]);
		uint64		seen = uid_word_read(&slot->tt.seen);
		uint64		now = uid_clock_after_state(spec);
		uint64		max_seen = seen;
		UidAttempt	r;

		/* the highest clock reading so far; written once per new tick */
		while (now > max_seen && !uid_word_cas(&slot->tt.seen, &max_seen, now))
			;

		behind |= now < uid_word_tick(old);

		/*
		 * Flip only when the clock itself went back (it reads less than it
		 * did before) to a time the other timeline has not reached.  Being
		 * behind the mark only because IDs were borrowed ahead of a slow or
		 * stopped clock is not a regression: that holds and borrows.
		 */
		if (now < seen && now < uid_word_tick(old) &&
			now > uid_word_tick(other))
		{
			/* the other timeline has not reached this time: flip to it */
			if (uid_word_cas(&slot->tt.flips, &sel, sel + 1))
				uid_word_add(&slot->tick_flips, 1);
			continue;
		}
		r = uid_tick_attempt(slot, cur, spec, lo, hi, NULL, old, now,
							 stalled, behind, false, out, full_tick);
		if (r != UID_ATTEMPT_RETRY)
			return r;
	}
}

/*
 * A fair share of a contended tick.  A tick holds seq_max + 1 IDs (or the
 * size of the part of the sequence a call issues from); a session that calls
 * in a loop would take them all within the tick's first moments, and every
 * other session would wait for the next tick on each call (seen: 20
 * uid60_new() calls 10 ms apart took 4 s beside one such loop instead of
 * 0.2 s).  So a backend that has taken its share of the current tick waits
 * for the next one, the share being the tick's IDs divided by the number of
 * backends that took IDs in this tick or the one before.  Alone, a backend's
 * share is the whole tick.  This only delays calls; which (tick, sequence)
 * pairs are issued is decided by the allocator as before.
 *
 * The slot's sharers word: tick << 20 | backends in the tick before << 10 |
 * backends in this tick (each at most 1023; ticks fit 44 bits, see
 * UID_TICK_MAX).  A backend counts itself in on its first ID of a tick.
 */
#define UID_SHARE_N_BITS 10
#define UID_SHARE_N_MAX ((1 << UID_SHARE_N_BITS) - 1)
UID_STATIC_ASSERT(UID_TICK_MAX >> (64 - 2 * UID_SHARE_N_BITS) == 0,
				  "a tick and two counts of sharers fit one word");

/* This backend took an ID in tick: count it, and itself among the tick's sharers. */
static UID_ALWAYS_INLINE void
uid_share_count(UidSlot *slot, UidCursor *cur, uint64 tick)
{
	uint64		old;
	uint64		next;

	if (cur->share_tick == tick)
	{
		cur->share_taken++;
		return;
	}
	cur->share_tick = tick;
	cur->share_taken = 1;
	old = uid_word_read(&slot->sharers);
	do
	{
		uint64		old_tick = old >> (2 * UID_SHARE_N_BITS);
		uint64		n = old & UID_SHARE_N_MAX;

		if (old_tick == tick)
			next = n < UID_SHARE_N_MAX ? old + 1 : old;
		else if (old_tick == tick - 1)
			next = (tick << UID_SHARE_N_BITS | n) << UID_SHARE_N_BITS | 1;
		else if (old_tick < tick)
			next = tick << (2 * UID_SHARE_N_BITS) | 1;
		else
			return;				/* a later tick is being shared already */
	} while (!uid_word_cas(&slot->sharers, &old, next));
}

/*
 * Whether this backend has taken its share of the tick the clock is in, a
 * tick holding capacity IDs; if so, *tick is that tick, to wait past.
 */
static inline bool
uid_share_used(UidSlot *slot, const UidClockSpec *spec, UidCursor *cur,
			   uint32 capacity, uint64 *tick)
{
	uint64		mine = cur->share_tick;
	uint64		word;
	uint32		n;

	if (cur->share_taken < 2)
		return false;
	word = uid_word_read(&slot->sharers);
	if (word >> (2 * UID_SHARE_N_BITS) != mine)
		return false;
	n = Max(word & UID_SHARE_N_MAX, (word >> UID_SHARE_N_BITS) & UID_SHARE_N_MAX);
	if (n < 2 || cur->share_taken < capacity / n)
		return false;
	/* the share is of the tick the clock is in, not of one borrowed ahead */
	if (spec->now(spec) != mine)
		return false;
	*tick = mine;
	return true;
}

/*
 * The next (tick, seq) of a slot, under the clock-regression policy of
 * doc/design.md: the allocator reads the clock after the state.  A fresh
 * tick restarts the sequence (a run-on one goes on from the last tick's).
 * While the clock is behind the high-water mark, it issues at that mark and
 * moves past it without waiting (borrowing from the future, at the pace of
 * real time).  When the clock's own tick is used up it sleeps until the
 * next tick; if a full wait did not move the clock (a stopped clock), it
 * borrows the next tick instead of waiting again, so generation never
 * stalls for more than about one tick.
 *
 * It issues within the part seq_lo..seq_hi of the sequence: a fresh tick
 * begins at seq_lo, a tick is used up at seq_hi, and the fair share divides
 * the part's size.  The word keeps the sequence last issued, which within a
 * tick only grows, so a part that changes between calls (a reload; backends
 * that have and have not taken it yet) never makes a pair be issued twice:
 * a call issues the larger of the word's sequence + 1 and its seq_lo, and
 * finds the tick used up when that is past its seq_hi.  A fence marks a tick
 * used up with seq_max, which is past every part's seq_hi.
 */
static UID_ALWAYS_INLINE UidAllocResult
uid_alloc_tick_inline(UidSlot *slot, const UidClockSpec *spec, UidCursor *cur,
					  uint32 seq_lo, uint32 seq_hi, UidTickSeq *out)
{
	uint64		full_tick;
	bool		stalled = false;

	Assert(seq_lo <= seq_hi && seq_hi <= spec->seq_max);
	for (;;)
	{
		UidAttempt	r;

		/* after a stalled wait the allocator borrows, and shares lapse */
		if (unlikely(!stalled &&
					 uid_share_used(slot, spec, cur, seq_hi - seq_lo + 1, &full_tick)))
		{
			if (uid_wait_past(slot, spec, full_tick, false) == UID_WAIT_STALLED)
				stalled = true;
			continue;
		}
		r = spec->ticktock ?
			uid_ticktock_alloc(slot, spec, seq_lo, seq_hi, stalled, out, &full_tick) :
			uid_one_alloc(slot, spec, seq_lo, seq_hi, cur, stalled, out,
						  &full_tick);
		if (r == UID_ATTEMPT_DONE)
			break;
		if (r == UID_ATTEMPT_OUT_OF_TIME)
			return UID_ALLOC_OUT_OF_TIME;
		/* a full wait that did not move the clock: borrow the next tick */
		if (uid_wait_past(slot, spec, full_tick, true) == UID_WAIT_STALLED)
			stalled = true;
	}
	uid_share_count(slot, cur, out->tick);
	return UID_ALLOC_ISSUED;
}

UidAllocResult
uid_alloc_tick(UidSlot *slot, const UidClockSpec *spec, UidCursor *cur,
			   uint32 seq_lo, uint32 seq_hi, UidTickSeq *out)
{
	return uid_alloc_tick_inline(slot, spec, cur, seq_lo, seq_hi, out);
}

static UID_ALWAYS_INLINE UidAllocResult
uid_alloc_unique_inline(UidSlot *slot, const UidClockSpec *spec, uint64 *tick)
{
	for (;;)
	{
		/*
		 * The highest clock reading is read before the state: whoever wrote
		 * it read its clock before its own update of the state, so a
		 * reading below it means the clock went back.  (Compared with a
		 * value read later, a backend that was merely slower would count.)
		 */
		uint64		seen = uid_word_read(&slot->uniq.seen);
		uint64		old;
		uint64		now;
		uint64		next;
		uint64		max_seen;

		uid_read_barrier();
		old = uid_word_read(&slot->uniq.last);
		now = uid_clock_after_state(spec);
		next = now > old ? now : old + 1;
		if (unlikely(next > spec->tick_max))
			return UID_ALLOC_OUT_OF_TIME;
		if (!uid_word_cas(&slot->uniq.last, &old, next))
			continue;

		max_seen = seen;
		while (now > max_seen && !uid_word_cas(&slot->uniq.seen, &max_seen, now))
			;
		if (unlikely(now < seen))
			uid_word_add(&slot->clock_regressions, 1);
		*tick = next;
		return UID_ALLOC_ISSUED;
	}
}

UidAllocResult
uid_alloc_unique(UidSlot *slot, const UidClockSpec *spec, uint64 *tick)
{
	return uid_alloc_unique_inline(slot, spec, tick);
}

/*
 * Raises a tick/sequence word to at least tick, with that tick used up: the
 * next tick it issues is a later one.  A run-on sequence keeps where it
 * began.
 */
static void
uid_raise_word(UidWord *word, const UidClockSpec *spec, uint64 tick)
{
	uint64		old = uid_word_read(word);

	for (;;)
	{
		uint64		low = old & UID_SEQ_MASK;
		uint64		at = Max(tick, uid_word_tick(old));
		uint64		next = at << UID_SEQ_BITS | (low & ~(uint64) spec->seq_max) | spec->seq_max;

		if (next == old || uid_word_cas(word, &old, next))
			return;
	}
}

void
uid_fence_marks(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 fence_us)
{
	uint64		tick;

	/*
	 * Every ID issued so far starts before fence_us: mark the last tick that
	 * starts before it used up.
	 */
	if (fence_us <= (uint64) spec->epoch_us)
		return;
	tick = (fence_us - 1 - (uint64) spec->epoch_us) / (uint64) spec->tick_us;

	if (unique)
	{
		uid_raise_u64(&slot->uniq.last, tick);
		return;
	}
	if (spec->ticktock)
	{
		uid_raise_word(&slot->tt.mark[0], spec, tick);
		uid_raise_word(&slot->tt.mark[1], spec, tick);
	}
	else
		uid_raise_word(&slot->one.mark, spec, tick);
}

bool
uid_fence_known(UidLeaseWords *lw, uint64 incarnation, uint64 *fence_us)
{
	if (uid_word_read(&lw->fence_key) != incarnation)
		return false;
	uid_read_barrier();
	*fence_us = uid_word_read(&lw->fence_us);
	return true;
}

/*
 * The fence of this incarnation: the lease in WAL (as recovery replayed it)
 * or the file's own, the larger; every ID handed out before the incarnation
 * began ends before it.  It is taken once, before any lease of this
 * incarnation (a renewal needs a fenced slot), so that a type first used
 * later in the incarnation is not moved past leases that cover only IDs
 * whose marks the file has.
 */
uint64
uid_fence_take(UidLeaseWords *lw, uint64 incarnation, uint64 wal_lease_us)
{
	uint64		fence = Max(wal_lease_us, uid_word_read(&lw->lease_us));

	uid_raise_u64(&lw->lease_us, fence);
	uid_word_write(&lw->fence_us, fence);
	uid_write_barrier();
	uid_word_write(&lw->fence_key, incarnation);
	return fence;
}

void
uid_slot_fence(UidLeaseWords *lw, UidSlot *slot, const UidClockSpec *spec,
			   bool unique, uint64 incarnation, uint64 fence_us)
{
	if (uid_word_read(&slot->fenced) == incarnation)
		return;
	uid_fence_marks(slot, spec, unique, fence_us);
	uid_word_add(&lw->fences, 1);
	uid_write_barrier();
	uid_word_write(&slot->fenced, incarnation);
}

/*
 * Who renews the lease for an ID that needs need_us.  One backend
 * renews; a renewal that began long ago, or on another boot (the monotonic
 * clock restarts), died with its backend, and is taken over.  While one is
 * under way, an ID the lease covers already goes out (the renewal is for
 * the IDs after it); one it does not cover waits.
 */
UidRenewal
uid_lease_renewal(UidLeaseWords *lw, uint64 need_us, int64 mono_us)
{
	uint64		lease = uid_word_read(&lw->lease_us);
	uint64		began = uid_word_read(&lw->renewing);

	if (need_us + UID_LEASE_US / 2 <= lease)
		return UID_RENEWAL_COVERED;
	if ((began == 0 || (int64) began > mono_us || mono_us - (int64) began > UID_RENEW_STALE_US) &&
		uid_word_cas(&lw->renewing, &began, (uint64) mono_us))
		return UID_RENEWAL_MINE;
	if (need_us <= lease)
		return UID_RENEWAL_COVERED;
	return UID_RENEWAL_WAIT;
}

/* The renewal is in WAL (flushed) and the state file synced: publish it. */
void
uid_lease_renewed(UidLeaseWords *lw, uint64 lease_us)
{
	uid_raise_u64(&lw->lease_us, lease_us);
	uid_word_add(&lw->renewals, 1);
	uid_word_write(&lw->renewing, 0);
}

void
uid_lease_abandoned(UidLeaseWords *lw)
{
	uid_word_write(&lw->renewing, 0);
}
