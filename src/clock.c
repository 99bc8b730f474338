/*
 * clock.c
 *		The generator core: the shared state file, lock-free allocation of
 *		(tick, sequence) pairs, and per-type counters.
 *
 * Why a file and not shared memory: a file mapped MAP_SHARED by every
 * backend works right after CREATE EXTENSION, with no
 * shared_preload_libraries and no restart; all backends see one state; and
 * the high-water marks outlive the server, so a clock that is behind after
 * a restart or crash cannot re-issue old IDs.
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmgr.h"
#include "funcapi.h"
#include "common/file_perm.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/s_lock.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "clock.h"

#define UID_STATE_FILE		"uid_generator.state"
#define UID_STATE_MAGIC		0x75696447	/* "uidG" */
#define UID_STATE_VERSION	3
#define UID_STATE_SIZE		4096

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

StaticAssertDecl(sizeof(UidStateFile) <= UID_STATE_SIZE,
				 "uid state must fit in its file");
StaticAssertDecl(sizeof(UidSlot) == 128, "a slot is two cache lines");
StaticAssertDecl(offsetof(UidStateFile, slots) == 64, "the slots start on a cache line");

UidStateFile *uid_state = NULL;

/* IDs issued by this backend and not yet added to the shared counters. */
static uint64 pending_issued[UID_NSLOTS];
static bool pending_any = false;

/*
 * Where a slot's run-on sequence starts: a value drawn when the state file
 * was made (its secret comes from pg_strong_random), the same for every
 * backend and across restarts.  It has to stay the same while the file
 * does: the state word holds the sequence relative to it.
 */
static inline uint32
uid_seq_origin(UidSlot *slot)
{
	return (uint32) uid_mix64(uid_state->secret ^
							  uid_mix64((uint64) (slot - uid_state->slots) + 1));
}

/*
 * Makes the state file under a private name, fully initialized and with its
 * blocks allocated, then publishes it with link(), which fails if another
 * backend published first: nobody ever maps a half-made file.  Its mode is
 * the data directory's (0600, or 0640 with group access), as for core's
 * files; a transient file is closed by the error cleanup if anything fails.
 */
static void
uid_state_create(const char *path)
{
	char		tmp[MAXPGPATH];
	UidStateFile *init;
	int			fd;
	int			rc;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, MyProcPid);
	(void) unlink(tmp);			/* left over by a dead backend with our pid */
	fd = OpenTransientFilePerm(tmp, O_RDWR | O_CREAT | O_EXCL | PG_BINARY,
							   pg_file_create_mode);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));

	/* allocate the blocks now: a later store can then never hit a full disk */
	rc = posix_fallocate(fd, 0, UID_STATE_SIZE);
	if (rc == 0)
	{
		init = palloc0(UID_STATE_SIZE);
		init->magic = UID_STATE_MAGIC;
		init->version = UID_STATE_VERSION;
		/* a new file records every sequence sno_new() issues (sno.c) */
		pg_atomic_init_u64(&init->sno_cfg.live_used, UID_SNO_USED_EMPTY);
		if (!pg_strong_random(&init->secret, sizeof(init->secret)))
		{
			CloseTransientFile(fd);
			unlink(tmp);
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random bytes for the uid state file")));
		}
		errno = 0;
		if (pwrite(fd, init, UID_STATE_SIZE, 0) != UID_STATE_SIZE)
			rc = errno ? errno : ENOSPC;
		else if (pg_fsync(fd) != 0)
			rc = errno;
		pfree(init);
	}
	CloseTransientFile(fd);
	if (rc != 0)
	{
		unlink(tmp);
		errno = rc;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not initialize file \"%s\": %m", tmp)));
	}

	if (link(tmp, path) != 0 && errno != EEXIST)
	{
		int			save_errno = errno;

		unlink(tmp);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not link file \"%s\" to \"%s\": %m", tmp, path)));
	}
	unlink(tmp);
	fsync_fname(DataDir, true);
}

/* The path of the state file. */
static const char *
uid_state_path(void)
{
	static char path[MAXPGPATH];

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "%s/%s", DataDir, UID_STATE_FILE);
	return path;
}

