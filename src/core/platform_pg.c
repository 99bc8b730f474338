/*
 * core/platform_pg.c
 *		The part of the generator core's platform in the server that is not
 *		inline (core/platform_pg.h): its sleep.
 */
#include "core/platform_pg.h"

#include <signal.h>

#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/wait_event.h"

#include "compat.h"

/*
 * The core's sleep (core/platform_pg.h): about us microseconds.  Long sleeps
 * (uid60 waits up to a second) wait on the process latch, so that a cancel
 * or a dying postmaster ends them at once; short ones use pg_usleep, whose
 * resolution a 1 ms tick needs.  A signal may end either early.  Returns
 * false when the latch ended the sleep before its time.
 */
bool
uid_plat_sleep_us(int64 us)
{
	if (us >= 1000)
	{
		int			rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								   (long) (us / 1000), uid_wait_UidNextTick());

		ResetLatch(MyLatch);
		return (rc & WL_TIMEOUT) != 0;
	}
	pg_usleep((long) us);
	return true;
}

/*
 * Does a process of this id exist?  kill() with no signal: ESRCH if none;
 * EPERM is a process of another user, which exists.
 */
bool
uid_plat_alive(uint32 pid)
{
	return pid != 0 && (kill((pid_t) pid, 0) == 0 || errno == EPERM);
}

/*
 * A reload signal this process has not taken: pending and blocked (a
 * settings worker keeps SIGHUP blocked), or caught and not yet processed
 * (a session).
 */
bool
uid_plat_reload_signalled(void)
{
	sigset_t	pending;

	sigemptyset(&pending);
	return ConfigReloadPending ||
		(sigpending(&pending) == 0 && sigismember(&pending, SIGHUP));
}
