/*
 * identity.c
 *		The identity each type embeds, where it comes from, and what IDs
 *		carry now: uid_identity() and uid_config()'s effective values.
 *
 * Across servers, IDs stay apart by the identity each embeds (one or two
 * fields of each type, stated in its codec header: uid_ident_rows below).  Set by hand (uid.partition
 * and the rest), nothing notices two servers given the same.  With
 * uid.coordinator set, the server instead leases one id of a pool from a
 * coordinator, a database with this extension (uid_pool_claim() in
 * pool.sql), and every type's fields come from that id: the id itself, or
 * for a type of two fields (revts8's generator and cluster) its low bits
 * and the rest.
 *
 * The lease's life is ident_lease.c's, the conversation with the
 * coordinator coordinator.c's.  A hand setting, Citus's node group or a
 * drawn value is source.c's decision; this file reports it.  Called by the
 * types (uid_ident_value), report.c (uid_ident_effective) and SQL
 * (uid_identity()).
 */
#include "postgres.h"

#include "access/xlog.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/guc_tables.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "identity.h"
#include "ident_lease.h"
#include "ident_store.h"
#include "published.h"
#include "codec/registry.h"
#include "type_support.h"
#include "guc.h"
#include "guc_coordinator.h"
#include "source.h"
#include "sql_api.h"

uint32
uid_ident_value(int32 ident, const char *typname, uint32 max)
{
	if ((uint32) ident > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lease id %d of pool \"%s\" does not fit type %s (0..%u)",
						ident, uid_pool, typname, max),
				 errhint("Servers that make %s IDs need a pool of at most %u ids (\"uid.pool_size\").",
						 typname, max + 1)));
	return (uint32) ident;
}

/*
 * What each type embeds of a lease id, beside the hand setting it replaces:
 * one row per field, made from the ident column of codec/registry.h (the
 * facts in each type's codec header).
 */
typedef struct UidIdentRow
{
	const char *type;
	const char *field;
	UidSettingBit setting;		/* the hand setting */
	UidSettingBit source_bit;	/* the setting whose source decides (below) */
	uint64		max;			/* the largest value the field holds */
	uint32		fits;			/* the largest id that gives it a value */
	uint32		lows;			/* of an id: its low part's values (uid_id_split) */
	bool		high;			/* the id's high part: the second of two fields */
	bool		low_of_two;		/* the first of two fields */
	const char *collide;		/* drawn at start: how likely two servers collide */
} UidIdentRow;

/* the index width the record holds now: snowflake_si's machine id's bits */
#define UID_IDENT_INDEX_BITS ((int) uid_rec_value(UID_REC_INDEX_BITS))

/*
 * The rows of a type (of its ident, registry.h).  The setting bit whose
 * source decides a type's identity is its field's, or for two fields the
 * second's: revts8's generator and cluster are set by hand when either of
 * its settings is (source.c).
 */
#define UID_IDENT_ROWS(ID, name, slot, nbytes, text, clock, ident) \
	n = uid_ident_type_rows(rows, n, #name, UID_IDENT_ID_MAX(ident), UID_IDENT_LOWS(ident), \
							UID_IDENT_ROWS_ ident);
#define UID_IDENT_ROWS_(field, setting, max, collide, field2, setting2, max2) \
	field, UID_SET_##setting, max, collide, field2, UID_SET_##setting2, max2

static int
uid_ident_type_rows(UidIdentRow *rows, int n, const char *type, uint64 fits, uint64 lows,
					const char *field, UidSettingBit setting, uint64 max, const char *collide,
					const char *field2, UidSettingBit setting2, uint64 max2)
{
	bool		two = max2 != 0;

	rows[n++] = (UidIdentRow) {type, field, setting, two ? setting2 : setting, max,
	(uint32) fits, (uint32) lows, false, two, collide};
	if (two)
		rows[n++] = (UidIdentRow) {type, field2, setting2, setting2, max2,
		(uint32) fits, (uint32) lows, true, false, NULL};
	return n;
}

/* At most two fields a type. */
#define UID_IDENT_NROWS (2 * UID_NTYPES)

/* The rows as the server's record has them now: after uid_rec_sync(). */
static int
uid_ident_rows(UidIdentRow *rows)
{
	int			n = 0;

	UID_TYPES(UID_IDENT_ROWS)
	return n;
}

/*
 * The row's value for a node group, or -1 if it does not fit: as for a
 * lease id, but the first of two fields (revts8's generator) is the whole
 * group when the second's setting alone is set by hand (source.c).
 */
static int64 uid_ident_row_value(const UidIdentRow *r, int32 id);

