/*
 * core_test.c
 *		Driver of the unit tables of the generator core's rules (make
 *		unitcheck): the settings record (record_test.c and
 *		record_publish_test.c, src/core/record.c), where an identity comes
 *		from (source_test.c, src/core/source.h) and what a state file knows
 *		of the IDs made before it (backfill_test.c, src/core/backfill.c) and
 *		the lease pool's rules (pool_test.c, src/core/pool.h), over the
 *		platform of core_fake.c.  test/unit/mutate.sh builds it
 *		against mutants of src/core.
 *
 * Usage: core_test [record|source|backfill|pool ...]   (default: all)
 * The last line printed is always "N passed, M failed" (counts of checks);
 * the exit status is nonzero if any check failed.
 */
#include "harness.h"
#include "core_fake.h"

unsigned long long harness_passed;
unsigned long long harness_failed;
uint64_t	harness_seed = UINT64_C(0x636f726572756c65);	/* "corerule" */
const char *harness_ctx;
unsigned long long harness_iter;

extern void test_record(void);
extern void test_source(void);
extern void test_backfill(void);
extern void test_pool(void);

static const harness_group groups[] = {
	{"record", test_record},
	{"source", test_source},
	{"backfill", test_backfill},
	{"pool", test_pool},
};

/* Runs a group, and fails it if a call of the core never returned (core_fake.h). */
static void
run_group(const harness_group *g)
{
	if (setjmp(fake_escape) == 0)
	{
		g->fn();
		return;
	}
	harness_fail(__FILE__, __LINE__, "a call of the core took more steps than any row needs: "
				 "it never returns (the rest of the group not run)");
	harness_ctx = NULL;
}

int
main(int argc, char **argv)
{
	return harness_main(groups, sizeof groups / sizeof groups[0], argc, argv, run_group);
}
