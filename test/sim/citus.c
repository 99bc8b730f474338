/*
 * citus.c
 *		Citus: node groups, their reads and invalidations, adds and removals,
 *		upgrades, subscriptions, and the identity a type embeds.
 */
#include "sim.h"

TypeIdent type_idents[NTYPES];

/*
 * citus.c's uid_citus_group(): the group a process keeps while no
 * invalidation has reached it since it read it; else a read of
 * pg_dist_local_group, kept with the count taken before the read
 * (core/source.h).  The read takes steps: table_open's lock, half the time
 * one the transaction did not hold yet, takes the invalidations sent
 * (AcceptInvalidationMessages), then the scan reads the row as it is
 * (UID_GROUP_UNKNOWN while a Citus upgrade left it empty); a row of 0 makes
 * it scan pg_dist_node too, with a lock of its own, in later steps, and
 * uid_group_of_row() decides (UID_GROUP_UNSYNCED in a task on a worker
 * without metadata).  A server outside the cluster has no such table:
 * UID_GROUP_NONE.
 */
static int32
citus_group(Server *s, bool task, UidGroupCache *c, uint64 *invals, const uint64 *sent)
{
	uint64		at;
	int32		group = UID_GROUP_NONE;

	if (uid_group_current(c, *invals))
		return c->group;
	sim->citus_reads++;
	at = *invals;
	sim_step();					/* get_relname_relid() */
	if (s->role != ROLE_OUTSIDE)
	{
		int32		row;
		bool		nodes;

		if (rng_below(&sim->sched, 2) == 0)
			*invals = *sent;	/* table_open() */
		sim_step();
		row = s->group;			/* the scan, under a catalog snapshot */
		nodes = s->synced;		/* pg_dist_node under the same snapshot */
		sim_step();
		if (row == 0)
		{
			/*
			 * uid_citus_has_nodes()'s table_open(): an invalidation it takes
			 * ends the catalog snapshot, and its scan takes a new one
			 */
			bool		fresh = rng_below(&sim->sched, 2) == 0 && *invals != *sent;

			if (fresh)
				*invals = *sent;
			sim_step();
			if (fresh)
				nodes = s->synced;	/* its scan, under a new snapshot */
			sim_step();
		}
		group = uid_group_of_row(row, nodes, task);
	}
	uid_group_keep(c, at, group);
	return group;
}

/*
 * subscription.c's uid_db_subscribed(): whether the database has a
 * subscription, kept as the node group is (a UidGroupCache holding 1 or 0,
 * with the count taken before the read); the read's table_open() takes the
 * invalidations sent half the time, then the scan reads the catalog as it is.
 */
static bool
sub_read(Server *s, UidGroupCache *c, uint64 *invals, const uint64 *sent)
{
	uint64		at;
	int32		v;

	if (uid_group_current(c, *invals))
		return c->group != 0;
	at = *invals;
	if (rng_below(&sim->sched, 2) == 0)
		*invals = *sent;		/* table_open() */
	sim_step();
	v = s->subscribed ? 1 : 0;	/* the scan */
	uid_group_keep(c, at, v);
	return v != 0;
}

/*
 * What source.c and the generators work out: the source uid_id_source()
 * picks from the lease (leased runs: lease_id), the record's hand setting
 * of the type and the node group, the fields of the identity (TypeIdent),
 * false (the call is refused) for one beyond the type's fields or a group
 * that refuses.  The group is read whatever the lease and the hand setting,
 * as UidIdInputs holds them (citus.c reads it only where there are none).
 * revts8 with uid.cluster alone takes the group as its generator
 * (uid_id_split_cluster), where source.c's uid_unleased_revts8() does.  A
 * parallel worker is a process of its own: no copy yet, its leader's
 * application_name.
 */
