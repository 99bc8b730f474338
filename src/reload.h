/*
 * reload.h
 *		What a process knows of the server's reloads (reload.c).
 */
#ifndef UID_RELOAD_H
#define UID_RELOAD_H

/* Starts noting when this process takes a reload signal. */
extern void uid_reload_init(void);

/*
 * How recent a settings record this process needs (core/record.h,
 * UidRecordNeed): *after, a monotonic time the record's request must come
 * after (the last reload signal it took, or when uid began watching it);
 * *reload_time, the postmaster's PgReloadTime it inherited if it took no
 * reload of its own, else -1.
 */
extern void uid_reload_need(int64 *after, int64 *reload_time);

/*
 * The server's own values, for a session that overrode them before the
 * library was loaded: sets again, from the configuration files and the
 * postmaster's command line, those of names[0..n-1] whose bits are in
 * overridden; returns the bits of those the server sets.  (What SHOW
 * displays and the settings no ID embeds: IDs embed the settings record.)
 */
extern uint32 uid_restore_server_settings(const char *const *names, int n, uint32 overridden);

/* The postmaster's life: the same for every process of one server start. */
extern uint64 uid_pm_key(void);

#endif							/* UID_RELOAD_H */
