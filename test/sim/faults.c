/*
 * faults.c
 *		The faults: each kind a named entry, and the handover of a partition.
 */
#include "sim.h"

static void handover_start(int a, uint64 r);

/*
 * pg_upgrade (doc/operations.md): the server stops cleanly (each exiting
 * process writes the state file) and a new cluster starts with neither the
 * origin uid_fence (the lease in WAL: 0) nor the state file.  The operator
 * copies the old file in; or, half the time where no lease or Citus group
 * is at stake, the old file is lost and the new server's is one made anew.
 * Then uid_fence_restore(old_file_lost), as lease.c runs it: the origin is
 * made with a lease of now, or the file's where it holds the old server's
 * record (uid_state_has_record) and is later (core/backfill.h,
 * uid_restore_lease); old_file_lost => true where the file is lost or holds
 * no record (a server that made no ID since its file was made).  How far
 * the old server's IDs reach is its WAL's lease (or its file's, since an
 * upgrade); a file lost, or one a crash left behind the WAL with no ID
 * since, may say less, and then the doc's condition is that this clock be
 * not behind the old one's: where the lease of now falls short of the old
 * IDs and the file's does too (or it is lost), the upgrade waits (is not
 * applied).
 * Its hand-set identity and back-fill range stay.  The scheduler runs the
 * core's calls here (running is NULL): a session's, alone, as every
 * generator refuses until the origin exists.
 */
static void
server_upgrade(int si, const Fault *f)
{
	Server	   *s = &sim->servers[si];
	uint64		now = (uint64) server_unix_us(s);
	uint64		reach = Max(s->wal_lease, s->file.lease.lease_us.value);	/* its IDs' */
	bool		lost = !sim->leased && !sim->citus && (f->b >> 32) % 2 == 0;
	bool		record;

	/* the doc's condition, in what the operator has: the file, or the clock */
	if (now + UID_LEASE_US < reach && (lost || s->file.lease.lease_us.value < reach))
	{
		sim->upgrades_waited++;
		trace(NULL, si, "pg_upgrade waits: the old IDs reach %" PRIu64 ", the clock %" PRIu64,
			  reach, now);
		return;
	}
	disk_write(s);
	if (lost)
		file_init(&s->file, uid_mix64(f->a ^ f->b));
	s->nimages = 0;
	disk_write(s);
	s->talk_began = 0;
	s->retry_at = 0;
	record_forget(s);
	server_new_incarnation(s);
	server_backends_restart(si);
	pace_forget(s);
	record = uid_state_has_record(&s->file.lease, &s->file.used, &s->file.used_since,
								  s->file.slots, NTYPES);
	s->wal_lease = uid_restore_lease(&s->file.lease, record, now);
	sim->upgrades_lost += lost;
	trace(NULL, si, "pg_upgrade, old file %s: origin made, lease %" PRIu64 " (now %" PRIu64 ")",
		  lost ? "lost" : record ? "copied in" : "copied in, no record", s->wal_lease, now);
}

/*
 * The back-fill range a reload delivers, -1: off.  On a server made from a
 * copy, one clear of every sequence the servers it came from used, by
 * back-fill or live, as doc/types.md says to set after such a copy takes
 * over (the copy's lanes and record of live sequences are of when it was
 * copied).
 */
int
server_bf_pick(Server *s, uint64 r)
{
	int			i = (int) (r % (NBF + 2)) - 2;

	if (i < 0)
		return -1;
	if (s->copied && (seq_bits(bf_parts[i][0], bf_parts[i][1]) & s->bf_spent))
		return -1;
	return i;
}

/*
 * A hand-set partition no server had: in Citus runs, one clear of the
 * coordinator's group and of those pg_dist_groupid_seq hands out.
 */
int
fresh_partition(void)
{
	int			v = sim->next_partition++;

	while (sim->citus && (v == 0 || (v >= sim->group_first && v < sim->group_first + GROUPS_MAX)))
		v = sim->next_partition++;
	return v;
}