bool
citus_ident(Backend *b, Server *s, int type, int lease_id, CitusIdent *out)
{
	const TypeIdent *ti = &type_idents[type];
	int64		hand = b->rec.values[ti->field];
	int64		cluster = ti->high_mask != 0 ? b->rec.values[ti->field2] : -1;
	bool		alone = hand < 0 && cluster >= 0;
	UidIdInputs in = {.leased = sim->leased, .hand = hand >= 0};
	uint32		low = 0;
	uint32		high = 0;

	if (b->par_pid)
	{
		UidGroupCache c = UID_GROUP_CACHE_INIT;
		uint64		none = 0;

		in.group = citus_group(s, b->task, &c, &none, &none);
		c = (UidGroupCache) UID_GROUP_CACHE_INIT;
		if (!in.hand)
			in.subscribed = sub_read(s, &c, &none, &none);
	}
	else
	{
		in.group = citus_group(s, b->task, &b->gcache, &b->invals, &b->inval_sent);
		if (!in.hand)
			in.subscribed = sub_read(s, &b->subcache, &b->invals, &b->inval_sent);
	}
	out->group = in.group;
	out->source = uid_id_source(&in);
	switch (out->source)
	{
		case UID_ID_LEASE:
			/* a lease id as the type's fields, as a group is (every id of the pool fits) */
			out->value = lease_id;
			low = (uint32) lease_id;
			if (ti->lows != 0 && !uid_id_split((uint32) lease_id, ti->lows, ti->max, &low, &high))
				return false;
			break;
		case UID_ID_HAND:
			out->value = hand;
			if (hand > ti->hand_max)
				return false;
			low = (uint32) hand;
			high = (uint32) Max(cluster, 0);	/* revts8: uid.cluster, or its default 0 */
			break;
		case UID_ID_CITUS:
			out->value = in.group;
			if (alone)
			{
				if (!uid_id_split_cluster((uint32) in.group, ti->lows, (uint32) cluster, &low, &high))
					return false;
			}
			else if (ti->lows == 0)
			{
				if ((uint32) in.group > ti->max)
					return false;
				low = (uint32) in.group;
			}
			else if (!uid_id_split((uint32) in.group, ti->lows, ti->max, &low, &high))
				return false;
			break;
		case UID_ID_DEFAULT:
			/*
			 * a server outside the cluster that sets no identity by hand:
			 * 0, the fields of every such server (meet: never where IDs
			 * meet)
			 */
			out->value = 0;
			break;
		default:
			return false;
	}
	out->key = (low & ti->low_mask) | (high & ti->high_mask) << ti->low_bits;
	return true;
}

/* The hand value a Citus identity is, for settings_check_id; -1: a group or a lease. */
int
citus_hand(const CitusIdent *ci)
{
	return ci->source == UID_ID_HAND ? (int) ci->value : -1;
}

/*
 * A call refused: the generator's error, of an identity beyond the type's
 * fields or of a node group that refuses.  available: a call that began
 * once citus_finish_pg_upgrade() filled its node's pg_dist_local_group
 * again is not refused for the table's emptiness (the fill sends no
 * invalidation: no process may keep UID_GROUP_UNKNOWN).
 */
void
citus_refusal(Backend *b, Server *s, const UidClockSpec *spec, const CitusIdent *ci)
{
	if (ci->source == UID_ID_SHARED)
	{
		sim->shared_refused++;
		trace(b, b->server, "%s refused: a default identity, and the database subscribed",
			  spec->type_name);
		return;
	}
	if (ci->source != UID_ID_REFUSED)
	{
		sim->citus_refused++;
		trace(b, b->server, "%s refused: %s %" PRId64 " beyond its fields", spec->type_name,
			  ci->source == UID_ID_HAND ? "hand value" : "node group", ci->value);
		return;
	}
	if (ci->group == UID_GROUP_UNSYNCED)
	{
		sim->citus_unsynced_refused++;
		trace(b, b->server, "%s refused: a task on a worker without metadata", spec->type_name);
		return;
	}
	sim->citus_unknown_refused++;
	trace(b, b->server, "%s refused: pg_dist_local_group is empty", spec->type_name);
	if (s->group != UID_GROUP_UNKNOWN && s->filled_at != UINT64_MAX && b->call_step >= s->filled_at)
		fail("available: server %d refused a %s call (begun at step %" PRIu64 ") for an empty "
			 "pg_dist_local_group, filled again at step %" PRIu64, server_index(s),
			 spec->type_name, b->call_step, s->filled_at);
}

/*
 * A call begins.  One into the cluster (on the coordinator, or on a worker
 * in the cluster) opens a table of the cluster's first, and the lock takes
 * every invalidation sent to the process (AcceptInvalidationMessages before
 * a lock not held): the add's, whose transaction held that table's lock, is
 * among them.  A worker outside the cluster generates into a database of
 * its own, in a new transaction, which takes them too, half the time.  So
 * does a session of a worker without metadata that is not a task (it has
 * no distributed table to write into; built with -DSIM_DIRECT_SHARDS it
 * writes into the cluster's shards there, by hand: see doc/testing.md).
 */
