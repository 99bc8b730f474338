/*
 * sim_platform.h
 *		The generator core's platform in the simulator (see
 *		src/core/platform.h for what it must provide).
 *
 * Every simulated backend runs on one thread, as a coroutine.  Each
 * operation on a shared word, each clock read and each spin is a step: the
 * backend hands control to the scheduler (sim_step), which may run any
 * other backend, move time on, or apply a fault, before it resumes this one.
 * Memory is sequentially consistent between steps, which is what the core's
 * barriers give it on the server.
 */
#ifndef UID_SIM_PLATFORM_H
#define UID_SIM_PLATFORM_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t uint64;
typedef uint32_t uint32;
typedef int64_t int64;
typedef int32_t int32;

#define UINT64CONST(x)	UINT64_C(x)
#define INT64CONST(x)	INT64_C(x)
#define Max(a, b)		((a) > (b) ? (a) : (b))
#define Min(a, b)		((a) < (b) ? (a) : (b))
#define likely(x)		__builtin_expect((x) != 0, 1)
#define unlikely(x)		__builtin_expect((x) != 0, 0)
#define Assert(x)		assert(x)

#define UID_ALWAYS_INLINE			inline __attribute__((always_inline))
#define UID_STATIC_ASSERT(c, m)		_Static_assert(c, m)
#define uid_leftmost_one_pos32(x)	(31 - __builtin_clz(x))

typedef struct UidWord
{
	uint64		value;
} UidWord;

/* A point where the scheduler may run something else first. */
extern void sim_step(void);

static inline uint64
uid_word_read(UidWord *w)
{
	sim_step();
	return w->value;
}

static inline void
uid_word_write(UidWord *w, uint64 v)
{
	sim_step();
	w->value = v;
}

static inline bool
uid_word_cas(UidWord *w, uint64 *old, uint64 v)
{
	sim_step();
	if (w->value == *old)
	{
		w->value = v;
		return true;
	}
	*old = w->value;
	return false;
}

static inline void
uid_word_add(UidWord *w, uint64 v)
{
	sim_step();
	w->value += v;
}

#define uid_read_barrier()		((void) 0)
#define uid_write_barrier()		((void) 0)
#define uid_full_barrier()		((void) 0)

/* The clocks of the server the running backend belongs to. */
extern int64 sim_unix_us(void);
extern int64 sim_mono_us(void);
extern bool sim_sleep_us(int64 us);

#define uid_plat_unix_us()		sim_unix_us()
#define uid_plat_mono_us()		sim_mono_us()
#define uid_plat_sleep_us(us)	sim_sleep_us(us)
#define uid_plat_spin()			sim_step()
#define uid_plat_interrupts()	((void) 0)

/* Does the simulated process of this id exist (core/record.c's writer)? */
extern bool sim_alive(uint32 pid);

#define uid_plat_alive(pid)		sim_alive(pid)

/* Has the running simulated process a reload signal pending? */
extern bool sim_reload_signalled(void);

#define uid_plat_reload_signalled()	sim_reload_signalled()

#endif							/* UID_SIM_PLATFORM_H */