/* The device and inode of the file this backend mapped. */
static dev_t mapped_dev;
static ino_t mapped_ino;

void
uid_state_attach(void)
{
	const char *path = uid_state_path();
	struct stat st;
	void	   *p;
	int			fd;
	UidStateFile *file;

	while ((fd = OpenTransientFile(path, O_RDWR | PG_BINARY)) < 0)
	{
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		uid_state_create(path);
	}

	if (fstat(fd, &st) != 0 || st.st_size < UID_STATE_SIZE)
	{
		CloseTransientFile(fd);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" is truncated", path),
				 errhint("Stop the server, remove the file and start it again; "
						 "the first IDs after that are fenced past the lease in WAL.")));
	}

	p = mmap(NULL, UID_STATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CloseTransientFile(fd);
	if (p == MAP_FAILED)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not map file \"%s\": %m", path)));

	file = (UidStateFile *) p;
	if (file->magic != UID_STATE_MAGIC ||
		file->version < 1 || file->version > UID_STATE_VERSION)
	{
		munmap(p, UID_STATE_SIZE);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" has an unknown format", path)));
	}

	/*
	 * Take an older file over in place.  Version 1: its header words after
	 * the secret are zero, a valid header with no lease yet, and its slots
	 * are unfenced, so that they are fenced before their next ID.  Version
	 * 2 (uid 0.3.0 to 0.5.0, or this library's file after a library of
	 * those ran on it, which a file of version 3 refuses): whatever record
	 * of the live sno sequences it holds may miss what an older library
	 * issued, so it starts again, its history unknown up to the marks
	 * (sno.c, sno_used_read).  Two backends taking it over at once both
	 * clear it; the second may clear a sequence the first recorded, which
	 * the marks then cover.
	 */
	if (file->version < UID_STATE_VERSION)
	{
		if (file->version == 2)
			pg_atomic_write_u64(&file->sno_cfg.live_used, 0);
		pg_memory_barrier();
		file->version = UID_STATE_VERSION;
	}
	mapped_dev = st.st_dev;
	mapped_ino = st.st_ino;
	uid_state = file;
}

uint64
uid_state_file_id(void)
{
	return (uint64) mapped_dev * UINT64CONST(0x9E3779B97F4A7C15) ^ (uint64) mapped_ino;
}

void
uid_state_check_same(void)
{
	struct stat st;

	if (stat(uid_state_path(), &st) != 0 ||
		st.st_dev != mapped_dev || st.st_ino != mapped_ino)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the uid state file \"%s\" was removed or replaced while the server was running",
						uid_state_path()),
				 errdetail("This session keeps the state it mapped before; generating from it beside the new file could repeat IDs."),
				 errhint("Restart the server: the first IDs after that are fenced past the lease in WAL.")));
}

void
uid_state_sync(void)
{
	if (msync(uid_state, UID_STATE_SIZE, MS_SYNC) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not sync file \"%s\": %m", uid_state_path())));
}

void
uid_clock_out_of_range(const UidClockSpec *spec, int64 now_us)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the system clock is outside the time range of type %s",
					spec->type_name),
			 errdetail("The clock reads " INT64_FORMAT " microseconds since 1970-01-01 00:00:00+00.",
					   now_us)));
}

/* The next ID of a type would be past the end of its time range. */
UID_NORETURN static void uid_out_of_time(const UidClockSpec *spec) UID_NORETURN_AFTER;

static void
uid_out_of_time(const UidClockSpec *spec)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("type %s has run out of time", spec->type_name),
			 errdetail("The next ID would be past the end of the format's time range.")));
}

/*
 * Sleeps for about us microseconds.  Long sleeps (uid60 waits up to a
 * second) wait on the process latch, so that a cancel or a dying
 * postmaster ends them at once; short ones use pg_usleep, whose resolution
 * a 1 ms tick needs.  A signal may end either early.  Returns false when
 * the latch ended the sleep before its time.
 */
