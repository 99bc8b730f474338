/*
 * remote.h
 *		One conversation with a coordinator over libpq (remote.c).
 */
#ifndef UID_REMOTE_H
#define UID_REMOTE_H

#include "libpq-fe.h"

typedef struct UidRemote
{
	PGconn	   *conn;
	int64		deadline_us;	/* monotonic: every wait ends by then */
} UidRemote;

/*
 * Each returns NULL on success, or what failed (palloc'd): a text for
 * clients, which names nothing of where the coordinator is or who logs in
 * to it.  Only interrupts raise: close the connection in PG_FINALLY.
 */
extern char *uid_remote_connect(UidRemote *r, const char *conninfo, int timeout_ms);

/* A query with text parameters; sqlstate (6 bytes) gets the coordinator's error code, if any. */
extern char *uid_remote_query(UidRemote *r, const char *sql, int nparams,
							  const char *const *params, PGresult **result,
							  char *sqlstate);
extern void uid_remote_close(UidRemote *r);

/*
 * The full text, for the server log (errdetail_log), of the failure that a
 * function above returned as client, with libpq's message (host, port,
 * socket path, user) and the coordinator's detail and hint; client itself
 * for any other text.  Only the last failure of this backend is kept: ask
 * before the next conversation.
 */
extern const char *uid_remote_log_text(const char *client);

#endif							/* UID_REMOTE_H */
