/*
 * remote.c
 *		One conversation with a coordinator over libpq, from a backend.
 *
 * A backend must never hang on the network: every wait here is on the
 * backend's latch as well as the socket, so a cancel, statement_timeout or
 * the postmaster's death ends it, and every call has a deadline of its own
 * (uid.coordinator_timeout).  This is what dblink and postgres_fdw do; the
 * helpers core gained for it in 16 (libpq-be-fe-helpers.h) are not in 15.
 *
 * Failures are returned, not raised: a renewal that fails while the lease
 * still runs is a warning, not an error for the statement that triggered it.
 * Only interrupts raise, so callers close the connection in PG_FINALLY.
 *
 * What failed is told twice.  libpq's messages name where the coordinator is
 * and who logs in to it (host, address, port, socket path, user), and a
 * coordinator's error detail may name other holders (uid_pool_renew's 55000
 * names the holder of the id, "host:port system ..."): that goes to the
 * server log only, and the text returned, which callers show to clients,
 * keeps what failed without it.  uid_remote_log_text() gives the full text
 * of the last failure for errdetail_log().
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "clock.h"
#include "compat.h"
#include "remote.h"

/* Milliseconds left before the deadline, or -1 when it has passed. */
static long
uid_remote_left_ms(const UidRemote *r)
{
	int64		left = r->deadline_us - uid_clock_mono_us();

	return left <= 0 ? -1 : (long) Max(left / 1000, 1);
}

/*
 * The last failure this backend returned: the client's text and the full
 * one, in TopMemoryContext (a caller may report it after the statement's
 * memory is gone: the renewal's warning comes after the conversation).
 */
static char *failed_client = NULL;
static char *failed_log = NULL;

/* Returns client (palloc'd), keeping log as its full text. */
static char *
uid_remote_failed(const char *client, const char *log)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	if (failed_client != NULL)
		pfree(failed_client);
	if (failed_log != NULL)
		pfree(failed_log);
	failed_client = pstrdup(client);
	failed_log = pstrdup(log);
	MemoryContextSwitchTo(old);
	return pstrdup(client);
}

const char *
uid_remote_log_text(const char *client)
{
	if (client != NULL && failed_client != NULL && strcmp(client, failed_client) == 0)
		return failed_log;
	return client;
}

/* A failure that libpq describes: its message to the server log only. */
static char *
uid_remote_fail(UidRemote *r, const char *what)
{
	char	   *msg = pstrdup(r->conn ? PQerrorMessage(r->conn) : "out of memory");
	size_t		len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	return uid_remote_failed(psprintf("%s (the server log says why)", what),
							 psprintf("%s: %s", what, len > 0 ? msg : "connection lost"));
}

/* A failure that names nothing of the coordinator's: the same for both. */
static char *
uid_remote_fail_plain(const char *what)
{
	return uid_remote_failed(what, what);
}

/*
 * Waits until the socket is ready for events (WL_SOCKET_READABLE or
 * WRITEABLE), the deadline passes (false) or an interrupt comes (raised).
 */