static bool
uid_sleep_us(int64 us)
{
	if (us >= 1000)
	{
		int			rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								   (long) (us / 1000), uid_wait_UidNextTick());

		ResetLatch(MyLatch);
		return (rc & WL_TIMEOUT) != 0;
	}
	pg_usleep((long) us);
	return true;
}

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
uid_clock_wait_past(UidSlot *slot, const UidClockSpec *spec, uint64 tick, bool used_up)
{
	int64		target = spec->epoch_us + (int64) (tick + 1) * spec->tick_us;
	int64		start = uid_clock_unix_us();
	int64		wait = target - start;

	/*
	 * More than a tick away means the clock jumped back since the caller
	 * read it: the caller looks again, and borrows.
	 */
	if (wait > spec->tick_us)
		return UID_WAIT_CLOCK_BACK;
	pg_atomic_fetch_add_u64(&slot->overflow_waits, 1);
	if (spec->on_wait != NULL)
		spec->on_wait(spec, slot, tick, used_up);
	if (wait > 0)
	{
		int64		deadline = uid_clock_mono_us() + wait + wait / 16 + UID_WAIT_SPIN_US;
		int64		now;
		int			sleeps = 0;
		int64		spins = 0;
		UidWaitEnd	end = UID_WAIT_PASSED;

		while ((now = uid_clock_unix_us()) < target)
		{
			int64		left = Min(target - now, deadline - uid_clock_mono_us());

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
				now = uid_clock_unix_us();
				if (now < start)
					end = UID_WAIT_CLOCK_BACK;
				else if (now < target)
					end = UID_WAIT_STALLED;
				break;
			}
			if (left > UID_WAIT_SPIN_US)
				sleeps += uid_sleep_us(left - UID_WAIT_SPIN_US) ? 1 : 0;
			else
			{
				spins++;
				pg_spin_delay();
			}
			CHECK_FOR_INTERRUPTS();
		}
		if (now > start && now - start <= 2 * spec->tick_us)
			pg_atomic_fetch_add_u64(&slot->overflow_wait_us, (uint64) (now - start));
		CHECK_FOR_INTERRUPTS();
		return end;
	}
	CHECK_FOR_INTERRUPTS();
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
	pg_read_barrier();
	return spec->now(spec);
}

typedef enum UidAttempt
{
	UID_ATTEMPT_DONE,			/* issued: *out is set */
	UID_ATTEMPT_RETRY,			/* lost a race: read again */
	UID_ATTEMPT_FULL,			/* the clock's tick is used up */
	UID_ATTEMPT_BORROW			/* it would borrow, and the caller paces that */
} UidAttempt;

/*
 * One attempt to move a tick/sequence word from old (read before the clock
 * read now) to its next value, within the sequence part lo..hi (see
 * uid_next_tick_in).  On success it counts the call as one that found the
 * clock behind the mark if behind is set; when the clock's tick is used up
 * it reports that tick in *full_tick.  With paced set, an attempt that would
 * borrow the tick after the mark reports that instead (uid_pace_claim).
 * Inlined into both allocators: called, it passed its eleven arguments on
 * the stack on every ID (counted with bench/instructions.sh: 40 to 50
 * instructions per ID).
 */
static pg_attribute_always_inline UidAttempt
uid_tick_attempt(UidSlot *slot, int wordno, const UidClockSpec *spec,
				 uint32 lo, uint32 hi,
				 uint64 old, uint64 now, bool stalled, bool behind, bool paced,
				 UidTickSeq *out, uint64 *full_tick)
{
	uint64		mark = uid_word_tick(old);
	uint32		seq = (uint32) (old & ((UINT64CONST(1) << UID_SEQ_BITS) - 1));
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
		width = pg_leftmost_one_pos32(spec->seq_max) + 1;
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
		uid_out_of_time(spec);

	/* a new tick's run-on sequence begins one after the last number issued */
	if (spec->seq_runs_on && tick != mark)
		start = (start + seq + 1) & spec->seq_max;

	if (!pg_atomic_compare_exchange_u64(&slot->word[wordno], &old,
										tick << UID_SEQ_BITS | start << width | next))
		return UID_ATTEMPT_RETRY;

	if (unlikely(behind))
		pg_atomic_fetch_add_u64(&slot->clock_regressions, 1);
	out->tick = tick;
	out->seq = next;
	if (spec->seq_runs_on)
		out->seq = (uid_seq_origin(slot) + start + next) & spec->seq_max;
	out->timeline = wordno;
	return UID_ATTEMPT_DONE;
}

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
 * (sno has no free word; its 65,536 IDs per 4 ms are beyond any load.)
 */
