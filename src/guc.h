/*
 * guc.h
 *		The uid.* settings.  All are the server's (PGC_SIGHUP): a session
 *		that could set them could mint another node's IDs (see guc.c).
 */
#ifndef UID_GUC_H
#define UID_GUC_H

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
	UID_NSETTINGS
} UidSettingBit;

/*
 * Settings whose server value the checks refused when the library was
 * loaded (a generator that embeds one refuses rather than use the default).
 */
extern uint32 uid_settings_refused;
UID_NORETURN extern void uid_setting_refused(UidSettingBit bit) UID_NORETURN_AFTER;

/* Errors if a generator may not embed the setting. */
static inline void
uid_check_setting(UidSettingBit bit)
{
	if (unlikely(uid_settings_refused & (1u << bit)))
		uid_setting_refused(bit);
}

/* Effective values, resolving "drawn when the server starts". */
extern int	uid_effective_partition(void);
extern int64 uid_effective_medallion(void);

/* identity.c: the settings it depends on changed (assign hooks) */
extern void uid_ident_config_changed(void);

/* The value a type embeds for a lease id; errors if it does not fit 0..max. */
extern uint32 uid_ident_value(int32 ident, const char *typname, const char *field,
							  uint32 max);

#endif							/* UID_GUC_H */
