/*
 * harness.h
 *		A tiny test harness shared by the codec unit tests of every format.
 *
 * Pure C11, no PostgreSQL headers and no third-party framework.
 *
 *	CHECK(cond)				 passes when cond is true
 *	CHECK_EQ_U64(got, want)	 compares two integers as uint64_t
 *	CHECK_MEM(got, want, n)	 compares n bytes
 *
 * Each macro is an expression that yields 1 on success and 0 on failure,
 * so a test can write "if (!CHECK(...)) continue;".  Every evaluation is
 * one check: it adds one to harness_passed or to harness_failed.  Only the
 * first HARNESS_MAX_REPORTS failures are printed, so a bug hit inside a
 * loop of a million iterations does not flood the terminal.
 *
 * Tests can set harness_ctx (a short string naming what is being tested)
 * and harness_iter (the loop iteration); both are printed with a failure.
 *
 * A per-format test lives in <format>_test.c and exposes
 * "void test_<format>(void)"; codec_test.c calls them all.  The counters
 * are declared extern here and defined once in codec_test.c, so the tests
 * also work if they are one day compiled as separate translation units.
 *
 * Random tests use splitmix64: fast, deterministic, and good enough to
 * spread bits over the whole value.  The seed is harness_seed (fixed
 * unless UID_TEST_SEED is set), so a failure can be reproduced.
 */
#ifndef UID_TEST_HARNESS_H
#define UID_TEST_HARNESS_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define HARNESS_MAX_REPORTS 50

extern unsigned long long harness_passed;
extern unsigned long long harness_failed;
extern uint64_t harness_seed;
extern const char *harness_ctx;
extern unsigned long long harness_iter;

/* Count a failure; returns 1 if its details should be printed. */
static inline int
harness_fail(const char *file, int line, const char *what)
{
	harness_failed++;
	if (harness_failed > HARNESS_MAX_REPORTS)
	{
		if (harness_failed == HARNESS_MAX_REPORTS + 1)
			fprintf(stderr, "... further failure messages suppressed\n");
		return 0;
	}
	fprintf(stderr, "%s:%d: FAIL: %s", file, line, what);
	if (harness_ctx)
		fprintf(stderr, "  [%s, iteration %llu]", harness_ctx, harness_iter);
	fputc('\n', stderr);
	return 1;
}

static inline int
harness_check(int ok, const char *file, int line, const char *expr)
{
	if (ok)
	{
		harness_passed++;
		return 1;
	}
	harness_fail(file, line, expr);
	return 0;
}

static inline int
harness_check_u64(uint64_t got, uint64_t want, const char *file, int line,
				  const char *expr)
{
	if (got == want)
	{
		harness_passed++;
		return 1;
	}
	if (harness_fail(file, line, expr))
		fprintf(stderr, "    got  0x%016" PRIx64 " (%" PRIu64 ")\n"
				"    want 0x%016" PRIx64 " (%" PRIu64 ")\n",
				got, got, want, want);
	return 0;
}

static inline void
harness_dump(const char *label, const void *p, size_t n)
{
	const unsigned char *b = p;

	fprintf(stderr, "    %s ", label);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%02x", b[i]);
	fprintf(stderr, "  \"");
	for (size_t i = 0; i < n; i++)
		fputc(b[i] >= 0x20 && b[i] < 0x7f ? b[i] : '.', stderr);
	fprintf(stderr, "\"\n");
}

static inline int
harness_check_mem(const void *got, const void *want, size_t n,
				  const char *file, int line, const char *expr)
{
	if (memcmp(got, want, n) == 0)
	{
		harness_passed++;
		return 1;
	}
	if (harness_fail(file, line, expr))
	{
		harness_dump("got ", got, n);
		harness_dump("want", want, n);
	}
	return 0;
}