static bool
uid_remote_wait(UidRemote *r, int events)
{
	for (;;)
	{
		long		left = uid_remote_left_ms(r);
		int			rc;

		if (left < 0)
			return false;
		rc = WaitLatchOrSocket(MyLatch,
							   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH | events,
							   PQsocket(r->conn), left, uid_wait_UidCoordinator());
		if (rc & WL_LATCH_SET)
		{
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		if (rc & events)
			return true;
	}
}

char *
uid_remote_connect(UidRemote *r, const char *conninfo, int timeout_ms)
{
	/*
	 * Our defaults first: with expand_dbname the connection string's own
	 * values come later and win.
	 */
	const char *const keys[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	char		timeout[16];
	const char *values[4];
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;

	snprintf(timeout, sizeof(timeout), "%d", Max(timeout_ms / 1000, 2));
	values[0] = timeout;
	values[1] = "uid";
	values[2] = conninfo;
	values[3] = NULL;

	/* a failure of an earlier conversation is not this one's */
	(void) uid_remote_failed("", "");
	r->deadline_us = uid_clock_mono_us() + (int64) timeout_ms * 1000;
	r->conn = PQconnectStartParams(keys, values, 1);
	if (r->conn == NULL || PQstatus(r->conn) == CONNECTION_BAD)
		return uid_remote_fail(r, "could not connect to the coordinator");

	while (status != PGRES_POLLING_OK)
	{
		if (status == PGRES_POLLING_FAILED)
			return uid_remote_fail(r, "could not connect to the coordinator");
		if (!uid_remote_wait(r, status == PGRES_POLLING_READING ?
							 WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE))
			return uid_remote_fail_plain(psprintf("could not connect to the coordinator: no answer within \"uid.coordinator_timeout\" (%d ms)",
												  timeout_ms));
		status = PQconnectPoll(r->conn);
	}
	if (PQsetnonblocking(r->conn, 1) != 0)
		return uid_remote_fail(r, "could not talk to the coordinator");
	return NULL;
}

char *
uid_remote_query(UidRemote *r, const char *sql, int nparams, const char *const *params,
				 PGresult **result, char *sqlstate)
{
	PGresult   *res;
	PGresult   *last = NULL;
	int			flushed;

	*result = NULL;
	sqlstate[0] = '\0';
	if (!PQsendQueryParams(r->conn, sql, nparams, NULL, params, NULL, NULL, 0))
		return uid_remote_fail(r, "could not send a query to the coordinator");
	while ((flushed = PQflush(r->conn)) == 1)
		if (!uid_remote_wait(r, WL_SOCKET_WRITEABLE))
			return uid_remote_fail_plain("the coordinator did not take a query within \"uid.coordinator_timeout\"");
	if (flushed < 0)
		return uid_remote_fail(r, "could not send a query to the coordinator");

	for (;;)
	{
		while (PQisBusy(r->conn))
		{
			if (!uid_remote_wait(r, WL_SOCKET_READABLE))
			{
				PQclear(last);
				return uid_remote_fail_plain("the coordinator did not answer within \"uid.coordinator_timeout\"");
			}
			if (!PQconsumeInput(r->conn))
			{
				PQclear(last);
				return uid_remote_fail(r, "lost the connection to the coordinator");
			}
		}
		res = PQgetResult(r->conn);
		if (res == NULL)
			break;
		PQclear(last);
		last = res;
	}

	if (last == NULL)
		return uid_remote_fail_plain("the coordinator sent no result");
	if (PQresultStatus(last) != PGRES_TUPLES_OK)
	{
		const char *state = PQresultErrorField(last, PG_DIAG_SQLSTATE);
		const char *msg = PQresultErrorField(last, PG_DIAG_MESSAGE_PRIMARY);
		const char *detail = PQresultErrorField(last, PG_DIAG_MESSAGE_DETAIL);
		const char *hint = PQresultErrorField(last, PG_DIAG_MESSAGE_HINT);
		char	   *err;

		if (state == NULL || msg == NULL)
		{
			/* libpq's own (the connection broke): it may name the address */
			char	   *lib = pstrdup(PQresultErrorMessage(last));
			size_t		len = strlen(lib);

			while (len > 0 && (lib[len - 1] == '\n' || lib[len - 1] == ' '))
				lib[--len] = '\0';
			PQclear(last);
			return uid_remote_failed("lost the connection to the coordinator (the server log says why)",
									 psprintf("lost the connection to the coordinator: %s", lib));
		}

		/*
		 * The coordinator's own error: its message and SQLSTATE for the
		 * client ('pool "x" is exhausted', 53400), its detail and hint for
		 * the log only (a 55000 of uid_pool_renew names the id's holder).
		 */
		strlcpy(sqlstate, state, 6);
		err = psprintf("the coordinator answered: %s", msg);
		err = uid_remote_failed(err,
								psprintf("%s (SQLSTATE %s, from host %s port %s as user %s).%s%s%s%s",
										 err, state, PQhost(r->conn), PQport(r->conn),
										 PQuser(r->conn),
										 detail ? " Its detail: " : "", detail ? detail : "",
										 hint ? " Its hint: " : "", hint ? hint : ""));
		PQclear(last);
		return err;
	}
	*result = last;
	return NULL;
}

void
uid_remote_close(UidRemote *r)
{
	if (r->conn != NULL)
		PQfinish(r->conn);
	r->conn = NULL;
}
