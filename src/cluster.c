/*
 * cluster.c
 *		What the nodes of a Citus cluster must share: snowflake_si's layout.
 *
 * A function that decodes a snowflake_si (its one-argument accessors, its
 * boundary) reads the base clock and index width of the node it runs on,
 * and Citus runs it on whichever node holds the shard; each node's are its
 * own settings, which Citus does not propagate (ALTER SYSTEM is per node).
 * uid_citus_check() (citus.sql) lists every node's values on the
 * coordinator and fails where they differ; where they agree it notes the
 * layout on every node (uid_citus_agree, a word of the state file), and a
 * node whose record then holds another makes no snowflake_si.  The other
 * types' layouts are fixed.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "citus.h"
#include "guc.h"
#include "published.h"
#include "sql_api.h"

static char *
uid_epoch_text(int64 epoch_ms)
{
	return pstrdup(timestamptz_to_str((epoch_ms - PG_EPOCH_UNIX_MS) * 1000));
}

void
uid_citus_disagrees(int64 epoch_ms, int index_bits, uint64 rec)
{
	static bool warned = false;
	static uint64 warned_rec;
	uint64		agreed = uid_word_read(&uid_state->rec.agreed);
	int64		agreed_ms = (int64) ((agreed & ~(UINT64CONST(1) << 63)) >> 5);
	int			agreed_bits = (int) (agreed & 31);

	if (index_bits != agreed_bits)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this node's snowflake_si layout is not its Citus cluster's"),
				 errdetail("This node has \"uid.snowflake_si_epoch\" %s and \"uid.snowflake_si_index_bits\" %d; uid_citus_check() found the cluster's nodes to share %s and %d.  With another index width, this node's machine ids could be another node's.",
						   uid_epoch_text(epoch_ms), index_bits,
						   uid_epoch_text(agreed_ms), agreed_bits),
				 errhint("Give every node the same values and reload, then run SELECT uid_citus_check() on the coordinator; on a node that left the cluster, a superuser notes its own with SELECT uid_citus_agree(epoch, index_bits).")));

	/* the base clock alone: no ID can repeat another node's */
	if (warned && warned_rec == rec)
		return;
	warned = true;
	warned_rec = rec;
	ereport(WARNING,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this node's snowflake_si base clock is not its Citus cluster's"),
			 errdetail("This node has \"uid.snowflake_si_epoch\" %s; uid_citus_check() found the cluster's nodes to share %s.  Its snowflake_si are unique, but the other nodes date them, and order them among their own, with their base clock.",
					   uid_epoch_text(epoch_ms), uid_epoch_text(agreed_ms)),
			 errhint("Give every node the same value and reload, then run SELECT uid_citus_check() on the coordinator.")));
}

/*
 * uid_citus_node(): what uid_citus_check() compares across the nodes of a
 * Citus cluster, as this node has it: the library's version, the node
 * group, snowflake_si's layout in the record in force, and the layout last
 * noted as the cluster's.
 */
PG_FUNCTION_INFO_V1(uid_citus_node);
Datum
uid_citus_node(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {0};
	int32		group = uid_citus_group();
	uint64		agreed;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	(void) uid_rec_sync();
	agreed = uid_word_read(&uid_state->rec.agreed);
	values[0] = CStringGetTextDatum(UID_VERSION);
	values[1] = Int32GetDatum(group);
	nulls[1] = group < 0;
	values[2] = TimestampTzGetDatum((uid_rec_value(UID_REC_EPOCH_MS) - PG_EPOCH_UNIX_MS) * 1000);
	values[3] = Int32GetDatum((int32) uid_rec_value(UID_REC_INDEX_BITS));
	values[4] = TimestampTzGetDatum((int64) ((agreed & ~(UINT64CONST(1) << 63)) >> 5) * 1000 -
									PG_EPOCH_UNIX_US);
	values[5] = Int32GetDatum((int32) (agreed & 31));
	nulls[4] = nulls[5] = agreed == 0;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * uid_citus_agree(epoch, index_bits): notes the snowflake_si layout that
 * the nodes of this node's Citus cluster share (uid_citus_check() calls it
 * on every node); from then on this node makes no snowflake_si under
 * another.  Superuser only (REVOKEd from PUBLIC too): it can stop a node's
 * generators.  Its twin uid_citus_agree(uid_internal_call, epoch,
 * index_bits), which uid_citus_check() calls, is this function too: the
 * layout is in the last two arguments either way.
 */
PG_FUNCTION_INFO_V1(uid_citus_agree);
Datum
uid_citus_agree(PG_FUNCTION_ARGS)
{
	int			first = PG_NARGS() - 2;
	TimestampTz epoch = PG_GETARG_TIMESTAMPTZ(first);
	int32		index_bits = PG_GETARG_INT32(first + 1);
	int64		epoch_ms;
	bool		epoch_ok;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to note a Citus cluster's snowflake_si layout"),
				 errdetail("Only superusers may call uid_citus_agree(): it can stop this node's snowflake_si_new().")));
	/* the setting's rule: the noted base clock is read back in microseconds */
	epoch_ok = uid_snowflake_si_epoch_of(epoch, &epoch_ms);
	if (index_bits < 1 || index_bits > 13 || !epoch_ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a snowflake_si layout is a finite base clock in whole milliseconds and an index width of 1 to 13"),
				 epoch_ok ? 0 : errdetail(UID_EPOCH_RULE)));
	if (uid_state == NULL)
		uid_state_attach();
	uid_word_write(&uid_state->rec.agreed, uid_record_layout(epoch_ms, index_bits));
	PG_RETURN_VOID();
}
