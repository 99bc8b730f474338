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
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/wait_event.h"

#include "clock.h"
#include "remote.h"

/* Milliseconds left before the deadline, or -1 when it has passed. */
static long
uid_remote_left_ms(const UidRemote *r)
{
	int64		left = r->deadline_us - uid_clock_mono_us();

	return left <= 0 ? -1 : (long) Max(left / 1000, 1);
}

static char *
uid_remote_fail(UidRemote *r, const char *what)
{
	char	   *msg = pstrdup(r->conn ? PQerrorMessage(r->conn) : "out of memory");
	size_t		len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	return psprintf("%s: %s", what, len > 0 ? msg : "connection lost");
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
			return psprintf("could not connect to the coordinator: no answer within uid.coordinator_timeout (%d ms)",
							timeout_ms);
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
			return pstrdup("the coordinator did not take a query within uid.coordinator_timeout");
	if (flushed < 0)
		return uid_remote_fail(r, "could not send a query to the coordinator");

	for (;;)
	{
		while (PQisBusy(r->conn))
		{
			if (!uid_remote_wait(r, WL_SOCKET_READABLE))
			{
				PQclear(last);
				return pstrdup("the coordinator did not answer within uid.coordinator_timeout");
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
		return pstrdup("the coordinator sent no result");
	if (PQresultStatus(last) != PGRES_TUPLES_OK)
	{
		const char *state = PQresultErrorField(last, PG_DIAG_SQLSTATE);
		const char *msg = PQresultErrorField(last, PG_DIAG_MESSAGE_PRIMARY);
		char	   *err;

		if (state != NULL)
			strlcpy(sqlstate, state, 6);
		err = psprintf("the coordinator answered: %s", msg ? msg : PQresultErrorMessage(last));
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
