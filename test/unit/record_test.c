/*
 * record_test.c
 *		Tables of the settings record's rules (src/core/record.c) up to a
 *		publication: the reload a process needs, the plan (use the record
 *		in force, refresh it, publish its own values, refuse), which record
 *		is usable, the same identity, the fallback when none can be had, and
 *		the refused values a proposal keeps.  record_publish_test.c has the
 *		rest: which proposal is published, the publication, reading.
 *
 * Built into core_test (see there) over core_fake.c's platform; exposes
 * test_record(), which runs both files' tables.  Each row names what it
 * checks; a failure prints the name.  The rows' words for lives, times
 * and sources are record_test.h's.
 */
#include "record_test.h"

#define USE		UID_PLAN_USE
#define REFRESH UID_PLAN_REFRESH
#define OWN		UID_PLAN_PUBLISH_OWN
#define REFUSE	UID_PLAN_REFUSE

#define BF		UID_REC_REFUSED_BACKFILL

/* The record's fields, by the settings they hold */
static const char *const field_names[UID_REC_NFIELDS] = {
	[UID_REC_GENERATOR] = "uid.generator (the first field)",
	[UID_REC_CLUSTER] = "uid.cluster",
	[UID_REC_PARTITION] = "uid.partition",
	[UID_REC_MEDALLION] = "uid.medallion",
	[UID_REC_EPOCH_MS] = "uid.snowflake_si_epoch",
	[UID_REC_INDEX_BITS] = "uid.snowflake_si_index_bits",
	[UID_REC_SNO_RANGES] = "sno's live range",
	[UID_REC_LEASED] = "uid.coordinator (leased)",
	[UID_REC_LEASE_KEY] = "lease key (the last field before the refusals)",
	[UID_REC_REFUSED] = "refusals (the last field)",
};

/* ---------------------------------------------------------------- the need */

static void
test_need_after(void)
{
	static const struct
	{
		const char *name;
		int64		after;
		int64		signalled;
		int64		want;
	}			rows[] = {
		{"no signal since the load: the reload taken", 900, 0, 900},
		{"a signal after the reload taken: the signal", 900, 1100, 1100},
		{"a signal before the reload taken: the reload", 900, 500, 900},
		{"a signal at the reload taken (equal times)", 900, 900, 900},
		{"neither", 0, 0, 0},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		UidRecordNeed need = {.life = LIFE, .after = rows[i].after, .signalled = rows[i].signalled,
		.reload_time = -1, .own = SE};

		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64(uid_record_need_after(&need), rows[i].want);
	}
}

/*
 * A row of uid_record_plan and uid_record_fallback: the record in force
 * (gen 0: none), the need, and for the fallback the process's own values.
 */
enum
{
	OWN_NULL,					/* its own values are not known */
	OWN_SAME,					/* the record's identity, the same head */
	OWN_SAME_HEAD,				/* the record's identity, another head */
	OWN_GENERATOR,				/* another uid.generator */
	OWN_LEASE_KEY,				/* another lease key (the last field but one) */
	OWN_REFUSED,				/* another refusal (the last field) */
};

typedef struct PlanRow
{
	const char *name;
	/* the record in force */
	uint64		gen;
	uint64		life;
	int64		requested;
	int64		reload_time;
	int64		published_us;
	UidRecordSource source;
	/* the need (its life is LIFE) */
	int64		after;
	int64		signalled;
	int64		need_reload_time;
	UidRecordSource own;
	bool		pending;
	bool		overridden;
	bool		parallel;
	/* uid_record_fallback's own values */
	int			own_values;
	UidRecordPlan want;
} PlanRow;

/* The columns of a record in force: none, and the postmaster's of this life requested at req */
#define NO_RECORD		0, 0, 0, 0, 0, NO
#define PM_RECORD(req)	1, LIFE, req, RT, RT + 1, PM
/* pending, overridden, parallel: none */
#define NO_FLAGS		false, false, false

