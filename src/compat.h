/*
 * compat.h
 *		Every difference between the PostgreSQL majors uid builds on (15 to
 *		19), in one place: the rest of the code uses these names only, and
 *		has no version test of its own.
 */
#ifndef UID_COMPAT_H
#define UID_COMPAT_H

#include "common/int.h"
#include "datatype/timestamp.h"
#include "replication/origin.h"
#include "replication/slot.h"
#include "utils/datetime.h"
#include "utils/guc_tables.h"
#include "utils/wait_event.h"

#if PG_VERSION_NUM < 150000
#error "uid needs PostgreSQL 15 or later"
#endif

/*
 * A function that does not return: 18 dropped pg_attribute_noreturn(),
 * which followed the declaration, for pg_noreturn, which precedes it.
 */
/*
 * Variables shared between the extension's files that the per-ID path
 * reads (uid_state, uid_incarnation, uid_ident_leased): hidden, so that
 * the compiler reaches them directly, not through the global offset table
 * of a shared object (an extra load each).  Not part of any API.
 */
#if defined(__GNUC__) || defined(__clang__)
#define UID_HIDDEN __attribute__((visibility("hidden")))
#else
#define UID_HIDDEN
#endif

#if PG_VERSION_NUM >= 180000
#define UID_NORETURN pg_noreturn
#define UID_NORETURN_AFTER
#else
#define UID_NORETURN
#define UID_NORETURN_AFTER pg_attribute_noreturn()
#endif

/*
 * Soft errors (16+): errsave() reports into an ErrorSaveContext when the
 * caller passed one (pg_input_is_valid, COPY ... ON_ERROR), and raises
 * otherwise; before 16 there is only the raise.
 */
#if PG_VERSION_NUM >= 160000
#define UID_SOFT_ERROR(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define UID_SOFT_ERROR(escontext, ...) ereport(ERROR, __VA_ARGS__)
#endif

/*
 * Memory for a setting's "extra": core frees it with guc_free() since 16,
 * with free() before.
 */
#if PG_VERSION_NUM >= 160000
#define uid_guc_malloc(size) guc_malloc(LOG, (size))
#else
#define uid_guc_malloc(size) malloc(size)
#endif

/*
 * Whether a role may execute a function: 16 folded pg_proc_aclcheck() and
 * its kin into object_aclcheck().
 */
#if PG_VERSION_NUM >= 160000
#define uid_proc_aclcheck(proc, role, mode) object_aclcheck(ProcedureRelationId, (proc), (role), (mode))
#else
#define uid_proc_aclcheck(proc, role, mode) pg_proc_aclcheck((proc), (role), (mode))
#endif

/* DecodeDateTime takes a DateTimeErrorExtra since 16. */
static inline int
uid_decode_datetime(char **field, int *ftype, int nf, int *dtype,
					struct pg_tm *tm, fsec_t *fsec, int *tzp)
{
#if PG_VERSION_NUM >= 160000
	DateTimeErrorExtra extra;

	return DecodeDateTime(field, ftype, nf, dtype, tm, fsec, tzp, &extra);
#else
	return DecodeDateTime(field, ftype, nf, dtype, tm, fsec, tzp);
#endif
}

/*
 * The setting or placeholder of that name, or NULL: 16 exported
 * find_option(); 15 has only the sorted array.
 */
static inline struct config_generic *
uid_find_setting(const char *name)
{
#if PG_VERSION_NUM >= 160000
	return find_option(name, false, true, DEBUG1);
#else
	struct config_generic **vars = get_guc_variables();
	int			n = GetNumConfigOptions();

	for (int i = 0; i < n; i++)
		if (pg_strcasecmp(vars[i]->name, name) == 0)
			return vars[i];
	return NULL;
#endif
}

/*
 * A string setting's reset value: 19 moved each kind's fields into a union
 * inside struct config_generic; before, struct config_string began with the
 * generic part, so a cast reached them.
 */
static inline const char *
uid_setting_reset_string(struct config_generic *g)
{
#if PG_VERSION_NUM >= 190000
	return g->_string.reset_val;
#else
	return ((struct config_string *) g)->reset_val;
#endif
}

/*
 * A replication origin's id: 19 renamed RepOriginId and InvalidRepOriginId
 * to ReplOriginId and InvalidReplOriginId; the new names, on older majors.
 */
#if PG_VERSION_NUM < 190000
typedef RepOriginId ReplOriginId;
#define InvalidReplOriginId InvalidRepOriginId
#endif

/*
 * How many replication origins can be active: 18 gave them their own
 * setting, before they shared max_replication_slots.
 */
#if PG_VERSION_NUM >= 180000
#define UID_ORIGINS_SETTING "max_active_replication_origins"
#define uid_max_origins() (max_active_replication_origins)
#else
#define UID_ORIGINS_SETTING "max_replication_slots"
#define uid_max_origins() (max_replication_slots)
#endif

/*
 * The wait event of a generator waiting for its next tick: named in
 * pg_stat_activity on 17+ (WaitEventExtensionNew), plain "Extension" before.
 */
#if PG_VERSION_NUM >= 170000
static inline uint32
uid_named_wait_event(uint32 *event, const char *name)
{
	if (*event == 0)
		*event = WaitEventExtensionNew(name);
	return *event;
}
#define UID_WAIT_EVENT(name) \
	static inline uint32 \
	uid_wait_##name(void) \
	{ \
		static uint32 event = 0; \
		return uid_named_wait_event(&event, #name); \
	}
#else
#define UID_WAIT_EVENT(name) \
	static inline uint32 \
	uid_wait_##name(void) \
	{ \
		return PG_WAIT_EXTENSION; \
	}
#endif
/* a generator waiting for its next tick; a backend waiting for the coordinator */
UID_WAIT_EVENT(UidNextTick)
UID_WAIT_EVENT(UidCoordinator)

/*
 * An interval's microseconds, a month as 30 days.  Past what an int64 holds
 * (about 292 thousand years, and 17's infinite intervals, whose fields are
 * their types' ends) it is int64's end on its own side, never wrapped to
 * the other's.
 */
static inline int64
uid_interval_us(const Interval *i)
{
	int64		days = (int64) i->month * DAYS_PER_MONTH + i->day;
	int64		us;

	if (pg_mul_s64_overflow(days, USECS_PER_DAY, &us))
		return days > 0 ? PG_INT64_MAX : PG_INT64_MIN;
	if (pg_add_s64_overflow(us, i->time, &us))
		return i->time > 0 ? PG_INT64_MAX : PG_INT64_MIN;
	return us;
}

/* The module's magic block: 18 can name the extension and its version. */
#if PG_VERSION_NUM >= 180000
#define UID_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "uid", .version = UID_VERSION)
#else
#define UID_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* UID_COMPAT_H */
