/*
 * pool_test.c
 *		Tables of the lease pool's rules for its coordinator's own failures
 *		(src/core/pool.h): how a claim commits, when the pool has gone back
 *		in time, when a hold ends, the tokens after it, and what the pool
 *		hands out and renews on hold.
 *
 * Built into core_test (see there); exposes test_pool().  Each row names
 * what it checks; a failure prints the name.
 */
#include "harness.h"
#include "core_fake.h"
#include "core/pool.h"

#define DAY_US	(INT64_C(86400) * 1000000)
/* 2026-01-01 00:00:00+00, Unix microseconds */
#define NOW		INT64_C(1767225600000000)

static void
test_commit_level(void)
{
	static const struct
	{
		const char *name;
		UidCommitLevel session;
		UidCommitLevel want;
	}			rows[] = {
		{"synchronous_commit off: on", UID_COMMIT_OFF, UID_COMMIT_ON},
		{"local: on (a synchronous standby a failover promotes is waited for)", UID_COMMIT_LOCAL, UID_COMMIT_ON},
		{"remote_write: kept (flushed here, written by the synchronous standbys)", UID_COMMIT_REMOTE_WRITE,
		UID_COMMIT_REMOTE_WRITE},
		{"on: on", UID_COMMIT_ON, UID_COMMIT_ON},
		{"remote_apply: kept", UID_COMMIT_REMOTE_APPLY, UID_COMMIT_REMOTE_APPLY},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64(uid_pool_commit_level(rows[i].session), rows[i].want);
	}
}

static void
test_went_back(void)
{
	static const struct
	{
		const char *name;
		bool		written;
		bool		same_place;
		bool		same_timeline;
		bool		synced;
		bool		want;
	}			rows[] = {
		{"never written: not back", false, false, false, false, false},
		{"written here, on this timeline: not back", true, true, true, false, false},
		{"written here, on another timeline, not synced (a promoted asynchronous standby): back",
		true, true, false, false, true},
		{"written here, on another timeline, synced (a promoted synchronous standby): not back",
		true, true, false, true, false},
		{"written in another cluster or database (a restored dump): back", true, false, true, true, true},
		{"written elsewhere, on another timeline: back", true, false, false, false, true},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK(uid_pool_went_back(rows[i].written, rows[i].same_place, rows[i].same_timeline,
								 rows[i].synced) == rows[i].want);
	}
}

static void
test_hold_end(void)
{
	static const struct
	{
		const char *name;
		int64		max_ttl;
		int64		ttl;
		int64		grace;
		int64		hold;
		int64		want;
	}			rows[] = {
		{"the longest TTL given, then the grace", 7 * DAY_US, DAY_US, 60000000, INT64_MIN,
		NOW + 7 * DAY_US + 60000000},
		{"the asking call's TTL where it is longer", DAY_US, 30 * DAY_US, 60000000, INT64_MIN,
		NOW + 30 * DAY_US + 60000000},
		{"no TTL given yet: the asking call's", 0, DAY_US, 0, INT64_MIN, NOW + DAY_US},
		{"a hold that ends later stands", DAY_US, DAY_US, 0, NOW + 9 * DAY_US, NOW + 9 * DAY_US},
		{"a hold that ends sooner is moved on", DAY_US, DAY_US, 0, NOW + 1, NOW + DAY_US},
		{"the longest TTL a claim gives: held for it", 365 * DAY_US, DAY_US, 60000000, INT64_MIN,
		NOW + 365 * DAY_US + 60000000},
		{"a TTL past what a claim gives (a row edited by hand): held for the longest there is",
		400 * DAY_US, DAY_US, 60000000, INT64_MIN, NOW + 365 * DAY_US + 60000000},
		{"a TTL past the clock's end (a row edited by hand): held for the longest there is",
		INT64_MAX, DAY_US, 60000000, INT64_MIN, NOW + 365 * DAY_US + 60000000},
		{"a grace past the clock's end: held for good", DAY_US, DAY_US, INT64_MAX, INT64_MIN, INT64_MAX},
		{"held for good stays held for good", DAY_US, DAY_US, 0, INT64_MAX, INT64_MAX},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64(uid_pool_hold_end(NOW, rows[i].max_ttl, rows[i].ttl, rows[i].grace, rows[i].hold),
					 rows[i].want);
	}
}

static void
test_on_hold(void)
{
	static const struct
	{
		const char *name;
		int64		expires;
		int64		hold;
		bool		hands_out;
		bool		renews;
	}			rows[] = {
		{"no hold, a lease that runs: handed out, renewed", NOW + 1, INT64_MIN, true, true},
		{"no hold, an expired lease: handed out, renewed", NOW - 1, INT64_MIN, true, true},
		{"a hold that ended now: handed out, renewed", NOW - 1, NOW, true, true},
		{"on hold, a lease that runs: none handed out, renewed", NOW + 1, NOW + 1, false, true},
		{"on hold, a lease that ends now: none handed out, not renewed", NOW, NOW + 1, false, false},
		{"on hold, an expired lease: none handed out, not renewed", NOW - 1, NOW + 1, false, false},
		{"held for good, a lease that runs: renewed", NOW + 1, INT64_MAX, false, true},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK(uid_pool_hands_out(NOW, rows[i].hold) == rows[i].hands_out);
		CHECK(uid_pool_renews(NOW, rows[i].expires, rows[i].hold) == rows[i].renews);
	}
	harness_ctx = "the tokens after a hold: past the clock's microseconds, never lowered";
	CHECK_EQ_U64(uid_pool_token_floor(12, NOW), NOW);
	CHECK_EQ_U64(uid_pool_token_floor(NOW + 5, NOW), NOW + 5);
}

static void
test_reclaims(void)
{
	static const struct
	{
		const char *name;
		bool		same_key;
		bool		released;
		int64		expires;
		bool		want;
	}			rows[] = {
		{"its own key, a live lease: taken back", true, false, NOW + 1, true},
		{"another key's live lease: not taken", false, false, NOW + 1, false},
		{"its own key, released: not taken", true, true, NOW + 1, false},
		{"its own key, expired now: not taken", true, false, NOW, false},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK(uid_pool_reclaims(rows[i].same_key, rows[i].released, rows[i].expires, NOW) == rows[i].want);
	}
}

void
test_pool(void)
{
	test_commit_level();
	test_went_back();
	test_hold_end();
	test_on_hold();
	test_reclaims();
	harness_ctx = NULL;
}
