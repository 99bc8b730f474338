/*
 * core/platform_pg.h
 *		The generator core's platform in the server: PostgreSQL's atomics,
 *		the system's clocks, the process latch.
 *
 * Why PostgreSQL's atomics and not C11's: the state file's words are read
 * and written by the rest of the extension (ident_store.c, sno.c) through
 * pg_atomic_uint64, and one word must not be used through two atomics
 * APIs; PostgreSQL's also carry its barriers' semantics, which the core's
 * comments are written against.  The simulator does not need C11's either:
 * it runs every simulated backend on one thread.
 */
#ifndef UID_CORE_PLATFORM_PG_H
#define UID_CORE_PLATFORM_PG_H

#include "postgres.h"

#include <time.h>

#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_bitutils.h"

#ifdef PG_HAVE_ATOMIC_U64_SIMULATION
#error "uid needs native 64-bit atomics: its state is shared through a file mapping"
#endif

typedef pg_atomic_uint64 UidWord;

#define uid_word_read(w)			pg_atomic_read_u64(w)
#define uid_word_write(w, v)		pg_atomic_write_u64((w), (v))
#define uid_word_cas(w, old, new)	pg_atomic_compare_exchange_u64((w), (old), (new))
#define uid_word_add(w, v)			((void) pg_atomic_fetch_add_u64((w), (v)))
#define uid_read_barrier()			pg_read_barrier()
#define uid_write_barrier()			pg_write_barrier()
#define uid_full_barrier()			pg_memory_barrier()

#define uid_leftmost_one_pos32(x)	pg_leftmost_one_pos32(x)
#define UID_ALWAYS_INLINE			pg_attribute_always_inline
#define UID_STATIC_ASSERT(c, m)		StaticAssertDecl(c, m)

/* PostgreSQL's epoch, 2000-01-01 00:00:00+00, in Unix milliseconds and microseconds */
#define PG_EPOCH_UNIX_MS INT64CONST(946684800000)
#define PG_EPOCH_UNIX_US (PG_EPOCH_UNIX_MS * 1000)

/* The system clock in microseconds since the Unix epoch. */
static inline int64
uid_plat_unix_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The monotonic clock in microseconds, which no clock step moves. */
static inline int64
uid_plat_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Sleeps about us microseconds (platform_pg.c); false when woken early. */
extern bool uid_plat_sleep_us(int64 us);

/* Does a process of this id exist (the settings record's writer, core/record.c)? */
extern bool uid_plat_alive(uint32 pid);

/*
 * Has this process a reload signal pending (a settings worker, which keeps
 * SIGHUP blocked: the postmaster reloaded since it was forked)?
 */
extern bool uid_plat_reload_signalled(void);

#define uid_plat_spin()			pg_spin_delay()
#define uid_plat_interrupts()	CHECK_FOR_INTERRUPTS()

#endif							/* UID_CORE_PLATFORM_PG_H */
