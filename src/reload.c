/*
 * reload.c
 *		What a process knows of the server's reloads, and the server's own
 *		values for a session that overrode them.
 *
 * PostgreSQL does not apply a reload to every process at once: the
 * postmaster reads the configuration files, then signals its children, and
 * each reads the files again itself when it takes the signal.  What an ID
 * embeds is the server's settings record (published.c), never a process's
 * own values; this file says only how recent a record a process needs
 * (uid_reload_need): one requested after the last reload signal it took,
 * since the postmaster had read that reload's files before it signalled.
 * The SIGHUP handler notes when each signal came (clock_gettime is
 * async-signal-safe), then calls core's.
 */
#include "postgres.h"

#include <signal.h>

#include "miscadmin.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/alloc.h"
#include "core/platform.h"
#include "reload.h"

static volatile int64 signalled_mono = 0;	/* the last SIGHUP, monotonic us */
volatile uint32 uid_reload_signals = 0; /* SIGHUPs received */

/* Where the server life notes the latest SIGHUP of any process (NULL: none yet). */
static UidWord *volatile shared_signalled = NULL;

/* When uid began to watch this process's reloads. */
static TimestampTz watch_reload_time;
static int64 watch_mono;
static bool watch_late;			/* took a reload before */
static int	watch_pid = 0;		/* the process that watches */
/* The last reload taken, as seen by uid_reload_need(). */
static TimestampTz seen_reload_time;
static int64 seen_after;

static struct sigaction previous_sighup;

static void
uid_sighup(int signo, siginfo_t *info, void *context)
{
	int			save_errno = errno;
	int64		now = uid_plat_mono_us();
	UidWord    *note = shared_signalled;

	signalled_mono = now;
	uid_reload_signals++;
	/* lock-free: a compare-and-swap loop is async-signal-safe */
	if (note != NULL)
	{
		uint64		was = pg_atomic_read_u64(note);

		while (was < (uint64) now && !pg_atomic_compare_exchange_u64(note, &was, (uint64) now))
			;
	}
	errno = save_errno;
	/* then core's handler: ConfigReloadPending, the latch */
	if (previous_sighup.sa_flags & SA_SIGINFO)
		previous_sighup.sa_sigaction(signo, info, context);
	else if (previous_sighup.sa_handler != SIG_IGN && previous_sighup.sa_handler != SIG_DFL)
		previous_sighup.sa_handler(signo);
}