#define UID_PACE_WORD 1

static bool
uid_pace_claim(UidSlot *slot, const UidClockSpec *spec)
{
	pg_atomic_uint64 *word = &slot->word[UID_PACE_WORD];
	uint64		old = pg_atomic_read_u64(word);

	for (;;)
	{
		int64		now = uid_clock_mono_us();
		int64		at = (int64) old;

		if (at > now && at <= now + spec->tick_us)
		{
			pg_atomic_fetch_add_u64(&slot->overflow_waits, 1);
			uid_sleep_us(at - now);
			pg_atomic_fetch_add_u64(&slot->overflow_wait_us,
									(uint64) Max(uid_clock_mono_us() - now, 0));
			CHECK_FOR_INTERRUPTS();
			return false;
		}
		if (pg_atomic_compare_exchange_u64(word, &old, (uint64) (now + spec->tick_us)))
			return true;
	}
}

static bool
uid_tick_alloc(UidSlot *slot, const UidClockSpec *spec, uint32 lo, uint32 hi,
			   bool stalled, UidTickSeq *out, uint64 *full_tick)
{
	bool		behind = false;
	bool		may_borrow = false;

	for (;;)
	{
		uint64		old = pg_atomic_read_u64(&slot->word[0]);
		uint64		now = uid_clock_after_state(spec);
		UidAttempt	r;

		behind |= now < uid_word_tick(old);
		r = uid_tick_attempt(slot, 0, spec, lo, hi, old, now, stalled, behind,
							 !may_borrow, out, full_tick);
		if (r == UID_ATTEMPT_BORROW)
			may_borrow = uid_pace_claim(slot, spec);
		else if (r != UID_ATTEMPT_RETRY)
			return r == UID_ATTEMPT_DONE;
	}
}

static bool
uid_ticktock_alloc(UidSlot *slot, const UidClockSpec *spec, uint32 lo, uint32 hi,
				   bool stalled, UidTickSeq *out, uint64 *full_tick)
{
	bool		behind = false;

	for (;;)
	{
		uint64		sel = pg_atomic_read_u64(&slot->word[2]);
		int			cur = (int) (sel & 1);
		uint64		old = pg_atomic_read_u64(&slot->word[cur]);
		uint64		other = pg_atomic_read_u64(&slot->word[1 - cur]);
		uint64		seen = pg_atomic_read_u64(&slot->word[3]);
		uint64		now = uid_clock_after_state(spec);
		uint64		max_seen = seen;
		UidAttempt	r;

		/* the highest clock reading so far; written once per new tick */
		while (now > max_seen &&
			   !pg_atomic_compare_exchange_u64(&slot->word[3], &max_seen, now))
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
			if (pg_atomic_compare_exchange_u64(&slot->word[2], &sel, sel + 1))
				pg_atomic_fetch_add_u64(&slot->tick_flips, 1);
			continue;
		}
		r = uid_tick_attempt(slot, cur, spec, lo, hi, old, now, stalled, behind,
							 false, out, full_tick);
		if (r != UID_ATTEMPT_RETRY)
			return r == UID_ATTEMPT_DONE;
	}
}

/*
 * A fair share of a contended tick.  A tick holds seq_max + 1 IDs (or the
 * size of the part of the sequence a call issues from); a session
 * that calls in a loop would take them all within the tick's first moments,
 * and every other session would wait for the next tick on each call (seen:
 * 20 uid60_new() calls 10 ms apart took 4 s beside one such loop instead of
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
StaticAssertDecl(UID_TICK_MAX >> (64 - 2 * UID_SHARE_N_BITS) == 0,
				 "a tick and two counts of sharers fit one word");

static uint64 share_tick[UID_NSLOTS];	/* the tick this backend last took an ID in */
static uint32 share_taken[UID_NSLOTS];	/* how many it took in it */

