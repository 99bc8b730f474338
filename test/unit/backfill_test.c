/*
 * backfill_test.c
 *		Tables of what a state file knows of the IDs made before it
 *		(src/core/backfill.c, backfill.h): uid_state_has_record(), which
 *		decides whether uid_fence_restore() may carry a state file over a
 *		pg_upgrade, uid_restore_lease(), the lease it then WAL-logs, and
 *		uid_used_take_over(), which decides from when back-fill may date an
 *		ID with a file made anew or one of an older library, and
 *		uid_used_widen(), which makes the record of live sequences durable
 *		before a live ID of a sequence it did not cover goes out.
 *
 * Built into core_test (see there); exposes test_backfill().  Each row
 * names what it checks; a failure prints the name.
 */
#include "harness.h"
#include "core_fake.h"
#include "core/backfill.h"

#define NSLOTS 8

/* A state file's words, as uid_state_create() makes a file anew. */
typedef struct FileWords
{
	UidLeaseWords lease;
	UidWord		used;
	UidWord		used_since;
	UidSlot		slots[NSLOTS];
} FileWords;

static void
file_anew(FileWords *f)
{
	memset(f, 0, sizeof(*f));
	f->used.value = 0;
	f->used_since.value = UID_USED_SINCE_FENCE;
}

static bool
has_record(FileWords *f)
{
	return uid_state_has_record(&f->lease, &f->used, &f->used_since, f->slots, NSLOTS);
}

static void
test_has_record(void)
{
	FileWords	f;

	harness_ctx = "a file made anew: no record (uid_fence_restore refuses it)";
	file_anew(&f);
	CHECK(!has_record(&f));

	harness_ctx = "a lease (0.3.0 on: a server that made an ID): a record";
	file_anew(&f);
	f.lease.lease_us.value = 1;
	CHECK(has_record(&f));

	harness_ctx = "only a fence, no lease: no record (the fence is of this incarnation)";
	file_anew(&f);
	f.lease.fence_us.value = 1700000000000000;
	CHECK(!has_record(&f));

	harness_ctx = "the record of live sequences begun: a record";
	file_anew(&f);
	f.used.value = UID_USED_EMPTY;
	CHECK(has_record(&f));

	harness_ctx = "the record taken over at a fence of 0 (a new server's first file): a record";
	file_anew(&f);
	f.used_since.value = 0;
	CHECK(has_record(&f));

	harness_ctx = "a file of 0.5.0 or older (zeros for the record), with no lease: a record";
	memset(&f, 0, sizeof(f));
	CHECK(has_record(&f));

	harness_ctx = "a mark in the first slot (0.1.0, 0.2.0: marks, no lease): a record";
	file_anew(&f);
	f.slots[0].word[0].value = UINT64_C(5) << UID_SEQ_BITS;
	CHECK(has_record(&f));

	harness_ctx = "a word in the last slot's last word: a record";
	file_anew(&f);
	f.slots[NSLOTS - 1].word[7].value = 1;
	CHECK(has_record(&f));

	harness_ctx = "a word of the slots beyond those counted: not read";
	file_anew(&f);
	f.slots[NSLOTS - 1].word[7].value = 1;
	CHECK(!uid_state_has_record(&f.lease, &f.used, &f.used_since, f.slots, NSLOTS - 1));
}

/* sno's clock, as far as the take-over reads it: tick 0 at epoch, 4 ms ticks */
static const UidClockSpec clock_spec = {
	.type_name = "sno", .func = "sno_new()", .slot = 0,
	.epoch_us = 1000000000, .tick_us = 4000,
};

static void
take_over_row(const char *name, uint64 used, uint64 since, uint64 fence_us, uint64 mark0,
			  uint64 mark1, uint64 want_used, uint64 want_since)
{
	FileWords	f;

	harness_ctx = name;
	memset(&f, 0, sizeof(f));
	f.used.value = used;
	f.used_since.value = since;
	f.slots[0].tt.mark[0].value = mark0 << UID_SEQ_BITS;
	f.slots[0].tt.mark[1].value = mark1 << UID_SEQ_BITS;
	CHECK_EQ_U64(uid_used_take_over(&f.used, &f.used_since, fence_us, &clock_spec, &f.slots[0]),
				 want_used);
	CHECK_EQ_U64(f.used.value, want_used);
	CHECK_EQ_U64(f.used_since.value, want_since);
	/* a second call changes nothing */
	CHECK_EQ_U64(uid_used_take_over(&f.used, &f.used_since, fence_us + 1000000, &clock_spec,
									&f.slots[0]), want_used);
	CHECK_EQ_U64(f.used_since.value, want_since);
}

