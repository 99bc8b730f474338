/*
 * core_fake.h
 *		A platform for the generator core's rules in the unit tests
 *		(core_test: record_test.c, record_publish_test.c, source_test.c).
 *
 * The core reaches the world through core/platform.h; built with UID_SIM,
 * that is test/sim/sim_platform.h, whose words are plain and whose clocks,
 * processes and steps are six functions the program provides.  The
 * simulator provides them with simulated servers; these tests with what a
 * row sets:
 *
 *	fake_mono, fake_unix	the clocks (monotonic us, Unix us)
 *	fake_signal_pending		a reload signal pending in the running process
 *	fake_alive_set(pid, b)	which process ids exist
 *	fake_hook				called at every step (each operation on a shared
 *							word, each clock read): a row plays another
 *							process there, or checks what the step sees
 *
 * Nothing is shared between rows but what fake_reset() sets again.
 */
#ifndef UID_TEST_CORE_FAKE_H
#define UID_TEST_CORE_FAKE_H

#include <setjmp.h>

#include "core/platform.h"

extern int64 fake_mono;
extern int64 fake_unix;
extern bool fake_signal_pending;
/* Steps taken since fake_reset(): the hook's clock. */
extern unsigned long fake_steps;
/* Called at each step; not again from within itself (what it runs takes no steps of its own). */
extern void (*fake_hook) (void);

/*
 * A row's calls may take FAKE_STEP_LIMIT steps from its fake_reset(); the
 * one that would take more (a reader that retries for ever, a claim that
 * never ends) jumps to fake_escape instead, which the driver sets.
 */
#define FAKE_STEP_LIMIT 10000000
extern jmp_buf fake_escape;

extern void fake_reset(void);
extern void fake_alive_set(uint32 pid, bool alive);

#endif							/* UID_TEST_CORE_FAKE_H */