/* This backend took an ID in tick: count it, and itself among the tick's sharers. */
static void
uid_share_count(UidSlot *slot, const UidClockSpec *spec, uint64 tick)
{
	uint64		old;
	uint64		next;

	if (share_tick[spec->slot] == tick)
	{
		share_taken[spec->slot]++;
		return;
	}
	share_tick[spec->slot] = tick;
	share_taken[spec->slot] = 1;
	old = pg_atomic_read_u64(&slot->sharers);
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
	} while (!pg_atomic_compare_exchange_u64(&slot->sharers, &old, next));
}

/*
 * Whether this backend has taken its share of the tick the clock is in, a
 * tick holding capacity IDs; if so, *tick is that tick, to wait past.
 */
static inline bool
uid_share_used(UidSlot *slot, const UidClockSpec *spec, uint32 capacity,
			   uint64 *tick)
{
	uint64		mine = share_tick[spec->slot];
	uint64		word;
	uint32		n;

	if (share_taken[spec->slot] < 2)
		return false;
	word = pg_atomic_read_u64(&slot->sharers);
	if (word >> (2 * UID_SHARE_N_BITS) != mine)
		return false;
	n = Max(word & UID_SHARE_N_MAX, (word >> UID_SHARE_N_BITS) & UID_SHARE_N_MAX);
	if (n < 2 || share_taken[spec->slot] < capacity / n)
		return false;
	/* the share is of the tick the clock is in, not of one borrowed ahead */
	if (spec->now(spec) != mine)
		return false;
	*tick = mine;
	return true;
}

UidTickSeq
uid_next_tick_in(const UidClockSpec *spec, uint32 seq_lo, uint32 seq_hi)
{
	UidSlot    *slot = uid_gen_slot(spec, false);
	UidTickSeq	ts;
	uint64		full_tick;
	bool		stalled = false;

	Assert(seq_lo <= seq_hi && seq_hi <= spec->seq_max);
	for (;;)
	{
		bool		done;

		/* after a stalled wait the allocator borrows, and shares lapse */
		if (unlikely(!stalled &&
					 uid_share_used(slot, spec, seq_hi - seq_lo + 1, &full_tick)))
		{
			if (uid_clock_wait_past(slot, spec, full_tick, false) == UID_WAIT_STALLED)
				stalled = true;
			continue;
		}
		done = spec->ticktock ?
			uid_ticktock_alloc(slot, spec, seq_lo, seq_hi, stalled, &ts, &full_tick) :
			uid_tick_alloc(slot, spec, seq_lo, seq_hi, stalled, &ts, &full_tick);
		if (done)
		{
			ts.ident = uid_ident_cover(slot, spec, false, ts.tick);
			if (likely(ts.ident != UID_IDENT_AGAIN))
				break;
			continue;
		}
		/* a full wait that did not move the clock: borrow the next tick */
		if (uid_clock_wait_past(slot, spec, full_tick, true) == UID_WAIT_STALLED)
			stalled = true;
	}
	uid_share_count(slot, spec, ts.tick);
	uid_lease_cover(spec, ts.tick);
	return ts;
}

uint64
uid_unique_tick(const UidClockSpec *spec, int32 *ident)
{
	UidSlot    *slot = uid_gen_slot(spec, true);

	for (;;)
	{
		/*
		 * The highest clock reading is read before the state: whoever wrote
		 * it read its clock before its own update of the state, so a
		 * reading below it means the clock went back.  (Compared with a
		 * value read later, a backend that was merely slower would count.)
		 */
		uint64		seen = pg_atomic_read_u64(&slot->word[1]);
		uint64		old;
		uint64		now;
		uint64		next;
		uint64		max_seen;

		pg_read_barrier();
		old = pg_atomic_read_u64(&slot->word[0]);
		now = uid_clock_after_state(spec);
		next = now > old ? now : old + 1;
		if (unlikely(next > spec->tick_max))
			uid_out_of_time(spec);
		if (!pg_atomic_compare_exchange_u64(&slot->word[0], &old, next))
			continue;

		max_seen = seen;
		while (now > max_seen &&
			   !pg_atomic_compare_exchange_u64(&slot->word[1], &max_seen, now))
			;
		if (unlikely(now < seen))
			pg_atomic_fetch_add_u64(&slot->clock_regressions, 1);
		*ident = uid_ident_cover(slot, spec, true, next);
		if (unlikely(*ident == UID_IDENT_AGAIN))
			continue;
		uid_lease_cover(spec, next);
		return next;
	}
}

