/*
 * guc.h
 *		The uid.* settings.  All are the server's (PGC_SIGHUP): a session
 *		that could set them could mint another node's IDs (see guc.c).
 */
#ifndef UID_GUC_H
#define UID_GUC_H

#include "utils/timestamp.h"

extern int	uid_generator;
extern int	uid_cluster;
extern int	uid_partition;
extern int	uid_snowflake_si_index_bits;
extern int64 uid_medallion_value;	/* -1: drawn when the server starts */
extern int64 uid_snowflake_si_epoch_ms; /* Unix milliseconds */

/* Identity leased from a coordinator (lease pool, see identity.c) */
extern char *uid_coordinator;	/* conninfo; empty: hand settings */
extern char *uid_pool;
extern int	uid_pool_size;
extern int	uid_pool_ttl_s;
extern int	uid_pool_grace_s;	/* a coordinator's */
extern int	uid_coordinator_timeout_ms;

/* Errors if uid.coordinator's value was refused (guc.c). */
extern void uid_coordinator_check(void);

/* Does every session load uid (session or shared_preload_libraries)? */
extern bool uid_preloaded(void);
/* Errors, with the commands that fix it, unless it does. */
extern void uid_preload_check(void);

/* sno's sequence sharding, back-fill and overflow notifications */
extern int	uid_sno_sequence_min;
extern int	uid_sno_sequence_max;
extern int	uid_sno_backfill_min;	/* -1: back-fill off */
extern int	uid_sno_backfill_max;
extern char *uid_sno_overflow_channel;	/* empty: no notifications */

extern void uid_guc_init(void);

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
 * Settings whose server value the checks refused when the library was
 * loaded (a generator that embeds one refuses rather than use the default).
 */
extern uint32 uid_settings_refused;
extern uint32 uid_settings_from_files;

/*
 * Not a setting: the bit of uid_settings_refused that makes the next ID
 * under a lease check that every session loads uid (uid_preload_check);
 * set whenever uid.coordinator is assigned non-empty, as by every reload
 * that sets it in a file.
 */
#define UID_PRELOAD_UNCHECKED (1u << 31)
UID_NORETURN extern void uid_setting_refused(UidSettingBit bit) UID_NORETURN_AFTER;

/*
 * The settings an ID embeds or is laid out by: a backend whose settings may
 * hold edits of the configuration files that no reload delivered (reload.c)
 * refuses to use them until it takes another reload.
 */
#define UID_SETTINGS_IDENTITY ((1u << UID_SET_GENERATOR) | (1u << UID_SET_CLUSTER) | \
							   (1u << UID_SET_PARTITION) | (1u << UID_SET_MEDALLION) | \
							   (1u << UID_SET_EPOCH) | (1u << UID_SET_INDEX_BITS))
extern uint32 uid_settings_untrusted;
extern TimestampTz uid_settings_trusted_for;
extern void uid_settings_trust(void);

/* Errors if a generator may not embed the setting. */
static inline void
uid_check_setting(UidSettingBit bit)
{
	if (unlikely(uid_settings_trusted_for != PgReloadTime))
		uid_settings_trust();
	if (unlikely((uid_settings_refused | uid_settings_untrusted) & (1u << bit)))
		uid_setting_refused(bit);
}

/*
 * A value a generator embeds, worked out once per reload of this backend
 * rather than per ID (the checks of uid_check_setting() and the lookups):
 * the settings it comes from change only when this backend reloads its
 * configuration, and PgReloadTime changes then, after the assign hooks that
 * set the refused bits.  work_out errors as the per-ID checks did, and then
 * nothing is kept.
 */
typedef struct UidPerReload
{
	TimestampTz reload;			/* the PgReloadTime it was worked out for; -1: none */
	int64		value;
} UidPerReload;

#define UID_PER_RELOAD_INIT {-1, 0}

extern int64 uid_per_reload_slow(UidPerReload *c, int64 (*work_out) (void));

static inline int64
uid_per_reload(UidPerReload *c, int64 (*work_out) (void))
{
	if (likely(c->reload == PgReloadTime))
		return c->value;
	return uid_per_reload_slow(c, work_out);
}

/* Effective values, resolving "drawn when the server starts". */
extern int	uid_effective_partition(void);
extern int64 uid_effective_medallion(void);

/*
 * sno's sequence ranges.  back-fill -1, -1: off.  Not checked here.
 */
typedef struct UidSnoRanges
{
	int			live_min;
	int			live_max;
	int			backfill_min;
	int			backfill_max;
} UidSnoRanges;

/*
 * The ranges the server issues from now: those a backend took from a reload
 * and published in the state file, never edits of the configuration files
 * that no reload delivered (sno.c).
 */
extern void uid_sno_ranges(UidSnoRanges *r);

/* The smallest range of sequences a sno generator may have per 4 ms unit. */
#define UID_SNO_RANGE_MIN 4

/* A phrase as a sentence of a message's detail (capital, full stop). */
extern char *uid_sentence(const char *phrase);

/*
 * What is wrong with the live range (uid.sno_sequence_min..max) or the
 * back-fill range (uid.sno_backfill_min..max, which must also keep clear of
 * the live range), or NULL: a phrase for messages.
 */
extern const char *uid_sno_live_problem(const UidSnoRanges *r);
extern const char *uid_sno_backfill_problem(const UidSnoRanges *r);

/* Errors, naming the settings, with what uid_sno_live_problem() found. */
UID_NORETURN extern void uid_sno_live_refused(const UidSnoRanges *r) UID_NORETURN_AFTER;

/*
 * Errors unless the live range is a usable one: its settings were accepted
 * and give at least UID_SNO_RANGE_MIN sequences.
 */
static inline void
uid_sno_check_live(const UidSnoRanges *r)
{
	if (unlikely((uid_settings_refused & ((1u << UID_SET_SNO_SEQUENCE_MIN) |
										  (1u << UID_SET_SNO_SEQUENCE_MAX))) ||
				 r->live_max - r->live_min + 1 < UID_SNO_RANGE_MIN))
		uid_sno_live_refused(r);
}

/* identity.c: the settings it depends on changed (assign hooks) */
extern void uid_ident_config_changed(void);

/*
 * identity.c: uid_config()'s effective value of an identity setting on a
 * server that leases its identity (what IDs carry), NULL on one that does
 * not.
 */
extern char *uid_ident_effective(const char *setting);

/* The value a type embeds for a lease id; errors if it does not fit 0..max. */
extern uint32 uid_ident_value(int32 ident, const char *typname, const char *field,
							  uint32 max);

#endif							/* UID_GUC_H */