void
citus_call_begins(Backend *b)
{
	Server	   *s = &sim->servers[b->server];
	bool		own = s->role == ROLE_WORKER && !s->in_cluster;

#ifndef SIM_DIRECT_SHARDS
	own = own || (s->role == ROLE_WORKER && !s->synced && !b->task);
#endif
	b->citus_call = true;
	/*
	 * A server outside the cluster that sets no identity by hand writes
	 * into tables where no other server's IDs come until its database
	 * subscribes: from then, a transaction that begins after the
	 * subscription's invalidation reached the process (a new one, half the
	 * time, takes them; a process started after has none to take) writes
	 * where they meet.
	 */
	if (s->sub_at != UINT64_MAX)
	{
		if (rng_below(&sim->sched, 2) == 0)
			b->invals = b->inval_sent;
		b->scope = s->subscribed && b->invals >= b->sub_mark ? 0 : 1 + b->server;
		return;
	}
	b->scope = own ? 1 + b->server : 0;
	if (b->scope == 0 || rng_below(&sim->sched, 2) == 0)
		b->invals = b->inval_sent;
}

/* pg_dist_local_group's row changed: its trigger's invalidation goes to every process. */
static void
citus_invalidate(int server)
{
	for (int i = 0; i < sim->nbackends; i++)
		sim->backends[server * sim->nbackends + i].inval_sent++;
}

/* A call into the cluster under way on the server? */
static bool
citus_calls_in(int server)
{
	for (int i = 0; i < sim->nbackends; i++)
	{
		Backend    *b = &sim->backends[server * sim->nbackends + i];

		if (b->alive && b->citus_call && b->scope == 0)
			return true;
	}
	return false;
}

/*
 * citus_add_node(): the worker's metadata is synced, its row set to the
 * next value of pg_dist_groupid_seq in the transaction that makes the
 * cluster's tables there (one step: what it commits and its invalidation
 * reach a call into the cluster together).  A worker whose hand values all
 * stay set may give its group to the server outside the cluster, as the
 * hand value an operator gives it (no one else embeds it).
 *
 * A quarter of the adds of a worker whose row is 0 are without metadata
 * (citus.enable_metadata_sync off): the coordinator gives it a group and
 * places shards there (its tasks run there), but its row stays 0 and its
 * pg_dist_node empty, and nothing is sent to its processes; half the time
 * start_metadata_sync_to_node() later sets both, in one transaction, with
 * the trigger's invalidation.
 */
static void
citus_add(int si)
{
	Server	   *s = &sim->servers[si];
	int32		g;

	if (sim->group_seq >= sim->group_first + GROUPS_MAX)
	{
		s->citus_at = UINT64_MAX;
		return;
	}
	g = sim->group_seq++;
	s->in_cluster = true;
	if (s->group == 0 && rng_below(&sim->xrng, 4) == 0)
	{
		s->synced = false;
		s->meta_group = g;
		s->sync_at = rng_below(&sim->xrng, 2) == 0 ? sim->step + 1000 + rng_below(&sim->xrng, 30000) :
			UINT64_MAX;
		sim->citus_unsynced_adds++;
		trace(NULL, si, "citus: node added without metadata, group %d, its row 0", (int) g);
	}
	else
	{
		s->group = g;
		s->synced = true;
		citus_invalidate(si);
		trace(NULL, si, "citus: node added, group %d", (int) s->group);
	}
	sim->citus_adds++;
	s->citus_at = rng_below(&s->crng, 2) == 0 ? sim->step + 5000 + rng_below(&s->crng, 60000) :
		UINT64_MAX;
	for (int i = 0; i < sim->nservers && s->pinned && g < NPARTITIONS; i++)
	{
		Server	   *o = &sim->servers[i];

		if (o->role != ROLE_OUTSIDE || o->hostile || (sim->ho_phase && (i == sim->ho_a || i == sim->ho_b)))
			continue;
		o->files.partition = g;
		sim->owners[g] |= 1 << i;
		trace(NULL, i, "edit: the hand value is %d, server %d's group", (int) g, si);
		server_reload(o);
		break;
	}
}

/*
 * citus_remove_node(): from now on no call there goes into the cluster (it
 * would wait for the drop of the cluster's tables there, then fail); the
 * drop itself waits for the calls into the cluster under way (their locks).
 * Re-added later, with a new group.
 */
static void
citus_remove(int si)
{
	Server	   *s = &sim->servers[si];

	s->in_cluster = false;
	s->remove_pending = true;
	s->sync_at = UINT64_MAX;
	sim->citus_removes++;
	trace(NULL, si, "citus: node removed from the cluster");
	s->citus_at = sim->step + 2000 + rng_below(&s->crng, 40000);
}

