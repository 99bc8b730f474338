/*
 * guc.h
 *		The uid.* settings.  All are the server's (PGC_SIGHUP): a session
 *		that could set them could mint another node's IDs (see guc.c).
 */
#ifndef UID_GUC_H
#define UID_GUC_H

#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/backfill.h"

extern int	uid_generator;
extern int	uid_cluster;
extern int	uid_partition;
extern int	uid_snowflake_si_index_bits;
extern int64 uid_medallion_value;	/* -1: drawn when the server starts */
extern int64 uid_snowflake_si_epoch_ms; /* Unix milliseconds */

/* Identity leased from a coordinator (lease pool, see ident_lease.c) */
extern char *uid_coordinator;	/* conninfo; empty: hand settings */
extern char *uid_pool;
extern int	uid_pool_size;
extern int	uid_pool_ttl_s;
extern int	uid_pool_grace_s;	/* a coordinator's */
extern int	uid_coordinator_timeout_ms;

/* sno's sequence sharding, back-fill and overflow notifications */
extern int	uid_sno_sequence_min;
extern int	uid_sno_sequence_max;
extern int	uid_sno_backfill_min;	/* -1: back-fill off */
extern int	uid_sno_backfill_max;
extern char *uid_sno_overflow_channel;	/* empty: no notifications */

extern void uid_guc_init(void);

/*
 * The base clocks snowflake_si counts from, uid.snowflake_si_epoch's and
 * the functions' epoch arguments' alike: whole milliseconds from
 * SNOWFLAKE_SI_EPOCH_MIN_MS to SNOWFLAKE_SI_EPOCH_MAX_MS (past which the
 * microseconds of an ID's time overflow an int64).  Whether ts is one, with
 * *ms its Unix milliseconds; UID_EPOCH_RULE is the DETAIL of a refusal.
 */
extern bool uid_snowflake_si_epoch_of(TimestampTz ts, int64 *ms);

#define UID_EPOCH_RULE \
	"The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00."

/* The settings, as bits of uid_settings_refused. */
typedef enum UidSettingBit
{
	UID_SET_GENERATOR,
	UID_SET_CLUSTER,
	UID_SET_PARTITION,
	UID_SET_MEDALLION,
	UID_SET_EPOCH,
	UID_SET_INDEX_BITS,
	UID_SET_COORDINATOR,
	UID_SET_POOL,
	UID_SET_POOL_SIZE,
	UID_SET_POOL_TTL,
	UID_SET_POOL_GRACE,
	UID_SET_COORDINATOR_TIMEOUT,
	UID_SET_SNO_SEQUENCE_MIN,
	UID_SET_SNO_SEQUENCE_MAX,
	UID_SET_SNO_BACKFILL_MIN,
	UID_SET_SNO_BACKFILL_MAX,
	UID_SET_SNO_OVERFLOW_CHANNEL,
	UID_NSETTINGS
} UidSettingBit;

/*
 * How uid_config() (report.c) shows what a setting's value means: the value
 * (with its unit), identity settings from the lease on a leased server,
 * and the few whose meaning takes more than the value.
 */
typedef enum UidShow
{
	UID_SHOW_VALUE,
	UID_SHOW_OFF_IF_EMPTY,		/* empty: "(off)" */
	UID_SHOW_IDENTITY,			/* leased: the lease's; else the value, drawn if need be */
	UID_SHOW_EPOCH,				/* the base clock as a timestamp */
	UID_SHOW_RECORD,			/* the settings record's value */
	UID_SHOW_COORDINATOR,		/* hidden, none, refused or the value */
	UID_SHOW_SNO_LIVE,			/* the live range in force */
	UID_SHOW_SNO_BACKFILL,		/* the back-fill range in force */
} UidShow;

typedef enum UidSettingKind
{
	UID_SETTING_INT,
	UID_SETTING_STRING,
} UidSettingKind;

/* One setting: what uid_guc_init() defines and uid_config() shows. */
typedef struct UidSetting
{
	const char *name;
	const char *short_desc;
	const char *long_desc;		/* or NULL */
	UidSettingKind kind;
	void	   *var;			/* int * or char ** */
	int			boot_int;
	int			min;
	int			max;
	const char *boot_str;
	int			flags;			/* GUC_UNIT_S, GUC_UNIT_MS, GUC_SUPERUSER_ONLY */
	GucIntCheckHook int_check;
	GucIntAssignHook int_assign;
	GucStringCheckHook str_check;
	GucStringAssignHook str_assign;
	UidShow		show;
	bool		identity;		/* an ID embeds it or is laid out by it */
} UidSetting;

/*
 * Indexed by UidSettingBit.  The settings whose identity field is set are
 * those an ID embeds or is laid out by: IDs take them from the server's
 * settings record (published.h), never from these variables.
 */
extern const UidSetting uid_settings[UID_NSETTINGS];

/* The first setting whose C variable does not start at its boot value, or NULL. */
extern const char *uid_settings_boot_mismatch(void);

/*
 * uid.coordinator is set (or refused): IDs carry a leased identity.  Read
 * per ID, so hidden (compat.h).
 */
extern UID_HIDDEN bool uid_ident_leased;

/*
 * Counts the assignments of the settings a lease is bound to (the
 * coordinator, the pool and its size): ident_lease.c works out the lease's
 * key again when it moved.
 */
extern UID_HIDDEN uint64 uid_ident_settings_changes;

/* Why uid.coordinator's value was refused, or NULL. */
extern const char *uid_coordinator_problem(void);

/*
 * Settings whose server value the checks refused when the library was
 * loaded (a generator that embeds one refuses rather than use the default).
 */
extern uint32 uid_settings_refused;

/*
 * This session gave a uid setting a value of its own (a startup option, a
 * role's or database's setting) before the library was loaded: its values
 * are not simply those it inherited from the postmaster.
 */
extern bool uid_settings_overridden;

/*
 * Not a setting: the bit of uid_settings_refused that makes the next ID
 * under a lease check that every session loads uid (uid_preload_check);
 * set whenever uid.coordinator is assigned non-empty, as by every reload
 * that sets it in a file.
 */
#define UID_PRELOAD_UNCHECKED (1u << 31)
/* Is this process's value of a setting its built-in default (no configuration sets it)? */
extern bool uid_setting_is_default(UidSettingBit bit);

UID_NORETURN extern void uid_setting_refused(UidSettingBit bit) UID_NORETURN_AFTER;

/* Errors if the server's value of a setting no ID embeds was refused. */
static inline void
uid_check_setting(UidSettingBit bit)
{
	if (unlikely(uid_settings_refused & (1u << bit)))
		uid_setting_refused(bit);
}

/*
 * The smallest range of sequences a sno generator may have per 4 ms unit:
 * the core's (core/backfill.h), which keeps live and back-fill ranges apart.
 */
#define UID_SNO_RANGE_MIN UID_BACKFILL_RANGE_MIN

/* A phrase as a sentence of a message's detail (capital, full stop). */

#endif							/* UID_GUC_H */
