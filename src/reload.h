/*
 * reload.h
 *		What a process knows of the server's reloads (reload.c).
 */
#ifndef UID_RELOAD_H
#define UID_RELOAD_H

#include "core/platform.h"

/* Starts noting when this process takes a reload signal. */
extern void uid_reload_init(void);

/*
 * How recent a settings record this process needs (core/record.h,
 * UidRecordNeed): *after, the last reload it took (or when uid began
 * watching it); *signalled, the last reload signal it received, taken or
 * not (0: none since); *reload_time, the postmaster's PgReloadTime it
 * inherited if it took no reload of its own, else -1; *pending, a reload
 * signal came that it has not taken.
 */
extern void uid_reload_need(int64 *after, int64 *signalled, int64 *reload_time, bool *pending);

/* Reload signals this process received; a change sends uid_rec_sync() the slow way. */
extern volatile uint32 uid_reload_signals;

/*
 * The server life's word where every process notes its latest reload signal
 * (core/record.h, uid_record_publish); set once the state is mapped.
 */
extern void uid_reload_note_in(UidWord *word);

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