static int64
uid_ident_group_value(const UidIdentRow *r, int32 group)
{
	uint32		generator;
	uint32		cluster;

	if (r->low_of_two && uid_revts8_cluster_alone())
		return uid_id_split_cluster((uint32) group, r->lows, 0, &generator, &cluster) ?
			(int64) generator : -1;
	return uid_ident_row_value(r, group);
}

/* The row's value for lease id, or -1 if the id does not fit its type. */
static int64
uid_ident_row_value(const UidIdentRow *r, int32 id)
{
	uint32		low;
	uint32		high;

	if (id < 0 || !uid_id_split((uint32) id, r->lows, r->fits, &low, &high))
		return -1;
	return (int64) (r->high ? high : low);
}

/* The lease as this server generates under it now. */
typedef struct UidLeaseNow
{
	UidIdentSnap s;
	bool		standby;
	bool		ours;			/* the lease is for this server's key */
	bool		live;			/* and runs */
	const char *blocked;		/* why nothing is generated, whatever the lease */
} UidLeaseNow;

static void
uid_ident_now(UidLeaseNow *n)
{
	memset(n, 0, sizeof(*n));
	n->standby = RecoveryInProgress();
	if (uid_state == NULL)
		uid_state_attach();
	uid_ident_read(&n->s);
	n->ours = !n->standby && n->s.word != 0 && n->s.key == uid_ident_key();
	n->live = n->ours && SNAP_EXPIRY_US(&n->s) > (uint64) uid_clock_unix_us();
	if (uid_settings_refused & (1u << UID_SET_COORDINATOR))
		n->blocked = "\"uid.coordinator\" is refused (the server log says why)";
	else if (!uid_preloaded())
		n->blocked = "uid is in neither session_preload_libraries nor shared_preload_libraries";
}

/*
 * What each type whose field setting sets embeds of identity id, and whence
 * the id: "snowflake_si 3, revts8 3, uid60 3 (lease id 3)".
 */
static char *
uid_ident_id_words(UidSettingBit setting, int32 id, const char *whence, bool group)
{
	UidIdentRow rows[UID_IDENT_NROWS];
	int			nrows = uid_ident_rows(rows);
	StringInfoData buf;
	int			listed = 0;

	initStringInfo(&buf);
	for (int i = 0; i < nrows; i++)
	{
		const UidIdentRow *r = &rows[i];
		int64		v = group ? uid_ident_group_value(r, id) : uid_ident_row_value(r, id);
		bool		several = setting == UID_SET_GENERATOR;

		if (r->setting != setting)
			continue;
		if (listed++ > 0)
			appendStringInfoString(&buf, ", ");
		if (several)
			appendStringInfo(&buf, "%s ", r->type);
		if (v < 0)
			appendStringInfo(&buf, "refuses (%d > %u)", id, r->fits);
		else if (setting == UID_SET_MEDALLION)
			appendStringInfo(&buf, "%011llX", (unsigned long long) v);
		else
			appendStringInfo(&buf, INT64_FORMAT, v);
	}
	appendStringInfo(&buf, " (%s %d)", whence, id);
	return buf.data;
}

/*
 * Does the server take a type's identity from this database's Citus node
 * group (not leased, not set by hand)?  The group, or -1; or, where the
 * generators refuse the group, UID_GROUP_UNKNOWN or UID_GROUP_UNSYNCED
 * (source.c decides, for the generators and for this report alike).
 */
static int32
uid_ident_citus(UidSettingBit setting)
{
	int32		group;

	switch (uid_unleased_field(setting, &group))
	{
		case UID_ID_CITUS:
		case UID_ID_REFUSED:
			return group;
		default:
			return -1;
	}
}

/*
 * uid_config()'s effective value of an identity setting (uid.partition,
 * uid.medallion, uid.generator, uid.cluster) on a server that leases its
 * identity or takes it from Citus: what IDs made now carry, from the lease
 * id or the node group, per type; or why they carry none.  NULL if the
 * server does neither (the hand or default value is the answer).
 */
char *
uid_ident_effective(UidSettingBit setting)
{
	UidLeaseNow n;
	int32		id;

	if (!uid_rec_leased())
	{
		int32		group;

		if (uid_unleased_field(setting, &group) == UID_ID_SHARED)
			return pstrdup(uid_unleased_shared_note(setting));
		group = uid_ident_citus(setting);

		if (group < UID_GROUP_NONE)
			return pstrdup(uid_unleased_refusal(group));
		return group < 0 ? NULL : uid_ident_id_words(setting, group, "Citus node group", true);
	}
	uid_ident_now(&n);
	if (n.standby)
		return pstrdup("(none: a standby makes no IDs)");
	if (n.blocked != NULL)
		return psprintf("(no ID is made: %s)", n.blocked);
	if (!n.ours)
		return pstrdup("(lease: none held yet)");
	id = SNAP_ID(&n.s);
	if (!n.live)
		return psprintf("(lease: id %d expired at %s; the next ID renews it or claims another)",
						id, uid_us_text(SNAP_EXPIRY_US(&n.s)));
	return uid_ident_id_words(setting, id, "lease id", false);
}

