/*
 * guc_coordinator.h
 *		What a leased identity asks of the settings (guc_coordinator.c).
 */
#ifndef UID_GUC_COORDINATOR_H
#define UID_GUC_COORDINATOR_H

/*
 * A hash of the settings a lease depends on (the coordinator's address, the
 * pool and its size), as this process holds them; never 0.
 */
extern uint64 uid_lease_settings_key(void);

/* Errors if uid.coordinator's value was refused. */
extern void uid_coordinator_check(void);

/* Does every session load uid (session or shared_preload_libraries)? */
extern bool uid_preloaded(void);
/* Errors, with the commands that fix it, unless it does. */
extern void uid_preload_check(void);

#endif							/* UID_GUC_COORDINATOR_H */