static void
test_take_over(void)
{
	const uint64 e = (uint64) clock_spec.epoch_us;
	const uint64 t = (uint64) clock_spec.tick_us;
	const uint64 rec = UID_USED_VALID | UID_USED_DURABLE | 3 << 16 | 9;

	take_over_row("a record begun: kept, whatever the fence", rec, 17, e + 500 * t, 0, 0, rec, 17);
	take_over_row("made anew, fence 0 (a new server): nothing unknown", 0, UID_USED_SINCE_FENCE,
				  0, 7, 9, UID_USED_EMPTY, 0);
	take_over_row("made anew, a fence before the epoch: nothing unknown", 0, UID_USED_SINCE_FENCE,
				  e - 1, 0, 0, UID_USED_EMPTY, 0);
	take_over_row("made anew, a fence at the epoch: nothing unknown", 0, UID_USED_SINCE_FENCE,
				  e, 0, 0, UID_USED_EMPTY, 0);
	take_over_row("made anew, a fence at a tick's start: unknown up to the tick before",
				  0, UID_USED_SINCE_FENCE, e + 500 * t, 0, 0, UID_USED_EMPTY, 499);
	take_over_row("made anew, a fence a microsecond into a tick: unknown up to that tick",
				  0, UID_USED_SINCE_FENCE, e + 500 * t + 1, 0, 0, UID_USED_EMPTY, 500);
	take_over_row("made anew, a fence at a tick's last microsecond: that tick",
				  0, UID_USED_SINCE_FENCE, e + 501 * t - 1, 0, 0, UID_USED_EMPTY, 500);
	take_over_row("made anew: the marks do not count, the fence does", 0, UID_USED_SINCE_FENCE,
				  e + 10 * t + 1, 900, 950, UID_USED_EMPTY, 10);
	take_over_row("an older file: unknown up to the higher mark (timeline 1)", 0, 0,
				  e + 10 * t, 40, 90, UID_USED_EMPTY, 90);
	take_over_row("an older file: unknown up to the higher mark (timeline 0)", 0, 0,
				  e + 10 * t, 91, 90, UID_USED_EMPTY, 91);
	take_over_row("an older file with a later since: kept", 0, 120, e, 40, 90, UID_USED_EMPTY, 120);
	take_over_row("an older file, the fence ahead of the marks: the marks (the fence is not read)",
				  0, 0, e + 5000 * t, 40, 90, UID_USED_EMPTY, 90);
}

static void
restore_row(const char *name, bool record, uint64 file_lease, uint64 now, uint64 want)
{
	FileWords	f;

	harness_ctx = name;
	file_anew(&f);
	f.lease.lease_us.value = file_lease;
	CHECK_EQ_U64(uid_restore_lease(&f.lease, record, now), want);
}

static void
test_restore_lease(void)
{
	const uint64 now = UINT64_C(1800000000000000);

	restore_row("no record: a lease of now", false, 0, now, now + UID_LEASE_US);
	restore_row("no record, a lease in the file: not trusted, a lease of now", false,
				now + 50 * UID_LEASE_US, now, now + UID_LEASE_US);
	restore_row("a record whose lease is ahead of now's: the file's", true,
				now + 50 * UID_LEASE_US, now, now + 50 * UID_LEASE_US);
	restore_row("a record whose lease is a microsecond ahead: the file's", true,
				now + UID_LEASE_US + 1, now, now + UID_LEASE_US + 1);
	restore_row("a record whose lease is behind now's: a lease of now", true,
				now - 3600 * UID_LEASE_US, now, now + UID_LEASE_US);
	restore_row("a record with no lease (0.1.0, 0.2.0: marks): a lease of now", true, 0, now,
				now + UID_LEASE_US);
	restore_row("never 0: a clock at 0", false, 0, 0, UID_LEASE_US);
}

/*
 * uid_used_widen(): when it returns, the disk (what the last sync wrote)
 * holds a record that covers the ID's sequence, and from when its part was
 * used as lowered for it; the caller's copy is durable and covers it.  An
 * operating-system crash goes back to the disk: a record lost there lets
 * back-fill repeat a live ID (plant durable).
 */
