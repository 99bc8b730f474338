/*
 * guc.c
 *		The uid.* settings: their table, checks and assignments.
 *
 * Every setting goes into the IDs or their layout, so every one is the
 * server's (PGC_SIGHUP: postgresql.conf, ALTER SYSTEM or the postmaster's
 * command line, and a reload): one identity per server, which is what the
 * state file's one set of marks is shared by.  A session that could choose
 * its own (a startup option, SET, a role's or a database's setting) could
 * mint another server's IDs, or IDs of another layout from this server's
 * state: equal IDs on one server.
 *
 * The library is loaded by the session's first call, after its startup
 * options and its role's and database's settings have been applied to
 * placeholders.  Such a value replaces the server's in the placeholder;
 * loading then refuses it (core prints a WARNING) and would leave the
 * built-in default.  So _PG_init notes which placeholders a session
 * overrode and reads the server's values again from where the postmaster
 * read them: the configuration files and its command line (for SHOW and the
 * settings no ID embeds).  What an ID embeds never comes from these
 * variables but from the server's settings record (published.c), which a
 * settings worker publishes from the postmaster's values; a server value
 * that the checks refuse (a bad medallion in postgresql.conf) is noted in
 * uid_settings_refused, which the record carries.
 *
 * This file holds the table (uid_settings, which report.c also reads),
 * the check and assign hooks, and uid_guc_init(), which _PG_init calls.
 * What a coordinator's connection string holds that makes it unusable is
 * conninfo.c's (below, called by the check hook); what a leased identity
 * asks of the settings (the lease's key, the refusal of a refused
 * coordinator, the preload check) is guc_coordinator.c's (above, which
 * reads these variables).
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/acl.h"
#include "catalog/pg_authid.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "codec/bits.h"
#include "codec/sno_codec.h"
#include "codec/snowflake_si_codec.h"
#include "conninfo.h"
#include "guc.h"
#include "reload.h"

#define MEDALLION_SENTINEL ((INT64CONST(1) << 44) - 1)

int			uid_generator = 0;
int			uid_cluster = 0;
int			uid_partition = -1;
int			uid_snowflake_si_index_bits = SNOWFLAKE_SI_DEFAULT_K;
int64		uid_medallion_value = -1;
int64		uid_snowflake_si_epoch_ms = SNOWFLAKE_SI_DEFAULT_EPOCH_MS;

char	   *uid_coordinator = NULL;
char	   *uid_pool = NULL;
int			uid_pool_size = 32;
int			uid_pool_ttl_s = 3600;
int			uid_pool_grace_s = 60;
int			uid_coordinator_timeout_ms = 10000;

int			uid_sno_sequence_min = 0;
int			uid_sno_sequence_max = SNO_SEQ_MAX;
int			uid_sno_backfill_min = -1;
int			uid_sno_backfill_max = -1;
char	   *uid_sno_overflow_channel = NULL;

static char *medallion_string = NULL;
static char *epoch_string = NULL;

/*
 * uid.coordinator is set (or refused): the identity comes from a lease
 * (identity.c), never from the identity settings.
 */
UID_HIDDEN bool uid_ident_leased = false;

/* Counts the assignments of the settings a lease is bound to (ident_lease.c). */
UID_HIDDEN uint64 uid_ident_settings_changes = 0;

/* This session set a uid setting of its own before uid was loaded. */
bool		uid_settings_overridden = false;

/* Settings whose server value was refused at load and not assigned since. */
uint32		uid_settings_refused = 0;

/* Every assignment of a value clears its refusal. */
#define UID_ASSIGN_HOOK(fn, bit) \
static void \
fn(int newval, void *extra) \
{ \
	uid_settings_refused &= ~(1u << (bit)); \
}