static void
plan_inputs(const PlanRow *row, UidRecord *in_force, UidRecordNeed *need, UidRecord *own)
{
	*in_force = record(row->gen, row->life, row->requested, row->reload_time, row->published_us,
					   row->source);
	if (row->gen == 0)
		memset(in_force, 0, sizeof(*in_force));
	memset(need, 0, sizeof(*need));
	need->life = LIFE;
	need->after = row->after;
	need->signalled = row->signalled;
	need->reload_time = row->need_reload_time;
	need->own = row->own;
	need->pending = row->pending;
	need->overridden = row->overridden;
	need->parallel = row->parallel;
	/* own values: a session's proposal, the record's values unless the row changes one */
	*own = record(0, LIFE, 0, RT, RT + 50, SE);
	switch (row->own_values)
	{
		case OWN_SAME:
			*own = *in_force;
			break;
		case OWN_GENERATOR:
			own->values[UID_REC_GENERATOR]++;
			break;
		case OWN_LEASE_KEY:
			own->values[UID_REC_LEASE_KEY]++;
			break;
		case OWN_SAME_HEAD:
			own->reload_time = RT + 99;
			own->published_us = RT + 100;
			break;
		case OWN_REFUSED:
			own->values[UID_REC_REFUSED] = (int64) BIT(UID_REC_PARTITION);
			break;
	}
}

/* Checks each row's verdict of uid_record_plan, or of uid_record_fallback. */
static void
plan_rows(const PlanRow *rows, size_t n, bool fallback)
{
	for (size_t i = 0; i < n; i++)
	{
		UidRecord	in_force;
		UidRecordNeed need;
		UidRecord	own;

		harness_ctx = rows[i].name;
		harness_iter = i;
		plan_inputs(&rows[i], &in_force, &need, &own);
		CHECK_EQ_U64(fallback ?
					 uid_record_fallback(&in_force, &need, rows[i].own_values == OWN_NULL ? NULL : &own) :
					 uid_record_plan(&in_force, &need),
					 rows[i].want);
	}
}

