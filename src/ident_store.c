/*
 * ident_store.c
 *		The leased identity as the state file keeps it: one consistent
 *		reading of the lease (UidIdentSnap) and its rewrite.
 *
 * The lease's words (UidIdentState, state.h) are read and written under a
 * sequence lock, gen: odd while a backend rewrites them, so that a reader
 * never pairs one lease's id with another's key or floor.  Only the backend
 * that holds busy rewrites them (ident_lease.c takes and gives back busy).
 *
 * Called by coordinator.c (publishing what a claim or renewal got),
 * ident_lease.c (the lease's life) and identity.c (what IDs carry).
 */
#include "postgres.h"

#include "ident_store.h"

/*
 * Reads the lease, and the gen it was read at (odd if none); a rewrite that
 * never finished reads as no lease.
 */
void
uid_ident_read_at(UidIdentSnap *s, uint64 *at)
{
	UidIdentState *st = &uid_state->ident;

	for (int spins = 0; spins < 10000; spins++)
	{
		uint64		gen = pg_atomic_read_u64(&st->gen);

		if (likely((gen & 1) == 0))
		{
			pg_read_barrier();
			s->word = pg_atomic_read_u64(&st->word);
			s->floor_us = pg_atomic_read_u64(&st->floor_us);
			s->key = pg_atomic_read_u64(&st->key);
			s->token = pg_atomic_read_u64(&st->token);
			s->renew_at_us = pg_atomic_read_u64(&st->renew_at_us);
			s->offset_lo_us = (int64) pg_atomic_read_u64(&st->offset_lo_us);
			s->offset_hi_us = (int64) pg_atomic_read_u64(&st->offset_hi_us);
			s->bound_us = pg_atomic_read_u64(&st->bound_us);
			s->measured_us = pg_atomic_read_u64(&st->measured_us);
			s->measured_by = pg_atomic_read_u64(&st->measured_by);
			pg_read_barrier();
			if (pg_atomic_read_u64(&st->gen) == gen)
			{
				s->skewed = uid_ident_skew_us(s) > (int64) s->bound_us;
				*at = gen;
				return;
			}
		}
		pg_spin_delay();
	}
	memset(s, 0, sizeof(*s));
	*at = 1;
}

void
uid_ident_read(UidIdentSnap *s)
{
	uint64		at;

	uid_ident_read_at(s, &at);
}

/* Rewrites the lease; by the backend that holds busy with stamp. */
void
uid_ident_publish(uint64 stamp, const UidIdentSnap *s)
{
	UidIdentState *st = &uid_state->ident;
	uint64		gen = pg_atomic_read_u64(&st->gen);

	/* taken over meanwhile: the newer conversation's outcome stands */
	if (pg_atomic_read_u64(&st->busy) != stamp || (gen & 1) ||
		!pg_atomic_compare_exchange_u64(&st->gen, &gen, gen + 1))
		return;
	pg_atomic_write_u64(&st->word, s->word);
	pg_atomic_write_u64(&st->floor_us, s->floor_us);
	pg_atomic_write_u64(&st->key, s->key);
	pg_atomic_write_u64(&st->token, s->token);
	pg_atomic_write_u64(&st->renew_at_us, s->renew_at_us);
	pg_atomic_write_u64(&st->offset_lo_us, (uint64) s->offset_lo_us);
	pg_atomic_write_u64(&st->offset_hi_us, (uint64) s->offset_hi_us);
	pg_atomic_write_u64(&st->bound_us, s->bound_us);
	pg_atomic_write_u64(&st->measured_us, s->measured_us);
	pg_atomic_write_u64(&st->measured_by, s->measured_by);
	pg_write_barrier();
	pg_atomic_write_u64(&st->gen, gen + 2);
}
