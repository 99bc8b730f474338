/*
 * reload.c
 *		Whether this backend's settings are what a reload delivered.
 *
 * PostgreSQL does not apply a reload to every process at once.  The
 * postmaster reads the configuration files and signals its children; each
 * backend reads the files again itself when it takes the signal, between
 * statements (an idle one only at its next command).  Files edited after the
 * signal and not reloaded (an ALTER SYSTEM meant for a later reload) are
 * then what that backend takes: a setting no reload delivered.  For most
 * settings that is harmless; for sno's sequence ranges it is not (a range
 * prepared for the moment another server has given it up would be used at
 * once: duplicates).
 *
 * So uid watches the configuration files.  At every SIGHUP, in the signal
 * handler (stat() is async-signal-safe), it records what the files are
 * (device, inode, size, change and modification times); the first time
 * after the backend took the reload, uid_reload_trusted() compares that
 * record with the files as they are now.  If any changed, the backend may
 * hold edits that no reload delivered, and its values are not trusted: sno
 * then issues from the ranges the server took before (sno.c), and the
 * generators refuse the settings an ID embeds (UID_SETTINGS_IDENTITY,
 * guc.h) until the backend takes another reload.  False alarms are
 * possible (an edit after the backend took the reload, or a second SIGHUP
 * before its first uid call after the first); misses only where noted:
 * the files watched are postgresql.conf, postgresql.auto.conf and the files
 * the watched settings came from, not their directories (the data
 * directory changes at every log rotation): a file added to an include
 * directory and never reloaded is not seen, nor an edit made in the moment
 * between the postmaster reading the files and signalling the backend.
 *
 * Not trusted, whatever the files: a parallel worker (its leader's
 * settings); a backend that took a
 * reload before uid watched (the library loaded late, or, under
 * shared_preload_libraries, where core's handler replaces the postmaster's
 * in every backend, before its first use: seen from PgReloadTime, which a
 * backend sets when it takes a reload, after its start time); a backend
 * that set a watched setting at its start (uid_restore_server_settings()
 * read the server's values from the files then), unless the files are older than the server's last
 * reload.  A backend that took no reload since uid watched holds the
 * settings of the postmaster's last reload, which it inherited.
 */
#include "postgres.h"

#include <signal.h>
#include <sys/stat.h>

#include "access/parallel.h"
#include "miscadmin.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "generate.h"
#include "compat.h"
#include "guc.h"
#include "reload.h"

#define UID_WATCH_MAX 24

typedef struct UidFileStamp
{
	bool		exists;
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec mtime;
	struct timespec ctime;
} UidFileStamp;

/*
 * The files watched, and what they were at the last SIGHUP.  The list is
 * changed only with SIGHUP blocked; the handler writes the record.
 */
static char watch[UID_WATCH_MAX][MAXPGPATH];
static volatile int nwatch = 0;
static UidFileStamp at_signal[UID_WATCH_MAX];
static volatile sig_atomic_t have_record = false;
static volatile int64 signalled_mono = 0;	/* the last SIGHUP, monotonic us */
static int64 trusted_stamp = 0;

/* When the library was loaded: the reload time then, and whether one was pending. */
static TimestampTz load_reload_time;
static bool load_pending;
static bool load_from_files;
static bool load_late;
static bool late_only = false;	/* untrusted only for load_late */
static int64 load_mono;
static int	init_pid = 0;		/* the process that watches */

static struct sigaction previous_sighup;

/*
 * The settings whose files are watched: sno's ranges (what sno.c publishes)
 * and every setting an ID embeds or is laid out by (UID_SETTINGS_IDENTITY,
 * which a backend whose settings are not trusted refuses to use, guc.h).
 */
static const char *const watched_settings[] = {
	"uid.sno_sequence_min", "uid.sno_sequence_max",
	"uid.sno_backfill_min", "uid.sno_backfill_max",
	"uid.partition", "uid.generator", "uid.cluster", "uid.medallion",
	"uid.snowflake_si_epoch", "uid.snowflake_si_index_bits",
};