static void
test_plan(void)
{
	/*
	 * name
	 *   record in force: gen, life, requested, reload_time, published_us, source;
	 *   need: after, signalled, reload_time, own, pending, overridden, parallel;
	 *   the fallback's own values (not read here); the verdict
	 */
	static const PlanRow rows[] = {
		{"no record: refresh",
		NO_RECORD, 900, 0, -1, SE, NO_FLAGS, 0, REFRESH},
		{"a record of an earlier server life, requested later: refresh",
		1, LIFE2, 5000, RT, RT + 1, PM, 900, 0, -1, SE, NO_FLAGS, 0, REFRESH},
		{"requested after the reload taken: use",
		PM_RECORD(1000), 900, 0, -1, SE, NO_FLAGS, 0, USE},
		{"requested at the reload taken (equal times): refresh",
		PM_RECORD(900), 900, 0, -1, SE, NO_FLAGS, 0, REFRESH},
		{"requested before the reload taken: refresh",
		PM_RECORD(899), 900, 0, -1, SE, NO_FLAGS, 0, REFRESH},
		{"a signal received after the request, not taken: refresh",
		PM_RECORD(1000), 900, 1100, -1, SE, true, false, false, 0, REFRESH},
		{"a signal received after the request, its reload taken: refresh",
		PM_RECORD(1000), 900, 1100, -1, SE, NO_FLAGS, 0, REFRESH},
		{"a signal received at the request (equal times): refresh",
		PM_RECORD(1000), 900, 1000, -1, SE, true, false, false, 0, REFRESH},
		{"a signal received before the request, after the reload taken: use",
		PM_RECORD(1000), 900, 950, -1, SE, NO_FLAGS, 0, USE},
		{"a signal received before the reload taken: use",
		PM_RECORD(1000), 900, 500, -1, SE, NO_FLAGS, 0, USE},
		{"answers the need: use, whatever is pending, set or a parallel worker",
		PM_RECORD(1000), 900, 0, -1, SE, true, true, true, 0, USE},
		{"a single-user server with its record: use, however old",
		1, LIFE, 1, RT, RT + 1, SU, 900, 950, -1, SU, NO_FLAGS, 0, USE},
		{"a single-user server, no record: publish its own",
		NO_RECORD, 900, 0, -1, SU, NO_FLAGS, 0, OWN},
		{"a single-user server, a record of an earlier life: publish its own",
		1, LIFE2, 5000, RT, RT + 1, PM, 900, 0, -1, SU, NO_FLAGS, 0, OWN},
		/* the postmaster's reload this process was forked under */
		{"forked under the record's reload, published after it: use",
		PM_RECORD(800), 900, 0, RT, SE, NO_FLAGS, 0, USE},
		{"forked under the reload of an inherited record: use",
		1, LIFE, 0, RT, RT + 1, IN, 900, 0, RT, SE, NO_FLAGS, 0, USE},
		{"forked under the reload of a single-user record: refresh",
		1, LIFE, 800, RT, RT + 1, SU, 900, 0, RT, SE, NO_FLAGS, 0, REFRESH},
		{"published at its reload time (a wall clock that stood still): refresh",
		1, LIFE, 800, RT, RT, PM, 900, 0, RT, SE, NO_FLAGS, 0, REFRESH},
		{"published before its reload time (a clock stepped back): refresh",
		1, LIFE, 800, RT, RT - 1, PM, 900, 0, RT, SE, NO_FLAGS, 0, REFRESH},
		{"another reload time: refresh",
		1, LIFE, 800, RT + 5, RT + 6, PM, 900, 0, RT, SE, NO_FLAGS, 0, REFRESH},
		{"took a reload (no reload time of its fork): refresh",
		PM_RECORD(800), 900, 0, -1, SE, NO_FLAGS, 0, REFRESH},
		{"a signal received, the reload time unchanged (a clock stood still): refresh",
		PM_RECORD(800), 900, 850, RT, SE, NO_FLAGS, 0, REFRESH},
		{"a signal pending, none noted yet, the same reload time: refresh",
		PM_RECORD(800), 900, 0, RT, SE, true, false, false, 0, REFRESH},
		{"the same reload time, a record of an earlier life: refresh",
		1, LIFE2, 800, RT, RT + 1, PM, 900, 0, RT, SE, NO_FLAGS, 0, REFRESH},
	};

	plan_rows(rows, sizeof rows / sizeof rows[0], false);
}

static void
test_usable(void)
{
	static const struct
	{
		const char *name;
		uint64		gen;
		uint64		life;
		int64		published_us;
		bool		want;
	}			rows[] = {
		{"a record of this life: usable", 1, LIFE, RT + 1, true},
		{"a record of this life, a later publication: usable", 7, LIFE, RT + 1, true},
		{"a record of this life published an hour ago: usable (0.6.0 case 6)", 2, LIFE,
		RT - INT64CONST(3600000000), true},
		{"a record of an earlier life: not (a restart may have changed the settings)", 3, LIFE2, RT + 1, false},
	};
	UidRecord	none;

	fake_reset();
	fake_unix = RT + 2;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		UidRecord	r = record(rows[i].gen, rows[i].life, 1000, RT, rows[i].published_us, PM);

		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK(uid_record_usable(&r, LIFE) == rows[i].want);
	}
	harness_ctx = "no record (as uid_record_read gives it): not usable";
	memset(&none, 0, sizeof(none));
	CHECK(!uid_record_usable(&none, LIFE));
}

