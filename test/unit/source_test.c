/*
 * source_test.c
 *		Tables of where an identity comes from (src/core/source.h): the
 *		source a type's identity takes, an identity id as a type's fields at
 *		the limits of each type, the node group a process reads and keeps.
 *
 * Built into core_test (see there); exposes test_source().  Each row names
 * what it checks; a failure prints the name.
 */
#include "harness.h"
#include "core_fake.h"
#include "core/source.h"
#include "codec/revts8_codec.h"
#include "codec/snowflake_si_codec.h"
#include "codec/uid60_codec.h"

#define LEASE	UID_ID_LEASE
#define HAND	UID_ID_HAND
#define CITUS	UID_ID_CITUS
#define DEFLT	UID_ID_DEFAULT
#define REFUSED UID_ID_REFUSED
#define SHARED	UID_ID_SHARED
#define NONE	UID_GROUP_NONE
#define UNKNOWN UID_GROUP_UNKNOWN
#define UNSYNCED UID_GROUP_UNSYNCED

static void
test_id_source(void)
{
	static const struct
	{
		const char *name;
		bool		leased;
		bool		hand;
		int32		group;
		bool		subscribed;
		UidIdSource want;
	}			rows[] = {
		{"leased, set by hand, a node group: the lease", true, true, 5, false, LEASE},
		{"leased, no Citus: the lease", true, false, NONE, false, LEASE},
		{"leased, Citus's group 0: the lease", true, false, 0, false, LEASE},
		{"leased, the group unknown (an upgrade of Citus): the lease", true, false, UNKNOWN, false, LEASE},
		{"leased, a task on a worker without metadata: the lease", true, false, UNSYNCED, false, LEASE},
		{"set by hand, a node group: the hand's", false, true, 3, false, HAND},
		{"set by hand, group 0: the hand's", false, true, 0, false, HAND},
		{"set by hand, no Citus: the hand's", false, true, NONE, false, HAND},
		{"set by hand, the group unknown: the hand's", false, true, UNKNOWN, false, HAND},
		{"set by hand, a task on a worker without metadata: the hand's", false, true, UNSYNCED, false, HAND},
		{"group 0 (the coordinator, or a server on its own with Citus): Citus", false, false, 0, false, CITUS},
		{"group 1: Citus", false, false, 1, false, CITUS},
		{"the largest group: Citus", false, false, INT32_MAX, false, CITUS},
		{"no Citus: the default", false, false, NONE, false, DEFLT},
		{"the group unknown (pg_dist_local_group empty): refused", false, false, UNKNOWN, false, REFUSED},
		{"a task on a worker without metadata: refused", false, false, UNSYNCED, false, REFUSED},
		{"a group below every one named: refused", false, false, INT32_MIN, false, REFUSED},
		{"leased, a subscription: the lease", true, false, NONE, true, LEASE},
		{"leased, a subscription, set by hand: the lease", true, true, NONE, true, LEASE},
		{"set by hand, a subscription: the hand's", false, true, NONE, true, HAND},
		{"set by hand, a subscription, a node group: the hand's", false, true, 2, true, HAND},
		{"a node group, a subscription (Citus moving a shard): Citus", false, false, 4, true, CITUS},
		{"group 0, a subscription: Citus", false, false, 0, true, CITUS},
		{"the group unknown, a subscription: refused for the group", false, false, UNKNOWN, true, REFUSED},
		{"a task on a worker without metadata, a subscription: refused", false, false, UNSYNCED, true, REFUSED},
		{"no Citus, a subscription: the default refused as shared", false, false, NONE, true, SHARED},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		UidIdInputs in = {.leased = rows[i].leased, .hand = rows[i].hand, .group = rows[i].group,
		.subscribed = rows[i].subscribed};

		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64(uid_id_source(&in), rows[i].want);
	}
	harness_ctx = "the sources and groups named apart; a source of zeros refuses";
	CHECK(REFUSED == 0);
	CHECK(SHARED != DEFLT && SHARED != REFUSED);
	CHECK(NONE == -1 && UNKNOWN < NONE && UNSYNCED < NONE && UNKNOWN != UNSYNCED);
}

/* uid_id_split(id, lows, max): want ok, low and high */
static void
split_row(const char *name, uint32 id, uint32 lows, uint32 max, bool ok, uint32 low, uint32 high)
{
	uint32		l = UINT32_MAX;
	uint32		h = UINT32_MAX;

	harness_ctx = name;
	harness_iter = id;
	if (!CHECK(uid_id_split(id, lows, max, &l, &h) == ok) || !ok)
		return;
	CHECK_EQ_U64(l, low);
	CHECK_EQ_U64(h, high);
}