UID_ASSIGN_HOOK(assign_generator, UID_SET_GENERATOR)
UID_ASSIGN_HOOK(assign_cluster, UID_SET_CLUSTER)
UID_ASSIGN_HOOK(assign_partition, UID_SET_PARTITION)
UID_ASSIGN_HOOK(assign_index_bits, UID_SET_INDEX_BITS)
UID_ASSIGN_HOOK(assign_pool_ttl, UID_SET_POOL_TTL)
UID_ASSIGN_HOOK(assign_pool_grace, UID_SET_POOL_GRACE)
UID_ASSIGN_HOOK(assign_coordinator_timeout, UID_SET_COORDINATOR_TIMEOUT)
UID_ASSIGN_HOOK(assign_sno_sequence_min, UID_SET_SNO_SEQUENCE_MIN)
UID_ASSIGN_HOOK(assign_sno_sequence_max, UID_SET_SNO_SEQUENCE_MAX)
UID_ASSIGN_HOOK(assign_sno_backfill_min, UID_SET_SNO_BACKFILL_MIN)
UID_ASSIGN_HOOK(assign_sno_backfill_max, UID_SET_SNO_BACKFILL_MAX)

/*
 * The bounds of each sno range setting on its own.  A range needs
 * UID_SNO_RANGE_MIN sequences, so its lower end is at most 65532 and its
 * upper end at least 3; back-fill's -1 means off.  Whether the two ends
 * make a range (and a back-fill range one clear of the live range) is
 * checked where they are used, never here: a reload assigns the settings
 * one by one, and a refusal of one end's new value checked against the
 * other end's old one would leave the old end with the new other end, a
 * range nobody set.
 */
#define SNO_SEQ_MIN_MAX		(SNO_SEQ_MAX + 1 - UID_SNO_RANGE_MIN)
#define SNO_SEQ_MAX_MIN		(UID_SNO_RANGE_MIN - 1)

static bool
check_sno_backfill_max(int *newval, void **extra, GucSource source)
{
	if (*newval == -1 || *newval >= SNO_SEQ_MAX_MIN)
		return true;
	GUC_check_errdetail("\"uid.sno_backfill_max\" must be -1 (back-fill off) or %d..%d.",
						SNO_SEQ_MAX_MIN, SNO_SEQ_MAX);
	return false;
}

/* A NOTIFY channel: at most NAMEDATALEN - 1 bytes, as NOTIFY allows. */
static bool
check_sno_overflow_channel(char **newval, void **extra, GucSource source)
{
	if (*newval != NULL && strlen(*newval) >= NAMEDATALEN)
	{
		GUC_check_errdetail("\"uid.sno_overflow_channel\" must be a channel name of at most %d bytes, or empty.",
							NAMEDATALEN - 1);
		return false;
	}
	return true;
}

static void
assign_sno_overflow_channel(const char *newval, void *extra)
{
	uid_settings_refused &= ~(1u << UID_SET_SNO_OVERFLOW_CHANNEL);
}

/*
 * uid.coordinator.  Its value may name a password (a mistake the check
 * finds, but only once the value is in the configuration), and core shows
 * the value to clients in more places than SHOW: a check hook that returns
 * false makes core report 'invalid value for parameter "uid.coordinator":
 * "<value>"', as a WARNING to every client that loads the library, and, on
 * a reload, at DEBUG2 to a client with client_min_messages = debug2 or
 * lower.  So the check accepts every value and hands its verdict to the
 * assign hook in extra: a refused value is assigned, and refused
 * (uid_settings_refused), so that the generators neither use it nor fall
 * back to the identity settings; the reason goes to the server log only,
 * with no part of the value that may be a secret.
 */
typedef struct UidCoordinatorVerdict
{
	char		problem[UID_CONNINFO_PROBLEM_LEN];	/* empty: usable */
	bool		secret;			/* the problem is a password */
} UidCoordinatorVerdict;

/* The verdict on the value assigned now, for uid_coordinator_check(). */
static char coordinator_problem[UID_CONNINFO_PROBLEM_LEN];

/* The problem this process logged last: each is logged once. */
static char coordinator_logged[UID_CONNINFO_PROBLEM_LEN];

const char *
uid_coordinator_problem(void)
{
	return coordinator_problem[0] ? coordinator_problem : NULL;
}

/* While the library defines uid.coordinator in a session (see the assign hook). */
static bool coordinator_defining = false;

/*
 * Empty (no coordinator), or a connection string that libpq can parse and
 * that holds no secret (conninfo.c).  Accepts every value (see above).
 */