static void
test_same_identity(void)
{
	UidRecord	a = record(3, LIFE, 1000, RT, RT + 1, PM);
	UidRecord	b;

	harness_ctx = "the same values: the same identity";
	b = a;
	CHECK(uid_record_same_identity(&a, &b));
	harness_ctx = "another head (publication, life, request, reload, source, kept): the same identity";
	b = record(9, LIFE2, 5, RT + 7, RT + 8, IN);
	b.kept = true;
	CHECK(uid_record_same_identity(&a, &b));
	CHECK(uid_record_same_identity(&b, &a));
	/* every field, the first and the last included */
	for (int f = 0; f < UID_REC_NFIELDS; f++)
	{
		char		name[100];

		snprintf(name, sizeof name, "%s differs: another identity", field_names[f]);
		harness_ctx = name;
		harness_iter = (unsigned long long) f;
		b = a;
		b.values[f]++;
		CHECK(!uid_record_same_identity(&a, &b));
		CHECK(!uid_record_same_identity(&b, &a));
	}
}

static void
test_fallback(void)
{
	/* the columns of test_plan, then the own values */
	static const PlanRow rows[] = {
		/* a record of this life in force */
		{"answers the need after all: use, whatever is pending, set or parallel",
		PM_RECORD(1000), 900, 0, -1, SE, true, true, true, OWN_GENERATOR, USE},
		{"forked under its reload: use, own values not known",
		PM_RECORD(800), 900, 0, RT, SE, NO_FLAGS, OWN_NULL, USE},
		{"a reload not answered, own values give its identity: use",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_SAME, USE},
		{"a reload not answered, own values give its identity with another head: use",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_SAME_HEAD, USE},
		{"a signal pending (own values older than the server's): refuse",
		PM_RECORD(800), 900, 950, -1, SE, true, false, false, OWN_SAME, REFUSE},
		{"a uid setting of its own (overridden): refuse",
		PM_RECORD(800), 900, 850, -1, SE, false, true, false, OWN_SAME, REFUSE},
		{"a parallel worker (its leader's values): refuse",
		PM_RECORD(800), 900, 850, -1, SE, false, false, true, OWN_SAME, REFUSE},
		{"own values not known: refuse",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_NULL, REFUSE},
		{"own values give another generator: refuse",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_GENERATOR, REFUSE},
		{"own values give another lease key: refuse",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_LEASE_KEY, REFUSE},
		{"own values refuse another field: refuse",
		PM_RECORD(800), 900, 850, -1, SE, NO_FLAGS, OWN_REFUSED, REFUSE},
		/* none of this life: a session stands in for a worker */
		{"no record: a session forked under the last reload publishes its own",
		NO_RECORD, 900, 0, RT, SE, NO_FLAGS, OWN_NULL, OWN},
		{"no record, a reload time of 0 (the edge of one): publishes its own",
		NO_RECORD, 900, 0, 0, SE, NO_FLAGS, OWN_NULL, OWN},
		{"a record of an earlier life, own values give its identity: publishes its own",
		1, LIFE2, 800, RT, RT + 1, PM, 900, 0, RT, SE, NO_FLAGS, OWN_SAME, OWN},
		{"no record, took a reload (values no reload may have delivered): refuse",
		NO_RECORD, 900, 0, -1, SE, NO_FLAGS, OWN_NULL, REFUSE},
		{"no record, a signal pending: refuse",
		NO_RECORD, 900, 0, RT, SE, true, false, false, OWN_NULL, REFUSE},
		{"no record, overridden: refuse",
		NO_RECORD, 900, 0, RT, SE, false, true, false, OWN_NULL, REFUSE},
		{"no record, a parallel worker: refuse",
		NO_RECORD, 900, 0, RT, SE, false, false, true, OWN_NULL, REFUSE},
		{"no record, a single-user server: not as a session (refuse)",
		NO_RECORD, 900, 0, RT, SU, NO_FLAGS, OWN_NULL, REFUSE},
	};

	plan_rows(rows, sizeof rows / sizeof rows[0], true);
}

/* ------------------------------------------------------ refused values kept */