/*
 * Settings this session overrode before the library was loaded, whose
 * server values were read from the configuration files as they are now
 * (which may hold edits no reload delivered), by their bits (guc.h).
 */
uint32		uid_settings_from_files = 0;

/* The bits of uid_settings_from_files that are watched settings. */
#define UID_WATCHED_BITS ((1u << UID_SET_SNO_SEQUENCE_MIN) | (1u << UID_SET_SNO_SEQUENCE_MAX) | \
						  (1u << UID_SET_SNO_BACKFILL_MIN) | (1u << UID_SET_SNO_BACKFILL_MAX) | \
						  UID_SETTINGS_IDENTITY)

static void
uid_file_stamp(const char *path, UidFileStamp *s)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) != 0)
		return;
	s->exists = true;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->size = st.st_size;
	s->mtime = st.st_mtim;
	s->ctime = st.st_ctim;
}

static bool
uid_file_stamp_equal(const UidFileStamp *a, const UidFileStamp *b)
{
	return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
		a->size == b->size &&
		a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
		a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

/*
 * Were the watched files last changed before time t (the server's last
 * reload)?  For a session that overrode a watched setting at its start:
 * uid_restore_server_settings() read the server's value from the files when
 * the library loaded, and only files no newer than the last reload hold
 * nothing that reload did not deliver.  A file changed within 10 ms before the reload counts as newer
 * (the kernel's file times are coarse).  This compares the wall clock with
 * file times: a clock stepped back between the reload and an edit is not
 * seen.
 */
static bool
uid_files_before(TimestampTz t)
{
	for (int i = 0; i < nwatch; i++)
	{
		UidFileStamp s;
		TimestampTz m;
		TimestampTz c;

		uid_file_stamp(watch[i], &s);
		if (!s.exists)
			continue;
		m = time_t_to_timestamptz(s.mtime.tv_sec) + s.mtime.tv_nsec / 1000;
		c = time_t_to_timestamptz(s.ctime.tv_sec) + s.ctime.tv_nsec / 1000;
		if (Max(m, c) >= t - 10000)
			return false;
	}
	return true;
}

static void
uid_sighup(int signo, siginfo_t *info, void *context)
{
	int			save_errno = errno;
	int			n = nwatch;

	for (int i = 0; i < n; i++)
		uid_file_stamp(watch[i], &at_signal[i]);
	signalled_mono = uid_clock_mono_us();
	have_record = true;
	errno = save_errno;
	/* then core's handler: ConfigReloadPending, the latch */
	if (previous_sighup.sa_flags & SA_SIGINFO)
		previous_sighup.sa_sigaction(signo, info, context);
	else if (previous_sighup.sa_handler != SIG_IGN && previous_sighup.sa_handler != SIG_DFL)
		previous_sighup.sa_handler(signo);
}

static void
uid_watch_add(const char *path)
{
	if (path == NULL || *path == '\0' || nwatch >= UID_WATCH_MAX)
		return;
	for (int i = 0; i < nwatch; i++)
		if (strcmp(watch[i], path) == 0)
			return;
	strlcpy(watch[nwatch], path, MAXPGPATH);
	nwatch++;
}

/*
 * Sets the list of files to watch: called with SIGHUP blocked.  The files
 * the watched settings come from can change with a reload.
 */
static void
uid_watch_list(void)
{
	char		autoconf[MAXPGPATH];

	nwatch = 0;
	if (ConfigFileName != NULL)
		uid_watch_add(ConfigFileName);
	if (DataDir != NULL)
	{
		snprintf(autoconf, sizeof(autoconf), "%s/%s", DataDir, PG_AUTOCONF_FILENAME);
		uid_watch_add(autoconf);
	}
	for (size_t i = 0; i < lengthof(watched_settings); i++)
	{
		struct config_generic *g = uid_find_setting(watched_settings[i]);

		if (g != NULL && g->sourcefile != NULL)
			uid_watch_add(g->sourcefile);
	}
}

void
uid_reload_init(void)
{
	struct sigaction act;
	sigset_t	block;
	sigset_t	old;

	/*
	 * Loaded by shared_preload_libraries: this is the postmaster, whose
	 * children install core's handler again.  Each backend begins watching
	 * at its first use (uid_reload_trusted).
	 */
	if (process_shared_preload_libraries_in_progress || MyProcPid == init_pid)
		return;
	init_pid = MyProcPid;

	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	load_reload_time = PgReloadTime;
	/*
	 * Took a reload before uid watched (the library loaded late, or at its
	 * first use under shared_preload_libraries): core sets PgReloadTime when
	 * a backend takes one, so a time after the backend's start means it did.
	 * The wall clock can mislead: stopped, it hides one; stepped back after
	 * the postmaster's last reload, it makes a false alarm, which costs only
	 * that such a session may not replace ranges another published (see
	 * uid_reload_first_only).  session_preload_libraries loads uid before a
	 * backend can take any reload.  A single-user backend read the files
	 * after its start, and is the server.
	 */
	load_late = IsUnderPostmaster && PgReloadTime > MyStartTimestamp;
	load_pending = ConfigReloadPending;
	load_from_files = (uid_settings_from_files & UID_WATCHED_BITS) != 0;
	load_mono = uid_clock_mono_us();
	uid_watch_list();
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

bool
uid_reload_trusted(void)
{
	static TimestampTz checked_for = -1;
	static bool trusted = false;
	sigset_t	block;
	sigset_t	old;

	/*
	 * A parallel worker has its leader's settings and takes no reload: it
	 * does not speak for the server.  (A background worker, as pg_cron's, or
	 * a single-user backend is forked with the postmaster's settings, or
	 * reads the files at its start, like a session.)
	 */
	if (IsParallelWorker())
		return false;
	uid_reload_init();
	if (PgReloadTime == checked_for)
		return trusted;
	checked_for = PgReloadTime;
	late_only = false;

	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (PgReloadTime == load_reload_time)
	{
		/*
		 * No reload taken since the library was loaded: the settings of
		 * then, a reload's, and current unless a reload was already pending
		 * (then older than any: stamp 0).  A reload taken between the
		 * backend's start and the load is not seen: session_preload_libraries
		 * closes that gap.  (No comparison with the backend's start time:
		 * the wall clock may have stepped between the two.)
		 */
		trusted = !load_from_files || uid_files_before(load_reload_time);
		/*
		 * A reload taken before uid watched, as PgReloadTime after the
		 * backend's start tells (or a wall clock stepped back since the
		 * postmaster's last reload: then a false alarm): probably the
		 * server's settings, but unchecked.  Good enough to begin with when
		 * no session has published any (uid_reload_first_only), never to
		 * replace what one did.
		 */
		late_only = trusted && load_late;
		trusted = trusted && !load_late;
		trusted_stamp = load_pending ? 0 : load_mono;
	}
	else if (ConfigReloadPending)
		trusted = false;		/* the record is a later signal's: look after it */
	else if (!have_record)
		trusted = false;		/* taken before uid watched the files */
	else
	{
		trusted = true;
		trusted_stamp = signalled_mono;
		for (int i = 0; i < nwatch && trusted; i++)
		{
			UidFileStamp now;

			uid_file_stamp(watch[i], &now);
			trusted = uid_file_stamp_equal(&now, &at_signal[i]);
		}
	}
	/* the files the settings come from now, for the next reload */
	uid_watch_list();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return trusted;
}

bool
uid_reload_first_only(void)
{
	return !uid_reload_trusted() && late_only;
}

int64
uid_reload_stamp(void)
{
	return trusted_stamp;
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
	uid_settings_from_files = overridden;
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