static void
test_id_split(void)
{
	const uint32 rg = REVTS8_GENERATOR_MAX + 1;
	const uint32 rmax = (REVTS8_CLUSTER_MAX + 1) * (REVTS8_GENERATOR_MAX + 1) - 1;

	/* revts8: 64 generators by 16 clusters (source.c's uid_unleased_revts8) */
	split_row("revts8: id 0, generator 0 of cluster 0", 0, rg, rmax, true, 0, 0);
	split_row("revts8: id 63, the last generator of cluster 0", 63, rg, rmax, true, 63, 0);
	split_row("revts8: id 64, generator 0 of cluster 1", 64, rg, rmax, true, 0, 1);
	split_row("revts8: id 65", 65, rg, rmax, true, 1, 1);
	split_row("revts8: id 1023, the last of both", 1023, rg, rmax, true, 63, 15);
	split_row("revts8: id 1024, beyond the fields: refused", 1024, rg, rmax, false, 0, 0);
	split_row("revts8: the largest id: refused", UINT32_MAX, rg, rmax, false, 0, 0);
	/* uid60: one field of 512 workers */
	split_row("uid60: worker 0", 0, UID60_WORKER_MAX + 1, UID60_WORKER_MAX, true, 0, 0);
	split_row("uid60: worker 511, the last", 511, UID60_WORKER_MAX + 1, UID60_WORKER_MAX, true, 511, 0);
	split_row("uid60: 512, beyond the field: refused", 512, UID60_WORKER_MAX + 1, UID60_WORKER_MAX, false, 0, 0);
	/* snowflake_si: a machine id of 13 - k bits, for each index width k */
	for (int k = SNOWFLAKE_SI_K_MIN; k <= SNOWFLAKE_SI_K_MAX; k++)
	{
		static char names[3][SNOWFLAKE_SI_K_MAX + 1][80];
		uint32		max = snowflake_si_mid_max(k);

		snprintf(names[0][k], sizeof names[0][k], "snowflake_si, index width %d: machine 0", k);
		snprintf(names[1][k], sizeof names[1][k], "snowflake_si, index width %d: the last machine, %u", k, max);
		snprintf(names[2][k], sizeof names[2][k], "snowflake_si, index width %d: %u, beyond: refused", k, max + 1);
		split_row(names[0][k], 0, max + 1, max, true, 0, 0);
		split_row(names[1][k], max, max + 1, max, true, max, 0);
		split_row(names[2][k], max + 1, max + 1, max, false, 0, 0);
	}

	/* uid.cluster alone: the group is revts8's generator, the cluster the hand's */
	{
		static const struct
		{
			const char *name;
			uint32		id;
			uint32		cluster;
			bool		ok;
		}			rows[] = {
			{"cluster alone: group 0 is generator 0", 0, 7, true},
			{"cluster alone: group 63, the last generator", 63, 15, true},
			{"cluster alone: group 64 does not fit a generator: refused", 64, 0, false},
			{"cluster alone: group 1023: refused", 1023, 15, false},
		};

		for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		{
			uint32		l = UINT32_MAX;
			uint32		h = UINT32_MAX;

			harness_ctx = rows[i].name;
			harness_iter = i;
			if (CHECK(uid_id_split_cluster(rows[i].id, rg, rows[i].cluster, &l, &h) == rows[i].ok) &&
				rows[i].ok)
			{
				CHECK_EQ_U64(l, rows[i].id);
				CHECK_EQ_U64(h, rows[i].cluster);
			}
		}
	}
}

static void
test_group(void)
{
	static const struct
	{
		const char *name;
		int32		row;
		bool		has_nodes;
		bool		task;
		int32		want;
	}			rows[] = {
		{"row 0, no node, a task of another node: unsynced (not the coordinator's 0)", 0, false, true, UNSYNCED},
		{"row 0, no node, not a task (a server on its own): 0", 0, false, false, 0},
		{"row 0 with nodes, a task (the coordinator's own): 0", 0, true, true, 0},
		{"row 0 with nodes, not a task: 0", 0, true, false, 0},
		{"row 5, no node listed, a task: 5", 5, false, true, 5},
		{"row 5 with nodes: 5", 5, true, false, 5},
		{"no row (an upgrade of Citus), a task: unknown", UNKNOWN, false, true, UNKNOWN},
		{"no Citus: none", NONE, false, false, NONE},
	};
	UidGroupCache c = UID_GROUP_CACHE_INIT;

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64((int64) uid_group_of_row(rows[i].row, rows[i].has_nodes, rows[i].task),
					 (int64) rows[i].want);
	}

	harness_ctx = "a copy never read: current at no count";
	CHECK(!uid_group_current(&c, 0));
	CHECK(!uid_group_current(&c, 1));
	CHECK(!uid_group_current(&c, 12345));
	harness_ctx = "a group read at count 7: current at 7 only";
	uid_group_keep(&c, 7, 3);
	CHECK(uid_group_current(&c, 7));
	CHECK(!uid_group_current(&c, 8));
	CHECK(!uid_group_current(&c, 6));
	CHECK_EQ_U64(c.group, 3);
	harness_ctx = "unknown read at count 8: not kept (the fill sends no invalidation)";
	uid_group_keep(&c, 8, UNKNOWN);
	CHECK(!uid_group_current(&c, 8));
	CHECK_EQ_U64(c.group, 3);
	harness_ctx = "no Citus read at count 9: kept";
	uid_group_keep(&c, 9, NONE);
	CHECK(uid_group_current(&c, 9));
	CHECK_EQ_U64((int64) c.group, (int64) NONE);
	harness_ctx = "group 0 read at count 10: kept";
	uid_group_keep(&c, 10, 0);
	CHECK(uid_group_current(&c, 10));
	CHECK_EQ_U64(c.group, 0);
	harness_ctx = "unsynced read at count 11: kept (refuses until an invalidation)";
	uid_group_keep(&c, 11, UNSYNCED);
	CHECK(uid_group_current(&c, 11));
	CHECK_EQ_U64((int64) c.group, (int64) UNSYNCED);
}

void
test_source(void)
{
	test_id_source();
	test_id_split();
	test_group();
	harness_ctx = NULL;
}
