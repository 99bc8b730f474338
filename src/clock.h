/*
 * clock.h
 *		The clocks the extension reads outside the generator core: the
 *		system clock and the monotonic clock, in microseconds.  Below every
 *		other header of src/ (it includes only the core's platform), so that
 *		any file may read a clock without the generator (generate.h).
 */
#ifndef UID_CLOCK_H
#define UID_CLOCK_H

#include "core/platform.h"

/* The system clock in microseconds since the Unix epoch. */
#define uid_clock_unix_us() uid_plat_unix_us()

/* The monotonic clock in microseconds, which no clock step moves. */
#define uid_clock_mono_us() uid_plat_mono_us()

#endif							/* UID_CLOCK_H */