/*
 * The Citus events due at this step.  An upgrade of Citus (a pg_upgrade:
 * the server's processes read the group again, modelled by an invalidation
 * to each) leaves pg_dist_local_group empty until citus_finish_pg_upgrade()
 * inserts its row again, which sends no invalidation (the trigger is AFTER
 * UPDATE); no other event of the node happens meanwhile.
 */
void
citus_step(void)
{
	for (int i = 0; i < sim->nservers; i++)
	{
		Server	   *s = &sim->servers[i];

		/*
		 * CREATE SUBSCRIPTION commits: pg_subscription's invalidation goes
		 * to every process of the server (the catalog is shared)
		 */
		if (sim->step == s->sub_at)
		{
			s->subscribed = true;
			citus_invalidate(i);
			for (int k = 0; k < sim->nbackends; k++)
			{
				Backend    *b = &sim->backends[i * sim->nbackends + k];

				b->sub_mark = b->inval_sent;
			}
			sim->subscribes++;
			trace(NULL, i, "subscribes to another server's publication");
		}

		if (sim->step == s->upgrade_at && !s->remove_pending)
		{
			s->upgrade_row = s->group;
			s->group = UID_GROUP_UNKNOWN;
			citus_invalidate(i);
			sim->citus_upgrades++;
			trace(NULL, i, "citus: upgraded, pg_dist_local_group empty");
		}
		if (s->group == UID_GROUP_UNKNOWN)
		{
			if (sim->step < s->fill_at)
				continue;
			s->group = s->upgrade_row;
			s->filled_at = sim->step;
			trace(NULL, i, "citus: citus_finish_pg_upgrade(), group %d (no invalidation)",
				  (int) s->group);
		}
		if (sim->step >= s->sync_at && s->in_cluster && !s->synced)
		{
			s->group = s->meta_group;
			s->synced = true;
			s->sync_at = UINT64_MAX;
			citus_invalidate(i);
			trace(NULL, i, "citus: metadata synced, group %d", (int) s->group);
		}
		if (s->remove_pending && !citus_calls_in(i))
		{
			/*
			 * the drop commits; half the time it sets the row back to 0
			 * and empties pg_dist_node (Citus's DropMetadataSnapshotOnNode),
			 * with the trigger's invalidation
			 */
			s->remove_pending = false;
			if (rng_below(&s->crng, 2) == 0)
			{
				s->group = 0;
				s->synced = false;
				citus_invalidate(i);
			}
			trace(NULL, i, "citus: the cluster's tables dropped, group %d", (int) s->group);
		}
		if (s->role != ROLE_WORKER || sim->step < s->citus_at || s->remove_pending)
			continue;
		if (s->in_cluster)
			citus_remove(i);
		else
			citus_add(i);
	}
}

/*
 * Each server's role, its events' draws, whether uid.cluster alone is set
 * on it, its pg_dist_node, and a third of the nodes' upgrade; the first
 * server outside the cluster (-1: none).
 */
static int
citus_roles(void)
{
	Rng		   *r = &sim->crng;
	int			outside = -1;

	for (int i = 0; i < sim->nservers; i++)
	{
		Server	   *s = &sim->servers[i];

		s->role = i == 0 ? ROLE_COORDINATOR : rng_below(r, 3) == 0 ? ROLE_OUTSIDE : ROLE_WORKER;
		s->group = s->role == ROLE_OUTSIDE ? UID_GROUP_NONE : 0;
		s->in_cluster = s->role == ROLE_COORDINATOR;
		s->crng.s = rng_next(r);
		s->citus_at = s->role == ROLE_WORKER ? 500 + rng_below(&s->crng, 60000) : UINT64_MAX;
		s->files.cluster = sim->cluster_alone >= 0 && s->role != ROLE_OUTSIDE;
		/* pg_dist_node: the coordinator's lists the nodes; a worker not yet added has none */
		s->synced = s->role == ROLE_COORDINATOR;
		s->sync_at = UINT64_MAX;
		s->filled_at = UINT64_MAX;
		/* a third of the nodes are upgraded once */
		s->upgrade_at = s->fill_at = UINT64_MAX;
		if (s->role != ROLE_OUTSIDE && rng_below(&sim->xrng, 3) == 0)
		{
			s->upgrade_at = 1000 + rng_below(&sim->xrng, 60000);
			s->fill_at = s->upgrade_at + 200 + rng_below(&sim->xrng, 20000);
		}
		if (s->role == ROLE_OUTSIDE && outside < 0)
			outside = i;
	}
	return outside;
}