static UidWord widen_used;
static UidWord widen_from[UID_FROM_WORDS];
static UidWord widen_mark0;
static uint64 disk_used;
static uint64 disk_from[UID_FROM_WORDS];
static int	syncs;
/* another backend's call, made while the first sync is under way (NULL: none) */
static void (*during_sync) (void);

static void
widen_sync(void)
{
	void		(*other) (void) = during_sync;

	during_sync = NULL;
	if (other != NULL)
		other();
	disk_used = widen_used.value;
	for (int i = 0; i < UID_FROM_WORDS; i++)
		disk_from[i] = widen_from[i].value;
	syncs++;
}

/*
 * A row: the record used (and what the disk held of it), the from word of
 * the sequence's part, the ID's sequence, tick and timeline; the syncs it
 * may take at most (-1: any).
 */
static void
widen_row(const char *name, uint64 used, uint64 disk, uint64 from, uint32 seq, uint64 tick,
		  int max_syncs)
{
	UidUsedFrom f = {widen_from, &widen_mark0, tick, 0};
	uint64		copy = 0;

	harness_ctx = name;
	fake_reset();
	widen_used.value = used;
	disk_used = disk;
	for (int i = 0; i < UID_FROM_WORDS; i++)
		widen_from[i].value = disk_from[i] = from;
	widen_mark0.value = 0;
	syncs = 0;
	uid_used_widen(&widen_used, &copy, seq, 0, 9, 4, widen_sync, &f);
	CHECK(disk_used & UID_USED_VALID);
	CHECK(uid_used_lo(disk_used) <= seq && seq <= uid_used_hi(disk_used));
	CHECK(uid_used_covers(copy, seq));
	CHECK(widen_used.value & UID_USED_DURABLE);
	CHECK_EQ_U64(disk_from[seq >> UID_FROM_SHIFT], widen_from[seq >> UID_FROM_SHIFT].value);
	CHECK(widen_from[seq >> UID_FROM_SHIFT].value <= tick + 1);
	if (max_syncs >= 0)
		CHECK(syncs <= max_syncs);
}

/*
 * Another backend, while the widener's sync is under way, makes an ID of a
 * sequence the widened record covers: it may not go out before the disk
 * holds that record.
 */
static bool other_covered;

static void
widen_other(void)
{
	uint64		copy = 0;

	uid_used_widen(&widen_used, &copy, 2, 0, 9, 4, widen_sync, NULL);
	other_covered = (disk_used & UID_USED_VALID) && uid_used_lo(disk_used) <= 2 &&
		2 <= uid_used_hi(disk_used);
}

static void
test_widen(void)
{
	const uint64 rec = UID_USED_VALID | UID_USED_DURABLE | UINT64_C(0) << 16 | 9;
	const uint64 tick = 1000;

	widen_row("no record yet: widened to the block, synced", 0, 0, UID_FROM_NONE, 3, tick, -1);
	widen_row("an empty record: widened, synced", UID_USED_EMPTY, UID_USED_EMPTY,
			  UID_FROM_NONE, 3, tick, -1);
	widen_row("a record short of the sequence: widened, synced",
			  UID_USED_VALID | UID_USED_DURABLE | 1, UID_USED_VALID | UID_USED_DURABLE | 1,
			  tick + 1, 6, tick, -1);
	widen_row("a record another backend widened over it, not synced yet: synced here",
			  rec & ~UID_USED_DURABLE, UID_USED_VALID | UID_USED_DURABLE | 1, tick + 1, 6,
			  tick, -1);
	widen_row("a durable record over it, its part used from an earlier tick: no sync",
			  rec, rec, tick + 1, 6, tick, 0);
	widen_row("a durable record over it, its part used from a later tick: lowered, synced",
			  rec, rec, tick + 50, 6, tick, -1);
	widen_row("a durable record over it, its part not used yet: lowered, synced",
			  rec, rec, UID_FROM_NONE, 6, tick, -1);

	other_covered = false;
	during_sync = widen_other;
	widen_row("another backend during the widener's sync: it waits for the disk too",
			  0, 0, UID_FROM_NONE, 3, tick, -1);
	harness_ctx = "another backend during the widener's sync: its ID not out before the disk holds it";
	CHECK(other_covered);
	during_sync = NULL;
}

void		test_backfill(void);

void
test_backfill(void)
{
	fake_reset();
	test_has_record();
	test_take_over();
	test_restore_lease();
	test_widen();
}