/* ---------------------------------------------------------------- the kinds */

/* Mostly back, up to 3 s; sometimes a little, sometimes forward. */
static void
fault_clock_step(Server *s, int si, const Fault *f)
{
	int64		mag = (int64) (f->b % 3000000) + 1;
	int64		d = (f->b >> 32) % 4 == 0 ? mag : -mag;

	if ((f->b >> 40) % 3 == 0)
		d /= 1000;
	/* a third of the steps are NTP's, back to the true time */
	if ((f->b >> 48) % 3 == 0)
		d = true_unix_us() - server_unix_us(s);
	server_set_clock(s, server_unix_us(s) + d, s->rate_num, s->rate_den);
	trace(NULL, si, "clock steps %+" PRId64 " us", d);
}

/* The clock stops, runs at half or double speed, or at its rate again. */
static void
fault_clock_rate(Server *s, int si, const Fault *f)
{
	static const int rates[][2] = {{0, 1}, {1, 2}, {2, 1}, {1, 1}, {1, 1}};
	int			r = (int) (f->b % 5);

	server_set_clock(s, server_unix_us(s), rates[r][0], rates[r][1]);
	trace(NULL, si, "clock runs at %d/%d", rates[r][0], rates[r][1]);
}

/* A backend dies at any step; a new one starts in its place. */
static void
fault_backend(Server *s, int si, const Fault *f)
{
	Backend    *b = &sim->backends[si * sim->nbackends + (int) (f->b % (uint64) sim->nbackends)];

	trace(b, si, "backend dies%s", b->in_call ? " mid-call" : "");
	backend_start(b, si);
}

/*
 * A restart: clean (each exiting process writes the file), immediate (the
 * file as last written), or the shared state removed (the same, in the same
 * postmaster life).
 */
static void
fault_restart(Server *s, int si, const Fault *f)
{
	int			kind = (int) ((f->b >> 16) % 3);

	s->talk_began = 0;
	if (kind == 0)
		disk_write(s);			/* each exiting process writes the file */
	else
	{
		/* the file as last written */
		if (s->nimages > 0)
			s->file = s->images[s->nimages - 1];
		else
			file_init(&s->file, s->file.secret);
		record_forget(s);
		pace_forget(s);
	}
	if (kind == 2)
	{
		/* its records are of another life (published.c, uid_rec_life) */
		s->life = ++sim->next_incarnation << 32;
		server_new_live(s);
	}
	else
		server_new_incarnation(s);
	server_backends_restart(si);
	trace(NULL, si, "%s", kind == 0 ? "server restarts" :
		  kind == 1 ? "server restarts after an immediate shutdown" :
		  "shared state removed: the server reads the state file again");
}

/*
 * An operating-system crash: the disk holds one of the images written
 * since it was made; the monotonic clock starts again.
 */
static void
fault_crash(Server *s, int si, const Fault *f)
{
	if (s->nimages > 0)
		s->file = s->images[f->b % (uint64) s->nimages];
	else
		file_init(&s->file, s->file.secret);
	server_boot(s, f->a >> 8);
	s->talk_began = 0;
	if ((f->b >> 32) % 2 == 0)
		server_set_clock(s, server_unix_us(s) - (int64) ((f->b >> 33) % 2000000), 1, 1);
	record_forget(s);
	server_new_incarnation(s);
	server_backends_restart(si);
	pace_forget(s);
	trace(NULL, si, "operating-system crash: state file back to image %d of %d",
		  s->nimages ? (int) (f->b % (uint64) s->nimages) : -1, s->nimages);
}

