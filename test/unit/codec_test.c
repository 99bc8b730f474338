/*
 * codec_test.c
 *		Driver of the codec unit tests (make unitcheck).
 *
 * Each format's tests live in test/unit/<format>_test.c and expose
 * "void test_<format>(void)"; the harness is test/unit/harness.h.
 *
 * The Makefile compiles bits_test.c and one TYPE_test.c per type of
 * codec/registry.h beside this file, and the table below is made from the
 * registry too: a new format adds its test file and nothing here (without
 * the file, or without its test_TYPE(), the binary does not build).
 *
 * Usage: codec_test [name ...]	  run only the named groups (default: all)
 * UID_TEST_SEED=<n> changes the seed of the random tests.
 * The last line printed is always "N passed, M failed" (counts of checks);
 * the exit status is nonzero if any check failed.
 */
#include <stdlib.h>

#include "harness.h"

unsigned long long harness_passed;
unsigned long long harness_failed;
uint64_t	harness_seed = UINT64_C(0x75696420636f6465);	/* "uid code" */
const char *harness_ctx;
unsigned long long harness_iter;

#include "codec/registry.h"

extern void test_bits(void);
#define TEST_DECLARE(ID, name, ...) extern void test_##name(void);
UID_TYPES(TEST_DECLARE)

static const harness_group groups[] = {
	{"bits", test_bits},
#define TEST_GROUP(ID, name, ...) {#name, test_##name},
	UID_TYPES(TEST_GROUP)
};

int
main(int argc, char **argv)
{
	const char *seed = getenv("UID_TEST_SEED");

	if (seed && *seed)
		harness_seed = strtoull(seed, NULL, 0);
	printf("seed 0x%016" PRIx64 "\n", harness_seed);

	return harness_main(groups, sizeof groups / sizeof groups[0], argc, argv, harness_call);
}