/*
 * uid_identity(): what each type embeds on this server now, where it comes
 * from, and whether that keeps several servers apart.
 */
PG_FUNCTION_INFO_V1(uid_identity);
Datum
uid_identity(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	UidIdentRow rows[UID_IDENT_NROWS];
	int			nrows;
	UidLeaseNow n = {0};
	bool		leased;

	InitMaterializedSRF(fcinfo, 0);
	leased = uid_rec_leased();

	nrows = uid_ident_rows(rows);
	if (leased)
		uid_ident_now(&n);

	for (int i = 0; i < nrows; i++)
	{
		const UidIdentRow *r = &rows[i];
		Datum		values[9];
		bool		nulls[9] = {0};
		int64		value = -1;
		const char *source;
		bool		safe;
		char	   *note;
		int32		group;

		if (leased)
		{
			int32		id = n.ours ? SNAP_ID(&n.s) : -1;

			source = "lease";
			values[4] = CStringGetTextDatum(uid_pool);
			nulls[5] = nulls[6] = !n.ours;
			values[5] = Int32GetDatum(id);
			values[6] = TimestampTzGetDatum((TimestampTz) SNAP_EXPIRY_US(&n.s) - PG_EPOCH_UNIX_US);
			if (n.ours)
				value = uid_ident_row_value(r, id);
			safe = n.live && value >= 0 && n.blocked == NULL;
			if (n.standby)
				note = pstrdup("a standby generates nothing");
			else if (n.blocked != NULL)
				note = psprintf("%s: nothing is generated", n.blocked);
			else if (!n.ours)
				note = pstrdup("no lease yet: the next ID claims one from the coordinator");
			else if (value < 0)
				note = psprintf("lease id %d does not fit (0..%u): %s refuses to generate",
								id, r->fits, r->type);
			else if (!n.live)
				note = pstrdup("the lease has expired: the next ID renews it or claims another");
			else
				note = psprintf("leased from pool \"%s\" of the coordinator; every pool hands out the same ids: servers whose IDs meet lease from one pool",
								uid_pool);
		}
		else if (uid_unleased_field(r->source_bit, &group) == UID_ID_SHARED)
		{
			nulls[4] = nulls[5] = nulls[6] = true;
			source = "default";
			safe = false;
			note = pstrdup(uid_unleased_shared_note(r->source_bit));
		}
		else if ((group = uid_ident_citus(r->setting)) < UID_GROUP_NONE)
		{
			nulls[4] = nulls[5] = nulls[6] = true;
			source = "citus";
			safe = false;
			note = pstrdup(uid_unleased_refusal(group));
		}
		else if (group >= 0)
		{
			nulls[4] = nulls[5] = nulls[6] = true;
			source = "citus";
			value = uid_ident_group_value(r, group);
			safe = value >= 0;
			note = value < 0 ?
				psprintf("Citus node group %d does not fit (0..%u): %s refuses to generate; lease identities from a pool instead",
						 group, r->fits, r->type) :
				psprintf("Citus node group %d: every node of the cluster has its own", group);
		}
		else
		{
			const char *name = uid_settings[r->setting].name;
			bool		set = uid_rec_value(uid_rec_field_of(r->setting)) >= 0;
			bool		drawn;
			int64		v = uid_identity_setting(r->setting, &drawn);

			nulls[4] = nulls[5] = nulls[6] = true;
			if (drawn)
			{
				source = "drawn";
				value = v;
				note = psprintf("drawn at server start: two servers collide with probability %s",
								r->collide);
			}
			else
			{
				source = set ? "setting" : "default";
				value = (uint64) v <= r->max ? v : -1;
				note = value < 0 ? psprintf("%s = " INT64_FORMAT " does not fit (0.." UINT64_FORMAT "): %s refuses to generate",
											name, v, r->max, r->type) :
					set ? psprintf("%s: keeps servers apart if each has its own", name) :
					psprintf("%s is not set: every server that leaves it has " INT64_FORMAT, name, v);
			}
			safe = strcmp(source, "setting") == 0 && value >= 0;
		}
		values[0] = CStringGetTextDatum(r->type);
		values[1] = CStringGetTextDatum(r->field);
		values[2] = Int64GetDatum(value);
		nulls[2] = value < 0;
		values[3] = CStringGetTextDatum(source);
		values[7] = BoolGetDatum(safe);
		values[8] = CStringGetTextDatum(note);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