/* A standby with every flushed WAL record; its own clock and file. */
static void
fault_failover(Server *s, int si, const Fault *f)
{
	int64		skew = (int64) (f->b % 6000000) - 3000000;

	if ((f->b >> 32) % 2 == 0 && s->nimages > 0)
		s->file = s->images[0];
	else
		file_init(&s->file, uid_mix64(f->a ^ f->b));
	s->nimages = 0;
	server_boot(s, f->a >> 8);
	server_set_clock(s, true_unix_us() + skew, 1, 1);
	s->key = uid_mix64(f->a + f->b) | 1;	/* another system: another key */
	/* its lanes and record are of when it was copied */
	s->copied = true;
	memset(s->bf_last, 0, sizeof(s->bf_last));
	s->bf_spent |= seq_bits(0, 9) | seq_bits(18, 25);	/* every live range */
	s->files.bf = server_bf_pick(s, f->b >> 40);
	record_forget(s);
	server_new_incarnation(s);
	s->talk_began = 0;
	s->retry_at = 0;
	server_backends_restart(si);
	pace_forget(s);
	trace(NULL, si, "failover to a standby %+" PRId64 " us off, %s state file",
		  skew, s->file.lease.lease_us.value ? "an old" : "an empty");
}

/* pg_upgrade (server_upgrade). */
static void
fault_upgrade(Server *s, int si, const Fault *f)
{
	server_upgrade(si, f);
}

/* Not on a server whose files hold a handover's edit ahead of its reload. */
static void
fault_reload(Server *s, int si, const Fault *f)
{
	if (!s->hostile)
		server_reload(s);
}

/*
 * An edit of the partition, outside a handover: one the checks refuse (a
 * typo), or a fresh one.
 */
static void
edit_partition(Server *s, int si, const Fault *f)
{
	bool		in_handover = sim->ho_phase && (si == sim->ho_a || si == sim->ho_b);

	if (!sim->leased && !sim->citus && (f->b >> 40) % 8 == 0 && !in_handover)
	{
		s->files.refused = true;
		sim->refusal_edits++;
	}
	else if (!sim->leased && sim->next_partition < FRESH_MAX && !in_handover)
	{
		s->files.refused = false;
		s->files.partition = fresh_partition();
		sim->owners[s->files.partition] |= 1 << si;
		/*
		 * Citus runs: the identity settings set by hand change too (all of
		 * them, on a server outside the cluster or whose group another's
		 * hand value is)
		 */
		if (sim->citus && s->role != ROLE_OUTSIDE && !s->pinned)
		{
			uint64		h = (f->b >> 24) % 4;

			s->files.hand = h == 0 ? 0 : h == 1 ? HAND_ALL : 1 + (int) ((f->b >> 28) % HAND_ALL);
		}
	}
}

/* A tool's second reload of server s, due at t (maybe_fault). */
static void
server_again_at(Server *s, int64 t)
{
	s->again_at = t;
	sim->again_first = Min(sim->again_first, t);
}

/*
 * The configuration files change: sno's ranges, the partition, or a
 * setting not uid's; most edits are reloaded, some twice in a row.
 */
static void
fault_edit(Server *s, int si, const Fault *f)
{
	switch ((f->b >> 8) % 5)
	{
		case 0:
		case 1:
		case 2:
			/* sno's ranges, as a reload delivered them before 0.6.1 */
			s->files.part = (int) (f->b % NPARTS);
			s->files.bf = server_bf_pick(s, f->b >> 32);
			/* half the time, a partition the checks refused is put right */
			if (s->files.refused && (f->b >> 44) % 2 == 0)
				s->files.refused = false;
			break;
		case 3:
			edit_partition(s, si, f);
			break;
		case 4:
			s->files.other++;	/* not uid's */
			break;
	}
	trace(NULL, si, "edit: the files say partition %d%s (hand %d), range %d, bf %d, other %u",
		  s->files.partition, s->files.refused ? " refused" : "", s->files.hand,
		  s->files.part, s->files.bf, s->files.other);
	if ((f->b >> 16) % 4 != 0 && !s->hostile)
	{
		server_reload(s);
		/* a tool that edits and reloads twice in a row, as Patroni may */
		if (sim->storm)
			server_again_at(s, sim->t + 1 + (int64) ((f->a >> 8) % 5000));
		else if ((f->b >> 20) % 2 == 0)
			server_again_at(s, sim->t + 1 + (int64) ((f->a >> 8) % 50000));
	}
}

