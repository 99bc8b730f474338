/*
 * report.c
 *		The settings as SQL reports them: uid_config() and uid_pool_grace().
 *
 * It sits above every other module: what a setting means on this server
 * (the identity a lease gives, the sno ranges in force, a refusal) comes
 * from identity.c, sno_policy.c and guc.c, and nothing calls back into it.  Each
 * row comes from the table of settings (uid_settings, guc.c); its show
 * kind says how to put the effective value into words.
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "type_support.h"
#include "guc.h"
#include "guc_coordinator.h"
#include "source.h"
#include "identity.h"
#include "published.h"
#include "sno.h"
#include "sql_api.h"

/* The sno ranges in force, in the words of uid_config(), worked out once. */
typedef struct UidRangeWords
{
	const char *live;			/* the live range's refusal, or NULL */
	const char *backfill;		/* off, or the back-fill range's refusal, or NULL */
	UidSnoRanges r;
} UidRangeWords;

static void
uid_range_words(UidRangeWords *w)
{
	uid_sno_ranges(&w->r);
	w->live = uid_sno_live_problem(&w->r);
	w->backfill = uid_sno_backfill_problem(&w->r);
	if (w->live != NULL)
		w->backfill = "(none: the live range is refused)";
	else if (w->backfill != NULL && w->r.backfill_min < 0 && w->r.backfill_max < 0 &&
			 !(uid_rec_refused() & UID_REC_REFUSED_BACKFILL))
		w->backfill = "(off)";
	else if (w->backfill != NULL)
		w->backfill = psprintf("(refused: %s)", w->backfill);
	if (w->live != NULL)
		w->live = psprintf("(refused: %s)", w->live);
}

/* A range's end: the lower as a number, the upper with the range's size. */
static char *
uid_range_end(UidSettingBit bit, int lo, int hi)
{
	bool		upper = bit == UID_SET_SNO_SEQUENCE_MAX || bit == UID_SET_SNO_BACKFILL_MAX;

	return upper ? psprintf("%d (%d IDs per 4 ms)", hi, hi - lo + 1) :
		psprintf("%d", lo);
}

/*
 * An identity setting's value on a server that sets it by hand, as the
 * generators check it (a refused partition or medallion errors).
 */
static char *
uid_hand_identity(UidSettingBit bit)
{
	bool		drawn;

	switch (bit)
	{
		case UID_SET_MEDALLION:
			return psprintf("%011llX", (unsigned long long) uid_identity_setting(bit, &drawn));
		default:
			return psprintf("%d", (int) uid_identity_setting(bit, &drawn));
	}
}

/* The plain value, with its unit. */
static char *
uid_value_words(const UidSetting *s)
{
	if (s->kind == UID_SETTING_STRING)
		return pstrdup(*(char **) s->var);
	return psprintf("%d%s", *(int *) s->var,
					(s->flags & GUC_UNIT_S) ? " s" : (s->flags & GUC_UNIT_MS) ? " ms" : "");
}

/* What the setting means on this server: uid_config()'s third column. */
static char *
uid_effective_words(UidSettingBit bit, bool may_read, const UidRangeWords *ranges)
{
	const UidSetting *s = &uid_settings[bit];
	const char *coordinator_problem;

	switch (s->show)
	{
		case UID_SHOW_VALUE:
			return uid_value_words(s);
		case UID_SHOW_OFF_IF_EMPTY:
			return **(char **) s->var ? uid_value_words(s) : pstrdup("(off)");
		case UID_SHOW_IDENTITY:
			{
				/* leased or from Citus: what the IDs carry comes from the id */
				char	   *words = uid_ident_effective(bit);

				return words != NULL ? words : uid_hand_identity(bit);
			}
		case UID_SHOW_RECORD:
			(void) uid_rec_sync();
			uid_rec_check(bit);
			return psprintf("%d", (int) uid_rec_value(uid_rec_field_of(bit)));
		case UID_SHOW_EPOCH:
			(void) uid_rec_sync();
			return pstrdup(timestamptz_to_str((uid_rec_value(UID_REC_EPOCH_MS) - PG_EPOCH_UNIX_MS) * 1000));
		case UID_SHOW_COORDINATOR:
			coordinator_problem = uid_coordinator_problem();
			return !may_read ? pstrdup("(hidden)") :
				!*uid_coordinator ? pstrdup("(none: identity settings)") :
				coordinator_problem ? psprintf("(refused: %s)", coordinator_problem) :
				!uid_preloaded() ? pstrdup("(refused: uid is in neither session_preload_libraries nor shared_preload_libraries)") :
				pstrdup(uid_coordinator);
		case UID_SHOW_SNO_LIVE:
			return ranges->live ? pstrdup(ranges->live) :
				uid_range_end(bit, ranges->r.live_min, ranges->r.live_max);
		case UID_SHOW_SNO_BACKFILL:
			return ranges->backfill ? pstrdup(ranges->backfill) :
				uid_range_end(bit, ranges->r.backfill_min, ranges->r.backfill_max);
	}
	pg_unreachable();
}

/*
 * uid_config(): every setting, its value as the session sees it, and what
 * it means on this server.  The value of a superuser-only setting (the
 * coordinator's connection string, which may hold a password) is hidden
 * from a role that may not read all settings.
 */
PG_FUNCTION_INFO_V1(uid_config);
Datum
uid_config(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		may_read = superuser() ||
		has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);
	UidRangeWords ranges;
	char	   *effective[UID_NSETTINGS];

	InitMaterializedSRF(fcinfo, 0);
	uid_range_words(&ranges);
	/* worked out before any row is stored: one that errors stores none */
	for (int i = 0; i < UID_NSETTINGS; i++)
		effective[i] = uid_effective_words((UidSettingBit) i, may_read, &ranges);
	for (int i = 0; i < UID_NSETTINGS; i++)
	{
		const UidSetting *s = &uid_settings[i];
		Datum		values[3];
		bool		nulls[3] = {0};

		values[0] = CStringGetTextDatum(s->name);
		values[1] = CStringGetTextDatum(!may_read && (s->flags & GUC_SUPERUSER_ONLY) ?
										"(hidden)" : GetConfigOption(s->name, false, false));
		values[2] = CStringGetTextDatum(effective[i]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * A coordinator's grace period (uid.pool_grace): an expired or released
 * lease is handed out again only this long after it ended.
 */
PG_FUNCTION_INFO_V1(uid_pool_grace);
Datum
uid_pool_grace(PG_FUNCTION_ARGS)
{
	Interval   *grace = palloc0(sizeof(Interval));

	uid_check_setting(UID_SET_POOL_GRACE);
	grace->time = (int64) uid_pool_grace_s * USECS_PER_SEC;
	PG_RETURN_INTERVAL_P(grace);
}