static bool
check_coordinator(char **newval, void **extra, GucSource source)
{
	UidCoordinatorVerdict *v = uid_guc_malloc(sizeof(UidCoordinatorVerdict));

	if (v == NULL)
		return false;
	v->problem[0] = '\0';
	v->secret = false;
	*extra = v;
	if (*newval != NULL && **newval != '\0')
		v->secret = uid_conninfo_problem(*newval, v->problem, sizeof(v->problem));
	return true;
}

static void
assign_coordinator(const char *newval, void *extra)
{
	const UidCoordinatorVerdict *v = extra;

	uid_ident_leased = newval != NULL && *newval != '\0';
	uid_ident_settings_changes++;
	/* the next ID under a lease checks that every session loads uid */
	if (uid_ident_leased)
		uid_settings_refused |= UID_PRELOAD_UNCHECKED;
	else
		uid_settings_refused &= ~UID_PRELOAD_UNCHECKED;

	if (v == NULL || v->problem[0] == '\0')
	{
		uid_settings_refused &= ~(1u << UID_SET_COORDINATOR);
		coordinator_problem[0] = '\0';
		coordinator_logged[0] = '\0';
		return;
	}
	uid_settings_refused |= 1u << UID_SET_COORDINATOR;
	strlcpy(coordinator_problem, v->problem, sizeof(coordinator_problem));

	/*
	 * Logged where a reload or the postmaster assigns it, once per process
	 * and problem; not by every session that loads the library (with uid in
	 * session_preload_libraries, every connection), where the generators'
	 * refusal logs it when it matters (uid_coordinator_check).  Never sent
	 * to a client, whatever its client_min_messages.
	 */
	if ((coordinator_defining && IsUnderPostmaster) ||
		strcmp(coordinator_logged, v->problem) == 0)
		return;
	strlcpy(coordinator_logged, v->problem, sizeof(coordinator_logged));
	ereport(LOG_SERVER_ONLY,
			(errmsg("the value of \"uid.coordinator\" is refused"),
			 errdetail("It is refused because %s.  The server makes no ID under a leased identity until a reload gives \"uid.coordinator\" a usable value.",
					   v->problem),
			 v->secret ?
			 errhint("Keep the password in the password file of the server's operating system user (~/.pgpass, or passfile), or log in with a client certificate.") :
			 errhint("Correct it and reload the configuration.")));
}

static void
assign_pool_size(int newval, void *extra)
{
	uid_settings_refused &= ~(1u << UID_SET_POOL_SIZE);
	uid_ident_settings_changes++;
}

static bool
check_pool(char **newval, void **extra, GucSource source)
{
	if (*newval == NULL || **newval == '\0' || strlen(*newval) > 63)
	{
		GUC_check_errdetail("\"uid.pool\" must be a name of 1 to 63 bytes.");
		return false;
	}
	return true;
}

static void
assign_pool(const char *newval, void *extra)
{
	uid_settings_refused &= ~(1u << UID_SET_POOL);
	uid_ident_settings_changes++;
}

static bool
check_medallion(char **newval, void **extra, GucSource source)
{
	const char *s = *newval;
	int64		v = 0;
	int			n = 0;

	if (s == NULL || *s == '\0')
		v = -1;
	else
	{
		for (; s[n] != '\0'; n++)
		{
			int			d = uid_hexval((unsigned char) s[n]);

			if (d < 0 || n >= 11)
			{
				GUC_check_errdetail("\"uid.medallion\" must be empty or at most 11 hexadecimal digits.");
				return false;
			}
			v = (v << 4) | d;
		}
		if (v == MEDALLION_SENTINEL)
		{
			GUC_check_errdetail("FFFFFFFFFFF is reserved for global objects.");
			return false;
		}
	}
	*extra = uid_guc_malloc(sizeof(int64));
	if (*extra == NULL)
		return false;
	*(int64 *) *extra = v;
	return true;
}

static void
assign_medallion(const char *newval, void *extra)
{
	uid_medallion_value = *(int64 *) extra;
	uid_settings_refused &= ~(1u << UID_SET_MEDALLION);
}