/*
 * Raises a tick/sequence word to at least tick, with that tick used up: the
 * next tick it issues is a later one.  A run-on sequence keeps where it
 * began.
 */
static void
uid_raise_word(pg_atomic_uint64 *word, const UidClockSpec *spec, uint64 tick)
{
	uint64		old = pg_atomic_read_u64(word);

	for (;;)
	{
		uint64		low = old & ((UINT64CONST(1) << UID_SEQ_BITS) - 1);
		uint64		at = Max(tick, uid_word_tick(old));
		uint64		next = at << UID_SEQ_BITS | (low & ~(uint64) spec->seq_max) | spec->seq_max;

		if (next == old ||
			pg_atomic_compare_exchange_u64(word, &old, next))
			return;
	}
}

void
uid_fence_marks(UidSlot *slot, const UidClockSpec *spec, bool unique, uint64 fence_us)
{
	uint64		tick;

	/*
	 * Every ID issued so far ends at or before fence_us, so its tick is below
	 * the first tick that ends after it: mark the tick before that one used
	 * up.
	 */
	if (fence_us < (uint64) spec->epoch_us + (uint64) spec->tick_us)
		return;
	tick = (fence_us - (uint64) spec->epoch_us) / (uint64) spec->tick_us - 1;

	if (unique)
	{
		uid_raise_u64(&slot->word[0], tick);
		return;
	}
	uid_raise_word(&slot->word[0], spec, tick);
	if (spec->ticktock)
		uid_raise_word(&slot->word[1], spec, tick);
}

void
uid_count_issued(UidSlotId id)
{
	pending_issued[id]++;
	pending_any = true;
}

void
uid_flush_counts(void)
{
	if (!pending_any || uid_state == NULL)
		return;
	for (int i = 0; i < UID_NSLOTS; i++)
	{
		if (pending_issued[i] != 0)
		{
			pg_atomic_fetch_add_u64(&uid_state->slots[i].issued, pending_issued[i]);
			pending_issued[i] = 0;
		}
	}
	pending_any = false;
}

uint64
uid_boot_value(uint64 purpose)
{
	if (uid_state == NULL)
		uid_state_attach();
	return uid_mix64(uid_state->secret ^
					 uid_mix64((uint64) PgStartTime ^ uid_mix64(purpose + 1)));
}

/* The types uid_stats() reports, in slot order. */
static const struct
{
	UidSlotId	slot;
	const char *name;
}			uid_stat_types[] =
{
	{UID_SLOT_SNO, "sno"},
	{UID_SLOT_MUID, "muid"},
	{UID_SLOT_SNOWFLAKE_SI, "snowflake_si"},
	{UID_SLOT_REVTS8, "revts8"},
	{UID_SLOT_UID60, "uid60"},
};

PG_FUNCTION_INFO_V1(uid_stats);
Datum
uid_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	if (uid_state == NULL)
		uid_state_attach();
	uid_flush_counts();

	for (size_t i = 0; i < lengthof(uid_stat_types); i++)
	{
		UidSlot    *slot = &uid_state->slots[uid_stat_types[i].slot];
		Datum		values[6];
		bool		nulls[6] = {0};

		values[0] = CStringGetTextDatum(uid_stat_types[i].name);
		values[1] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->issued));
		values[2] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_waits));
		values[3] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->overflow_wait_us));
		values[4] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->clock_regressions));
		values[5] = Int64GetDatum((int64) pg_atomic_read_u64(&slot->tick_flips));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