/*
 * Which identity settings each server sets by hand, and its hand value;
 * half the servers outside the cluster (identities not leased) set none,
 * and their database subscribes at some step.
 */
static void
citus_hands(int outside)
{
	Rng		   *r = &sim->crng;

	for (int i = 0; i < sim->nservers; i++)
	{
		Server	   *s = &sim->servers[i];
		uint64		h = rng_below(r, 4);

		/* beside a server outside the cluster, the coordinator half the time all */
		if (s->role == ROLE_OUTSIDE || (i == 0 && outside >= 0 && rng_below(r, 2) == 0))
			h = 2;
		s->files.hand = h == 2 ? HAND_ALL : h == 3 ? 1 + (int) rng_below(r, HAND_ALL) : 0;
		if (s->files.cluster)
			s->files.hand &= ~HAND_GENERATOR;
		s->files.partition = fresh_partition();
		s->sub_at = UINT64_MAX;
		s->subscribed = false;
		if (s->role == ROLE_OUTSIDE && !sim->leased && rng_below(&sim->xrng, 2) == 0)
		{
			s->files.hand = 0;
			s->sub_at = 500 + rng_below(&sim->xrng, 60000);
		}
	}
}

/*
 * A Citus run's servers: server 0 the coordinator (group 0, in the cluster
 * from the start), each other a worker not yet added (group 0, added at a
 * step of the first 60,000) or, one in three, a server outside the cluster
 * (no Citus, every identity set by hand).  Half the nodes set no identity
 * by hand, a quarter all, a quarter some.  pg_dist_groupid_seq starts at 1,
 * or further on (a cluster that saw nodes come and go), at times just below
 * where a type's fields end.  Hand values are clear of the coordinator's 0
 * and of the groups the sequence hands out, but for the server outside the
 * cluster, whose hand value is at times the group of a node whose hand
 * values all stay set (the coordinator's 0, or a worker's once it is
 * added): correct rules keep every server apart.
 */
void
citus_setup(void)
{
	Rng		   *r = &sim->crng;
	static const int32 starts[] = {1, 1, 0, 0, 509, 1021, 2045, 65533};
	int32		first = starts[rng_below(r, 8)];
	int			outside;

	if (first == 0)
		first = 2 + (int32) rng_below(r, 20);
	else if (first > 1)
		first += (int32) rng_below(r, 3);
	/*
	 * a quarter of the runs of hand-set identities set uid.cluster alone on
	 * every node of the cluster (a cluster told from another; no node sets
	 * uid.generator until an edit), from a sequence that soon hands out 64,
	 * revts8's first group beyond its generator
	 */
	sim->cluster_alone = -1;
	if (!sim->leased && rng_below(&sim->xrng, 4) == 0)
	{
		sim->cluster_alone = 1 + (int) rng_below(&sim->xrng, REVTS8_CLUSTER_MAX);
		first = 64 - (int32) rng_below(&sim->xrng, 3);
	}
	sim->group_first = sim->group_seq = first;
	sim->next_partition = 1;
	memset(sim->owners, 0, sizeof(sim->owners));
	outside = citus_roles();
	citus_hands(outside);
	/* the nodes whose group the server outside the cluster may take as its hand value */
	for (int i = 0; i < sim->nservers && outside >= 0; i++)
	{
		Server	   *s = &sim->servers[i];

		if (s->role == ROLE_OUTSIDE || s->files.hand != HAND_ALL || rng_below(r, 4) == 0)
			continue;
		s->pinned = true;
		if (s->role == ROLE_COORDINATOR)
			sim->servers[outside].files.partition = 0;
	}
	for (int i = 0; i < sim->nservers; i++)
		sim->owners[sim->servers[i].files.partition] |= 1 << i;
}

/* A Citus run shown: each server's role and hand values. */
void
citus_show(void)
{
	static const char *roles[] = {"the coordinator", "a worker", "outside the cluster"};

	printf("  a Citus cluster, pg_dist_groupid_seq from %d%s:\n", (int) sim->group_first,
		   sim->cluster_alone >= 0 ? ", uid.cluster alone on its nodes" : "");
	for (int i = 0; i < sim->nservers; i++)
		printf("    server %d: %s, hand value %d for %s%s\n", i,
			   roles[sim->servers[i].role], sim->servers[i].files.partition,
			   (const char *[]) {"none", "partition", "medallion", "partition, medallion",
				   "generator", "partition, generator", "medallion, generator",
			   "all"}[sim->servers[i].files.hand],
			   sim->servers[i].pinned ? " (its group is another's hand value)" : "");
}
