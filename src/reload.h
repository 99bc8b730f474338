/*
 * reload.h
 *		Whether this backend's settings are what a reload delivered (reload.c).
 */
#ifndef UID_RELOAD_H
#define UID_RELOAD_H

/* From _PG_init: starts watching the configuration files at each SIGHUP. */
extern void uid_reload_init(void);

/*
 * True if the settings this backend holds now are those of the server's
 * last reload that this backend took (or, if it took none since it started,
 * the postmaster's), false if they may hold edits made to the configuration
 * files after that reload was signalled and never reloaded.  Cheap once per
 * reload: it looks at the files only the first time after the backend took
 * a reload.
 */
extern bool uid_reload_trusted(void);

/*
 * Not trusted only because the backend took a reload before uid watched it
 * (seen from the wall clock, which may have stepped): may be used where no
 * session has published the server's settings since it started, never to
 * replace them.
 */
extern bool uid_reload_first_only(void);

/*
 * When the settings uid_reload_trusted() trusts became this backend's, on
 * the monotonic clock: the SIGHUP of the reload it took, or, for a backend
 * that took none, when it found none pending.  A later stamp holds a later
 * reload's settings (or the same ones).
 */
extern int64 uid_reload_stamp(void);

/*
 * The server's own values, for a session that overrode them before the
 * library was loaded: sets again, from the configuration files and the
 * postmaster's command line, those of names[0..n-1] whose bits are in
 * overridden; returns the bits of those the server sets, and notes in
 * uid_settings_from_files that the values came from the files as they are
 * now.
 */
extern uint32 uid_restore_server_settings(const char *const *names, int n, uint32 overridden);
extern uint32 uid_settings_from_files;

/* The postmaster's life: the same for every backend of one server start. */
extern uint64 uid_pm_key(void);

#endif							/* UID_RELOAD_H */