/* A partition handed over to another server (handover_start). */
static void
fault_handover(Server *s, int si, const Fault *f)
{
	handover_start(si, f->b);
}

/* The operating system writes the state file back (no sync). */
static void
fault_writeback(Server *s, int si, const Fault *f)
{
	disk_write(s);
}

/* (leased) the server cannot reach the coordinator, for up to 10 s. */
static void
fault_partition(Server *s, int si, const Fault *f)
{
	s->cut_until = sim->t + (int64) (f->b % 10000000);
	trace(NULL, si, "cut off from the coordinator for %" PRId64 " us", s->cut_until - sim->t);
}

/*
 * The fault kinds, by kind: each its name (the summary's and a schedule's),
 * what it does to server s (si: its index; f: the draws it may use), and
 * its weight in a seed's mix (edits count thrice: settings change often).
 */
typedef struct FaultKind
{
	const char *name;
	void		(*apply) (Server *s, int si, const Fault *f);
	int			weight;
} FaultKind;

static const FaultKind fault_kinds[NFAULTKINDS] = {
	[F_CLOCK_STEP] = {"clock-step", fault_clock_step, 1},
	[F_CLOCK_RATE] = {"clock-rate", fault_clock_rate, 1},
	[F_BACKEND] = {"backend-dies", fault_backend, 1},
	[F_RESTART] = {"restart", fault_restart, 1},
	[F_CRASH] = {"os-crash", fault_crash, 1},
	[F_FAILOVER] = {"failover", fault_failover, 1},
	[F_RELOAD] = {"reload", fault_reload, 1},
	[F_WRITEBACK] = {"writeback", fault_writeback, 1},
	[F_PARTITION] = {"partition", fault_partition, 1},
	[F_EDIT] = {"edit", fault_edit, 3},
	[F_HANDOVER] = {"handover", fault_handover, 1},
	[F_UPGRADE] = {"upgrade", fault_upgrade, 1},
};

const char *
fault_name(int kind)
{
	return fault_kinds[kind].name;
}

/*
 * The kind a draw picks (a seed's mix): the draw modulo the weights' sum,
 * read along every kind once, then along each kind's further weight, in
 * the table's order.
 */
static int
fault_pick(uint64 draw)
{
	int			total = 0;
	int			v;

	for (int k = 0; k < NFAULTKINDS; k++)
		total += fault_kinds[k].weight;
	v = (int) (draw % (uint64) total);
	if (v < NFAULTKINDS)
		return v;
	v -= NFAULTKINDS;
	for (int k = 0;; k++)
	{
		if (v < fault_kinds[k].weight - 1)
			return k;
		v -= fault_kinds[k].weight - 1;
	}
}

static void
apply_fault(const Fault *f)
{
	int			si = (int) (f->a % (uint64) sim->nservers);

	fault_kinds[f->kind].apply(&sim->servers[si], si, f);
}

/*
 * A partition handed over (doc/types.md): server a is given a new
 * partition (an edit and a reload); once a's record shows it, and b's clock
 * is well past a's last tick of the old one, b is given a's old partition
 * (an edit and a reload).  Half the time the edit of b's files is made at
 * the start, ahead of its reload (it must take effect only then).
 */