void
uid_reload_init(void)
{
	struct sigaction act;
	sigset_t	block;
	sigset_t	old;

	/*
	 * Loaded by shared_preload_libraries: this is the postmaster, whose
	 * children install core's handler again.  Each process begins watching
	 * at its first use (uid_reload_need).
	 */
	if (process_shared_preload_libraries_in_progress || MyProcPid == watch_pid)
		return;
	watch_pid = MyProcPid;

	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	watch_reload_time = seen_reload_time = PgReloadTime;
	watch_mono = seen_after = uid_plat_mono_us();
	/*
	 * Took a reload before uid watched (the library loaded late, or first
	 * used under shared_preload_libraries): core sets PgReloadTime when a
	 * process takes one, after the process's start; one forked after the
	 * postmaster's last reload holds the postmaster's.  A wall clock stepped
	 * back can make either look like the other; a record's reload time
	 * equals this process's only if both are the postmaster's (see
	 * core/record.c), so a mistake costs at most a settings worker.
	 */
	watch_late = IsUnderPostmaster && PgReloadTime > MyStartTimestamp;
	if (sigaction(SIGHUP, NULL, &previous_sighup) == 0 &&
		((previous_sighup.sa_flags & SA_SIGINFO) ||
		 (previous_sighup.sa_handler != SIG_IGN && previous_sighup.sa_handler != SIG_DFL)))
	{
		act = previous_sighup;
		act.sa_flags |= SA_SIGINFO;
		act.sa_sigaction = uid_sighup;
		(void) sigaction(SIGHUP, &act, NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void
uid_reload_note_in(UidWord *word)
{
	shared_signalled = word;
}

void
uid_reload_need(int64 *after, int64 *signalled, int64 *reload_time, bool *pending)
{
	int64		sig;

	uid_reload_init();
	sig = signalled_mono;
	if (PgReloadTime != seen_reload_time)
	{
		/*
		 * Took a reload since last seen: its signal came at signalled_mono
		 * or before (a later one may be pending: that only asks for more).
		 */
		seen_reload_time = PgReloadTime;
		seen_after = sig > watch_mono ? sig : uid_plat_mono_us();
	}
	*after = seen_after;
	/*
	 * A signal received counts whether the process took its reload or not
	 * (core/record.h): the postmaster read the files before it sent it.
	 */
	*signalled = sig;
	*pending = ConfigReloadPending;
	*reload_time = PgReloadTime == watch_reload_time && !watch_late ? PgReloadTime : -1;
}

uint64
uid_pm_key(void)
{
	return uid_mix64((uint64) PgStartTime ^ uid_mix64((uint64) PostmasterPid)) | 1;
}

/*
 * A name from the postmaster's command line as the server reads it: in
 * --name=value, dashes stand for underscores.
 */
static bool
uid_argv_name_is(const char *arg, size_t len, const char *name)
{
	if (strlen(name) != len)
		return false;
	for (size_t i = 0; i < len; i++)
	{
		char		c = arg[i] == '-' ? '_' : arg[i];

		if (pg_tolower((unsigned char) c) != pg_tolower((unsigned char) name[i]))
			return false;
	}
	return true;
}

/*
 * The value of a setting on the postmaster's command line, from
 * postmaster.opts, which the postmaster writes at start ("-c" "name=value"
 * or "--name=value", each argument in double quotes), or NULL.
 */
static char *
uid_argv_value(const char *opts, const char *name)
{
	char	   *found = NULL;
	bool		after_c = false;
	const char *p = opts;

	while ((p = strchr(p, '"')) != NULL)
	{
		const char *arg = ++p;
		const char *end = strchr(arg, '"');
		const char *eq;

		if (end == NULL)
			break;
		p = end + 1;
		if (!after_c && end - arg == 2 && strncmp(arg, "-c", 2) == 0)
		{
			after_c = true;
			continue;
		}
		if (!after_c && end - arg > 2 && strncmp(arg, "--", 2) == 0)
			arg += 2;
		else if (!after_c && end - arg > 2 && strncmp(arg, "-c", 2) == 0)
			arg += 2;
		else if (!after_c)
			continue;
		after_c = false;
		eq = memchr(arg, '=', end - arg);
		if (eq != NULL && uid_argv_name_is(arg, eq - arg, name))
			found = pnstrdup(eq + 1, end - eq - 1);
	}
	return found;
}

/*
 * The server's values of the settings in mask, as the configuration files
 * and the postmaster's command line give them: values[i] NULL where neither
 * sets setting i, sources[i] where the value comes from.  Allocated in the
 * current memory context.  Returns false if postgresql.conf could not be
 * read.
 */
static bool
uid_read_server_values(const char *const *names, int n, uint32 mask,
					   char **values, GucSource *sources)
{
	ConfigVariable *head = NULL;
	ConfigVariable *tail = NULL;
	char		path[MAXPGPATH];
	char	   *opts = NULL;
	FILE	   *f;

	for (int i = 0; i < n; i++)
	{
		values[i] = NULL;
		sources[i] = PGC_S_DEFAULT;
	}
	/* what is wrong in the files is the server log's, never a client's */
	if (!ParseConfigFile(ConfigFileName, true, NULL, 0, 0, LOG_SERVER_ONLY, &head, &tail))
		return false;
	snprintf(path, sizeof(path), "%s/%s", DataDir, PG_AUTOCONF_FILENAME);
	(void) ParseConfigFile(path, false, NULL, 0, 0, LOG_SERVER_ONLY, &head, &tail);

	snprintf(path, sizeof(path), "%s/postmaster.opts", DataDir);
	if ((f = AllocateFile(path, "r")) != NULL)
	{
		StringInfoData buf;

		initStringInfo(&buf);
		while (!feof(f) && !ferror(f))
		{
			char		chunk[1024];
			size_t		n = fread(chunk, 1, sizeof(chunk), f);

			appendBinaryStringInfo(&buf, chunk, n);
		}
		FreeFile(f);
		opts = buf.data;
	}

	for (int i = 0; i < n; i++)
	{
		const char *name = names[i];

		if (!(mask & (1u << i)))
			continue;
		for (ConfigVariable *v = head; v != NULL; v = v->next)
			if (!v->ignore && v->name != NULL && pg_strcasecmp(v->name, name) == 0)
			{
				values[i] = pstrdup(v->value);
				sources[i] = PGC_S_FILE;
			}
		if (opts != NULL)
		{
			char	   *argv_value = uid_argv_value(opts, name);

			if (argv_value != NULL)
			{
				values[i] = argv_value;
				sources[i] = PGC_S_ARGV;
			}
		}
	}
	FreeConfigVariables(head);
	return true;
}

/*
 * Sets again, from the configuration files and the postmaster's command
 * line, the settings of names[0..n-1] whose bits are in overridden (those
 * whose placeholders this session overrode).  Returns the bits of those the
 * server sets.
 */
uint32
uid_restore_server_settings(const char *const *names, int n, uint32 overridden)
{
	uint32		found = 0;
	char	   *values[32];
	GucSource	sources[32];

	Assert(n <= 32);
	if (!uid_read_server_values(names, n, overridden, values, sources))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not read the server's uid settings from \"%s\"", ConfigFileName)));
	for (int i = 0; i < n; i++)
	{
		if (values[i] == NULL)
			continue;
		found |= 1u << i;
		(void) set_config_option(names[i], values[i], PGC_SIGHUP, sources[i],
								 GUC_ACTION_SET, true, WARNING, false);
	}
	return found;
}