#define CHECK(cond) \
	harness_check(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ_U64(got, want) \
	harness_check_u64((uint64_t) (got), (uint64_t) (want), __FILE__, __LINE__, \
					  #got " == " #want)
#define CHECK_MEM(got, want, n) \
	harness_check_mem((got), (want), (n), __FILE__, __LINE__, \
					  "memcmp(" #got ", " #want ", " #n ") == 0")

/* ---- the drivers' groups ---- */

typedef struct harness_group
{
	const char *name;
	void		(*fn) (void);
} harness_group;

/* Runs a group: calls its function (a driver may pass another runner). */
static inline void
harness_call(const harness_group *g)
{
	g->fn();
}

static inline double
harness_now(void)
{
	struct timespec ts;

	timespec_get(&ts, TIME_UTC);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/*
 * A driver's main: runs the groups named on the command line (all when
 * none is) through run, a line for each, then the last line, "N passed, M
 * failed"; returns the exit status (nonzero if any check failed, or no
 * group matched).
 */
static inline int
harness_main(const harness_group *groups, size_t ngroups, int argc, char **argv,
			 void (*run) (const harness_group *))
{
	int			ran = 0;

	for (size_t i = 0; i < ngroups; i++)
	{
		unsigned long long p0 = harness_passed;
		unsigned long long f0 = harness_failed;
		double		t0;
		int			selected = argc < 2;

		for (int a = 1; a < argc; a++)
			if (strcmp(argv[a], groups[i].name) == 0)
				selected = 1;
		if (!selected)
			continue;
		ran++;
		t0 = harness_now();
		run(&groups[i]);
		printf("%-14s %llu passed, %llu failed (%.2f s)\n", groups[i].name,
			   harness_passed - p0, harness_failed - f0, harness_now() - t0);
	}
	if (ran == 0)
	{
		fprintf(stderr, "no test group matched\n");
		harness_failed++;
	}
	printf("%llu passed, %llu failed\n", harness_passed, harness_failed);
	return harness_failed ? 1 : 0;
}

/* ---- splitmix64 ---- */

typedef struct harness_rng
{
	uint64_t	s;
} harness_rng;

static inline harness_rng
rng_seeded(uint64_t salt)
{
	harness_rng r = {harness_seed ^ (salt * UINT64_C(0x9E3779B97F4A7C15))};

	return r;
}

static inline uint64_t
rng_next(harness_rng *r)
{
	uint64_t	z = (r->s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* 0 .. n-1 (n > 0); the modulo bias is irrelevant for testing. */
static inline uint64_t
rng_below(harness_rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

static inline void
rng_fill(harness_rng *r, void *p, size_t n)
{
	unsigned char *b = p;
	uint64_t	v = 0;

	for (size_t i = 0; i < n; i++)
	{
		if (i % 8 == 0)
			v = rng_next(r);
		b[i] = (unsigned char) v;
		v >>= 8;
	}
}

/*
 * A field value in 0 .. max (max = 2^k - 1): usually random, 1 in 8 at 0 or
 * max, 1 in 8 of a random bit width, so the edges and short values come up.
 */
static inline uint64_t
rng_field(harness_rng *r, uint64_t max)
{
	uint64_t	v = rng_next(r);

	switch (v % 8)
	{
		case 0:
			return (v >> 3) & 1 ? max : 0;
		case 1:
			return (v >> 3) & ((UINT64_C(1) << rng_below(r, 64)) - 1) & max;
		default:
			return (v >> 3) & max;
	}
}

/* ---- helpers independent of the code under test ---- */

/* -1, 0 or 1: the sign of an int, and the order of two uint64_t values. */
static inline int
harness_sgn(int x)
{
	return (x > 0) - (x < 0);
}

static inline int
harness_cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* Parses 2*n hex digits (either case) into n bytes; returns 0 on bad input. */
static inline int
harness_hex(const char *hex, uint8_t *out, size_t n)
{
	if (strlen(hex) != 2 * n)
		return 0;
	for (size_t i = 0; i < 2 * n; i++)
	{
		const char *digits = "0123456789abcdef0123456789ABCDEF";
		const char *p = strchr(digits, hex[i]);

		if (hex[i] == '\0' || p == NULL)
			return 0;
		if (i % 2 == 0)
			out[i / 2] = 0;
		out[i / 2] = (uint8_t) (out[i / 2] << 4 | ((p - digits) & 15));
	}
	return 1;
}

/*
 * Unix time in milliseconds of a proleptic Gregorian UTC date and time
 * (Howard Hinnant's days_from_civil), to check documented timestamps.
 */
static inline int64_t
harness_unix_ms(int y, int mo, int d, int h, int mi, int s, int ms)
{
	int64_t		yy = y - (mo <= 2);
	int64_t		era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t		yoe = yy - era * 400;
	int64_t		doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	int64_t		days = era * 146097 + doe - 719468;

	return ((days * 24 + h) * 60 + mi) * INT64_C(60000) + s * INT64_C(1000) + ms;
}

#endif							/* UID_TEST_HARNESS_H */