static void
check_kept(const char *name, uint64 gen, uint64 life, uint64 in_refused, uint64 refused,
		   uint64 from_in_force, uint64 want_refused, bool want_kept)
{
	UidRecord	in_force = record(gen, life, 1000, RT, RT + 1, PM);
	UidRecord	p = record(0, LIFE, 2000, RT + 10, RT + 11, PM);

	harness_ctx = name;
	if (gen == 0)
		memset(&in_force, 0, sizeof(in_force));
	for (int i = 0; i < UID_REC_REFUSED; i++)
	{
		if (gen != 0)
			in_force.values[i] = 100 + i;
		p.values[i] = 200 + i;
	}
	in_force.values[UID_REC_REFUSED] = (int64) in_refused;
	p.values[UID_REC_REFUSED] = (int64) refused;
	uid_record_keep_refused(&in_force, &p);
	for (int i = 0; i < UID_REC_REFUSED; i++)
	{
		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(p.values[i], (from_in_force & BIT(i)) ? 100 + i : 200 + i);
	}
	CHECK_EQ_U64(p.values[UID_REC_REFUSED], want_refused);
	CHECK(p.kept == want_kept);
	/* the head is the proposal's */
	CHECK(p.requested == 2000 && p.reload_time == RT + 10 && p.source == PM);
}

static void
test_keep_refused(void)
{
	const uint64 R = BIT(UID_REC_SNO_RANGES);
	const uint64 G = BIT(UID_REC_GENERATOR);
	const uint64 P = BIT(UID_REC_PARTITION);
	const uint64 M = BIT(UID_REC_MEDALLION);

	/* name, in force: gen, life, refused; the proposal's refused; want: kept fields, refused, kept */
	check_kept("nothing refused: the proposal's own", 1, LIFE, 0, 0, 0, 0, false);
	check_kept("nothing refused, the record refused a field: not carried", 1, LIFE, P, 0, 0, 0, false);
	check_kept("the generator refused: the record's, its refusal cleared", 1, LIFE, 0, G, G, 0, true);
	check_kept("the generator refused, the record refused it too: kept refused", 1, LIFE, G, G, G, G, true);
	check_kept("refused with no record: published refused", 0, 0, 0, G, 0, G, false);
	check_kept("refused, a record of an earlier life: published refused", 1, LIFE2, 0, G, 0, G, false);
	check_kept("refused, a record of an earlier life that refused it: published refused", 1, LIFE2, G, G | M, 0, G | M, false);
	check_kept("an end of back-fill refused: the record's ranges and their refusals", 1, LIFE, 0, BF, R, 0, true);
	check_kept("back-fill refused, the record refused back-fill: kept refused", 1, LIFE, BF, BF, R, BF, true);
	check_kept("an end of the live range refused: the record's back-fill refusal goes with the ranges",
			   1, LIFE, BF, R, R, BF, true);
	check_kept("the live range refused, the record refused it: kept refused", 1, LIFE, R, R, R, R, true);
	check_kept("both ends refused, the record refused neither: both cleared", 1, LIFE, 0, R | BF, R, 0, true);
	check_kept("the generator refused, the record refused the partition: that refusal not carried",
			   1, LIFE, P, G, G, 0, true);
	check_kept("the generator and the medallion refused: both the record's", 1, LIFE, M, G | M, G | M, M, true);
	check_kept("the partition refused, back-fill not: the ranges the proposal's", 1, LIFE, BF, P, P, 0, true);
	/* each field alone, the first and the last before the refusals included */
	for (int f = 0; f < UID_REC_REFUSED; f++)
	{
		char		name[100];

		snprintf(name, sizeof name, "%s refused alone: the record's", field_names[f]);
		check_kept(name, 1, LIFE, 0, BIT(f), BIT(f), 0, true);
	}
}


void
test_record(void)
{
	fake_reset();
	test_need_after();
	test_plan();
	test_usable();
	test_same_identity();
	test_fallback();
	test_keep_refused();
	test_record_publish();
	harness_ctx = NULL;
}
