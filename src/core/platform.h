/*
 * core/platform.h
 *		What the generator core needs from the world below it.
 *
 * The core (alloc.c, backfill.c, record.c) is plain C: no ereport, no settings, no WAL, no libpq.
 * It reaches the world only through what this header names:
 *
 *   types     uint32, uint64, int64, bool; UidWord, a shared 64-bit word
 *   words     uid_word_read, uid_word_write, uid_word_cas, uid_word_add,
 *             uid_read_barrier, uid_write_barrier, uid_full_barrier
 *   clocks    uid_plat_unix_us (the system clock, Unix microseconds),
 *             uid_plat_mono_us (a clock that no step moves)
 *   waiting   uid_plat_sleep_us (true when it slept its full time),
 *             uid_plat_spin, uid_plat_interrupts (may end the call)
 *   processes uid_plat_alive (does a process of this id exist),
 *             uid_plat_reload_signalled (a reload signal pending here)
 *
 * In the server (platform_pg.h) the words are PostgreSQL's atomics, the
 * same type the rest of the state file uses.  In the simulator
 * (test/sim/sim_platform.h) they are plain words, and every operation on
 * one is a point where the simulator's scheduler may run another simulated
 * backend: the simulator runs the very code the server does.
 */
#ifndef UID_CORE_PLATFORM_H
#define UID_CORE_PLATFORM_H

#ifdef UID_SIM
#include "sim_platform.h"
#else
#include "core/platform_pg.h"
#endif

#endif							/* UID_CORE_PLATFORM_H */