static void
handover_start(int a, uint64 r)
{
	Server	   *sa = &sim->servers[a];
	int			b = (a + 1 + (int) (r % (uint64) (sim->nservers - 1 + (sim->nservers == 1)))) %
		sim->nservers;

	if (sim->leased || sim->nservers < 2 || sim->ho_phase != 0 ||
		sim->next_partition >= FRESH_MAX)
		return;
	/* Citus runs: between servers whose identity settings are all set by hand */
	if (sim->citus && (sa->files.hand != HAND_ALL || sim->servers[b].files.hand != HAND_ALL))
		return;
	/* between servers whose partitions the checks take */
	if (sa->files.refused || sa->delivered.refused || sim->servers[b].files.refused ||
		sim->servers[b].delivered.refused)
		return;
	sim->ho_phase = 1;
	sim->ho_a = a;
	sim->ho_b = b;
	sim->ho_old = sa->delivered.partition;
	sim->ho_new = fresh_partition();
	sim->ho_b_old = sim->servers[b].delivered.partition;
	sim->owners[sim->ho_new] |= 1 << a;
	sa->files.partition = sim->ho_new;
	trace(NULL, a, "handover: partition %d goes from server %d to %d, %d to %d",
		  sim->ho_old, a, b, sim->ho_new, a);
	server_reload(sa);
	sim->ho_reload_t = sim->t;
	if ((r >> 32) % 4 != 0)
	{
		sim->servers[b].files.partition = sim->ho_old;
		sim->servers[b].hostile = true;
		trace(NULL, b, "edit ahead of its reload: partition %d", sim->ho_old);
	}
}

/* The raw record in force's partition if it is of the server's life, else -1. */
static int
record_partition(Server *s)
{
	if (s->shadow_cur == 0 || !s->shadow_known || s->shadow.life != s->life)
		return -1;
	return (int) s->shadow.values[UID_REC_PARTITION];
}

/* The operator's steps of a handover, as their conditions come true. */
void
handover_step(void)
{
	Server	   *sa = &sim->servers[sim->ho_a];
	Server	   *sb = &sim->servers[sim->ho_b];
	uint64		until;

	switch (sim->ho_phase)
	{
		case 1:
			/* a's record shows the new partition: the old one is no longer a's */
			if (record_partition(sa) != sim->ho_new)
				return;
			sim->owners[sim->ho_old] &= ~(1 << sim->ho_a);
			sim->ho_phase = 2;
			trace(NULL, sim->ho_a, "handover: the record shows partition %d", sim->ho_new);
			return;
		case 2:
			until = sim->part_last_end[sim->ho_old] + HANDOVER_WAIT_US;
			if ((uint64) server_unix_us(sb) < until || (uint64) true_unix_us() < until)
				return;
			sim->owners[sim->ho_old] |= 1 << sim->ho_b;
			sim->inherited[sim->ho_old] |= 1 << sim->ho_b;
			sb->files.partition = sim->ho_old;
			sb->hostile = false;
			server_reload(sb);
			sim->ho_phase = 3;
			return;
		case 3:
			if (record_partition(sb) != sim->ho_old)
				return;
			sim->owners[sim->ho_b_old] &= ~(1 << sim->ho_b);
			sim->ho_phase = 0;
			sim->handovers++;
			trace(NULL, sim->ho_b, "handover done: the record shows partition %d", sim->ho_old);
			return;
	}
}

/*
 * The tools' second reloads due by t, server by server; again_first, the
 * earliest of those to come (INT64_MAX: none).
 */
void
reloads_again(void)
{
	sim->again_first = INT64_MAX;
	for (int i = 0; i < sim->nservers; i++)
	{
		Server	   *sv = &sim->servers[i];

		if (sv->again_at != 0 && sim->t >= sv->again_at)
		{
			sv->again_at = 0;
			if (!sv->hostile)
			{
				sv->files.other++;
				server_reload(sv);
			}
		}
		else if (sv->again_at != 0)
			sim->again_first = Min(sim->again_first, sv->again_at);
	}
}

/*
 * The step's fault, drawn (maybe_fault, step.h): its kind and draws,
 * recorded, applied unless the run leaves it out.
 */
void
fault_draw(void)
{
	Fault		f;
	int			n;

	f.kind = fault_pick(rng_next(&sim->frng));
	f.a = rng_next(&sim->frng);
	f.b = rng_next(&sim->frng);
	n = sim->nfaults++;
	sim->faults[n] = f;
	sim->fault_step[n] = sim->step;
	if (sim->skip && sim->skip[n])
		return;
	sim->fault_counts[f.kind]++;
	apply_fault(&f);
}