static bool
is_moving_word(const char *field)
{
	static const char *const words[] = {"now", "today", "tomorrow", "yesterday"};

	for (size_t i = 0; i < lengthof(words); i++)
		if (pg_strcasecmp(field, words[i]) == 0)
			return true;
	return false;
}

bool
uid_snowflake_si_epoch_of(TimestampTz ts, int64 *ms)
{
	if (TIMESTAMP_NOT_FINITE(ts) || ts % 1000 != 0)
		return false;
	*ms = ts / 1000 + PG_EPOCH_UNIX_MS;
	return *ms >= SNOWFLAKE_SI_EPOCH_MIN_MS && *ms <= SNOWFLAKE_SI_EPOCH_MAX_MS;
}

static bool
check_epoch(char **newval, void **extra, GucSource source)
{
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	struct pg_tm tt;
	fsec_t		fsec;
	int			tz;
	TimestampTz ts;
	int64		ms;
	pg_tz	   *utc;
	pg_tz	   *save_tz;
	bool		bad;

	if (*newval == NULL ||
		ParseDateTime(*newval, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0)
	{
		GUC_check_errdetail("\"uid.snowflake_si_epoch\" must be a timestamp with time zone.");
		return false;
	}
	for (int i = 0; i < nf; i++)
	{
		if (is_moving_word(field[i]))
		{
			GUC_check_errdetail("\"uid.snowflake_si_epoch\" must be a fixed point in time.");
			return false;
		}
	}
	/*
	 * A value without a zone is read as UTC, never in the TimeZone of the
	 * session that happens to load the library: DecodeDateTime takes the
	 * zone it lacks from session_timezone.
	 */
	utc = pg_tzset("UTC");
	save_tz = session_timezone;
	session_timezone = utc;
	bad = utc == NULL ||
		uid_decode_datetime(field, ftype, nf, &dtype, &tt, &fsec, &tz) != 0 ||
		dtype != DTK_DATE || tm2timestamp(&tt, fsec, &tz, &ts) != 0;
	session_timezone = save_tz;
	if (bad)
	{
		GUC_check_errdetail("\"uid.snowflake_si_epoch\" must be a timestamp with time zone.");
		return false;
	}
	if (!uid_snowflake_si_epoch_of(ts, &ms))
	{
		GUC_check_errdetail(UID_EPOCH_RULE);
		return false;
	}

	/*
	 * A base clock in the future is not refused here: this hook also checks
	 * the boot value when a backend loads the library, so with the clock set
	 * back before the base clock a refusal would kill the backend, or leave
	 * it on another base clock than the rest of the server.
	 * snowflake_si_new() refuses to generate while the clock is before it.
	 */
	*extra = uid_guc_malloc(sizeof(int64));
	if (*extra == NULL)
		return false;
	*(int64 *) *extra = ms;
	return true;
}

static void
assign_epoch(const char *newval, void *extra)
{
	uid_snowflake_si_epoch_ms = *(int64 *) extra;
	uid_settings_refused &= ~(1u << UID_SET_EPOCH);
}

/*
 * The settings, one row each by its bit: everything uid_guc_init() defines
 * and uid_config() shows (report.c) comes from here.  A field left out is
 * 0 or NULL (no flags, no hook, no long description).  INT_VAR and
 * STRING_VAR give the kind with the variable, whose type they check.
 */
#define INT_VAR(v) .kind = UID_SETTING_INT, .var = (1 ? (v) : (int *) NULL)
#define STRING_VAR(v) .kind = UID_SETTING_STRING, .var = (1 ? (v) : (char **) NULL)

const UidSetting uid_settings[UID_NSETTINGS] = {
	[UID_SET_GENERATOR] = {
		.name = "uid.generator",
		.short_desc = "Generator (node) id of this server: revts8 generator (0..63), snowflake_si machine id, uid60 worker.",
		.long_desc = "Servers that generate IDs of the same type must use different values.",
		INT_VAR(&uid_generator), .boot_int = 0, .min = 0, .max = 511,
		.int_assign = assign_generator,
		.show = UID_SHOW_IDENTITY,
		.identity = true,
	},
	[UID_SET_CLUSTER] = {
		.name = "uid.cluster",
		.short_desc = "Cluster id of this server for revts8.",
		INT_VAR(&uid_cluster), .boot_int = 0, .min = 0, .max = 15,
		.int_assign = assign_cluster,
		.show = UID_SHOW_IDENTITY,
		.identity = true,
	},
	[UID_SET_PARTITION] = {
		.name = "uid.partition",
		.short_desc = "Partition of this server for sno; -1 draws one when the server starts.",
		.long_desc = "Servers that generate sno IDs must use different partitions.",
		INT_VAR(&uid_partition), .boot_int = -1, .min = -1, .max = 65535,
		.int_assign = assign_partition,
		.show = UID_SHOW_IDENTITY,
		.identity = true,
	},
	[UID_SET_MEDALLION] = {
		.name = "uid.medallion",
		.short_desc = "Medallion of this server for muid, up to 11 hexadecimal digits; empty draws one when the server starts.",
		STRING_VAR(&medallion_string), .boot_str = "",
		.str_check = check_medallion,
		.str_assign = assign_medallion,
		.show = UID_SHOW_IDENTITY,
		.identity = true,
	},
	[UID_SET_EPOCH] = {
		.name = "uid.snowflake_si_epoch",
		.short_desc = "Base clock of snowflake_si IDs; set it once, before any ID exists.",
		.long_desc = "A value without a time zone is read as UTC.",
		STRING_VAR(&epoch_string), .boot_str = "2024-01-01 00:00:00+00",
		.str_check = check_epoch,
		.str_assign = assign_epoch,
		.show = UID_SHOW_EPOCH,
		.identity = true,
	},
	[UID_SET_INDEX_BITS] = {
		.name = "uid.snowflake_si_index_bits",
		.short_desc = "Width in bits of the snowflake_si per-millisecond index (UIN).",
		.long_desc = "The machine id gets the other 13 - k bits.",
		INT_VAR(&uid_snowflake_si_index_bits), .boot_int = SNOWFLAKE_SI_DEFAULT_K,
		.min = SNOWFLAKE_SI_K_MIN, .max = SNOWFLAKE_SI_K_MAX,
		.int_assign = assign_index_bits,
		.show = UID_SHOW_RECORD,
		.identity = true,
	},
	[UID_SET_COORDINATOR] = {
		.name = "uid.coordinator",
		.short_desc = "Connection string of the coordinator this server leases its identity from, without a password; empty: the identity settings apply.",
		.long_desc = "The coordinator is a database with the uid extension; see doc/several-servers.md in uid's sources.",
		STRING_VAR(&uid_coordinator), .boot_str = "",
		.flags = GUC_SUPERUSER_ONLY,
		.str_check = check_coordinator,
		.str_assign = assign_coordinator,
		.show = UID_SHOW_COORDINATOR,
	},
	[UID_SET_POOL] = {
		.name = "uid.pool",
		.short_desc = "Pool on the coordinator this server leases its identity from.",
		STRING_VAR(&uid_pool), .boot_str = "uid",
		.str_check = check_pool,
		.str_assign = assign_pool,
		.show = UID_SHOW_VALUE,
	},
	[UID_SET_POOL_SIZE] = {
		.name = "uid.pool_size",
		.short_desc = "Size of that pool: the number of servers it can hold.",
		.long_desc = "Every claimant of one pool gives the same size.",
		INT_VAR(&uid_pool_size), .boot_int = 32, .min = 1, .max = 65536,
		.int_assign = assign_pool_size,
		.show = UID_SHOW_VALUE,
	},
	[UID_SET_POOL_TTL] = {
		.name = "uid.pool_ttl",
		.short_desc = "Time to live of this server's lease; it is renewed when half is left.",
		INT_VAR(&uid_pool_ttl_s), .boot_int = 3600, .min = 2, .max = 31536000,
		.flags = GUC_UNIT_S,
		.int_assign = assign_pool_ttl,
		.show = UID_SHOW_VALUE,
	},
	[UID_SET_POOL_GRACE] = {
		.name = "uid.pool_grace",
		.short_desc = "On a coordinator: how long an expired or released lease is kept from other claimants.",
		.long_desc = "It must cover the clock differences between the pool's holders.",
		INT_VAR(&uid_pool_grace_s), .boot_int = 60, .min = 0, .max = 86400,
		.flags = GUC_UNIT_S,
		.int_assign = assign_pool_grace,
		.show = UID_SHOW_VALUE,
	},
	[UID_SET_COORDINATOR_TIMEOUT] = {
		.name = "uid.coordinator_timeout",
		.short_desc = "Longest time one call to the coordinator may take, connection included.",
		INT_VAR(&uid_coordinator_timeout_ms), .boot_int = 10000, .min = 100, .max = 600000,
		.flags = GUC_UNIT_MS,
		.int_assign = assign_coordinator_timeout,
		.show = UID_SHOW_VALUE,
	},
	[UID_SET_SNO_SEQUENCE_MIN] = {
		.name = "uid.sno_sequence_min",
		.short_desc = "Lowest sequence number sno_new() gives an ID of this server within a 4 ms unit.",
		.long_desc = "Servers that share a sno partition must have disjoint sequence ranges; each range holds at least 4 numbers.",
		INT_VAR(&uid_sno_sequence_min), .boot_int = 0, .min = 0, .max = SNO_SEQ_MIN_MAX,
		.int_assign = assign_sno_sequence_min,
		.show = UID_SHOW_SNO_LIVE,
	},
	[UID_SET_SNO_SEQUENCE_MAX] = {
		.name = "uid.sno_sequence_max",
		.short_desc = "Highest sequence number sno_new() gives an ID of this server within a 4 ms unit.",
		.long_desc = "Servers that share a sno partition must have disjoint sequence ranges; each range holds at least 4 numbers.",
		INT_VAR(&uid_sno_sequence_max), .boot_int = SNO_SEQ_MAX,
		.min = SNO_SEQ_MAX_MIN, .max = SNO_SEQ_MAX,
		.int_assign = assign_sno_sequence_max,
		.show = UID_SHOW_SNO_LIVE,
	},
	[UID_SET_SNO_BACKFILL_MIN] = {
		.name = "uid.sno_backfill_min",
		.short_desc = "Lowest sequence number of the IDs sno_new_at() back-fills; -1: back-fill off.",
		.long_desc = "The back-fill range must keep clear of uid.sno_sequence_min..uid.sno_sequence_max.",
		INT_VAR(&uid_sno_backfill_min), .boot_int = -1, .min = -1, .max = SNO_SEQ_MIN_MAX,
		.int_assign = assign_sno_backfill_min,
		.show = UID_SHOW_SNO_BACKFILL,
	},
	[UID_SET_SNO_BACKFILL_MAX] = {
		.name = "uid.sno_backfill_max",
		.short_desc = "Highest sequence number of the IDs sno_new_at() back-fills; -1: back-fill off.",
		.long_desc = "The back-fill range must keep clear of uid.sno_sequence_min..uid.sno_sequence_max.",
		INT_VAR(&uid_sno_backfill_max), .boot_int = -1, .min = -1, .max = SNO_SEQ_MAX,
		.int_check = check_sno_backfill_max,
		.int_assign = assign_sno_backfill_max,
		.show = UID_SHOW_SNO_BACKFILL,
	},
	[UID_SET_SNO_OVERFLOW_CHANNEL] = {
		.name = "uid.sno_overflow_channel",
		.short_desc = "NOTIFY channel on which sno_new() reports that it waits for a used-up 4 ms unit; empty: none.",
		.long_desc = "At most one notification per 4 ms unit per server, delivered when the waiting call's transaction commits.",
		STRING_VAR(&uid_sno_overflow_channel), .boot_str = "",
		.str_check = check_sno_overflow_channel,
		.str_assign = assign_sno_overflow_channel,
		.show = UID_SHOW_OFF_IF_EMPTY,
	},
};

/*
 * The first setting whose C variable does not start at its row's boot value
 * (a string's may start NULL), or NULL: what PostgreSQL's check_GUC_init
 * asserts of core's settings.  Each default is written twice, as the
 * initializer and as the boot value; DefineCustom*Variable() assigns the
 * boot value, so the two differ unseen until something reads a variable
 * before its setting is defined.  Checked by make unitcheck
 * (test/unit/settings_test.c), and before the settings are defined in a
 * server built with assertions (after, they hold the configuration's).
 */
const char *
uid_settings_boot_mismatch(void)
{
	for (int i = 0; i < UID_NSETTINGS; i++)
	{
		const UidSetting *s = &uid_settings[i];

		if (s->kind == UID_SETTING_INT ? *(int *) s->var != s->boot_int :
			*(char **) s->var != NULL && strcmp(*(char **) s->var, s->boot_str) != 0)
			return s->name;
	}
	return NULL;
}

/*
 * The placeholder of a setting, if this session made one before the library
 * was loaded.
 */
static struct config_generic *
uid_placeholder(const char *name)
{
	struct config_generic *gen = uid_find_setting(name);

	return gen && (gen->flags & GUC_CUSTOM_PLACEHOLDER) ? gen : NULL;
}

void
uid_guc_init(void)
{
	uint32		overridden = 0;
	uint32		server_set = 0;

#ifdef USE_ASSERT_CHECKING
	{
		const char *mismatch = uid_settings_boot_mismatch();

		if (mismatch != NULL)
			elog(LOG, "uid: the C variable of \"%s\" does not start at its boot value", mismatch);
		Assert(mismatch == NULL);
	}
#endif

	/*
	 * Before the settings exist: which placeholders hold a value of this
	 * session's (startup options, role or database settings) in place of
	 * the server's, and which a server value.
	 */
	for (int i = 0; i < UID_NSETTINGS; i++)
	{
		struct config_generic *ph = uid_placeholder(uid_settings[i].name);

		if (ph == NULL)
			continue;
		if (ph->reset_source > PGC_S_ARGV)
			overridden |= 1u << i;
		else if (ph->reset_source > PGC_S_DEFAULT)
			server_set |= 1u << i;
	}

	for (int i = 0; i < UID_NSETTINGS; i++)
	{
		const UidSetting *s = &uid_settings[i];

		coordinator_defining = i == UID_SET_COORDINATOR;
		if (s->kind == UID_SETTING_INT)
			DefineCustomIntVariable(s->name, s->short_desc, s->long_desc, s->var,
									s->boot_int, s->min, s->max, PGC_SIGHUP, s->flags,
									s->int_check, s->int_assign, NULL);
		else
			DefineCustomStringVariable(s->name, s->short_desc, s->long_desc, s->var,
									   s->boot_str, PGC_SIGHUP, s->flags,
									   s->str_check, s->str_assign, NULL);
	}
	coordinator_defining = false;
	MarkGUCPrefixReserved("uid");

	uid_settings_overridden = overridden != 0;
	if (overridden != 0)
	{
		const char *names[UID_NSETTINGS];

		for (int i = 0; i < UID_NSETTINGS; i++)
			names[i] = uid_settings[i].name;
		server_set |= uid_restore_server_settings(names, UID_NSETTINGS, overridden);
	}

	/*
	 * A value the server set that did not take (the check refused it) left
	 * the built-in default: the generators that embed it refuse until a
	 * reload assigns a good one.
	 */
	for (int i = 0; i < UID_NSETTINGS; i++)
		if ((server_set & (1u << i)) &&
			uid_find_setting(uid_settings[i].name)->source == PGC_S_DEFAULT)
			uid_settings_refused |= 1u << i;
	/* a refused coordinator must not fall back to the identity settings */
	if (uid_settings_refused & (1u << UID_SET_COORDINATOR))
		uid_ident_leased = true;
}

bool
uid_setting_is_default(UidSettingBit bit)
{
	struct config_generic *g = uid_find_setting(uid_settings[bit].name);

	return g == NULL || g->source == PGC_S_DEFAULT;
}

void
uid_setting_refused(UidSettingBit bit)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the server's value of \"%s\" is invalid", uid_settings[bit].name),
			 errdetail("IDs are not made with the built-in default in its place."),
			 errhint("Correct it and reload the configuration; the server log says why.")));
}
