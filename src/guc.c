/*
 * guc.c
 *		The uid.* settings and uid_config().
 *
 * All are superuser-only.  uid.snowflake_si_epoch and
 * uid.snowflake_si_index_bits are server-wide (postgresql.conf or ALTER
 * SYSTEM): they define the ID space that the server's one generator state
 * allocates from, and IDs made under different values can coincide.
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "codec/bits.h"
#include "codec/snowflake_si_codec.h"
#include "glue.h"
#include "guc.h"

#define MEDALLION_SENTINEL ((INT64CONST(1) << 44) - 1)

int			uid_generator = 0;
int			uid_cluster = 0;
int			uid_partition = -1;
int			uid_snowflake_si_index_bits = 8;
int64		uid_medallion_value = -1;
int64		uid_snowflake_si_epoch_ms = INT64CONST(1704067200000);

static char *medallion_string = NULL;
static char *epoch_string = NULL;

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
				GUC_check_errdetail("uid.medallion must be empty or at most 11 hexadecimal digits.");
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
	*extra = malloc(sizeof(int64));
	if (*extra == NULL)
		return false;
	*(int64 *) *extra = v;
	return true;
}

static void
assign_medallion(const char *newval, void *extra)
{
	uid_medallion_value = *(int64 *) extra;
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

	if (*newval == NULL ||
		ParseDateTime(*newval, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0)
	{
		GUC_check_errdetail("uid.snowflake_si_epoch must be a timestamp with time zone.");
		return false;
	}
	for (int i = 0; i < nf; i++)
	{
		if (is_moving_word(field[i]))
		{
			GUC_check_errdetail("uid.snowflake_si_epoch must be a fixed point in time.");
			return false;
		}
	}
	if (session_timezone == NULL ||
		DecodeDateTime(field, ftype, nf, &dtype, &tt, &fsec, &tz) != 0 ||
		dtype != DTK_DATE || tm2timestamp(&tt, fsec, &tz, &ts) != 0)
	{
		GUC_check_errdetail("uid.snowflake_si_epoch must be a timestamp with time zone.");
		return false;
	}
	if (ts % 1000 != 0)
	{
		GUC_check_errdetail("uid.snowflake_si_epoch must be a whole number of milliseconds.");
		return false;
	}
	ms = ts / 1000 + PG_EPOCH_UNIX_MS;
	if (ms < SNOWFLAKE_SI_EPOCH_MIN_MS)
	{
		GUC_check_errdetail("uid.snowflake_si_epoch must not be earlier than 2003-03-18 07:20:19.225+00.");
		return false;
	}

	/*
	 * A base clock in the future is not refused here: this hook also checks
	 * the boot value when a backend loads the library, so with the clock set
	 * back before the base clock a refusal would kill the backend, or leave
	 * it on another base clock than the rest of the server.
	 * snowflake_si_new() refuses to generate while the clock is before it.
	 */
	*extra = malloc(sizeof(int64));
	if (*extra == NULL)
		return false;
	*(int64 *) *extra = ms;
	return true;
}

static void
assign_epoch(const char *newval, void *extra)
{
	uid_snowflake_si_epoch_ms = *(int64 *) extra;
}

void
uid_guc_init(void)
{
	DefineCustomIntVariable("uid.generator",
							"Generator (node) id of this server: revts8 generator (0..63), snowflake_si machine id, uid60 worker.",
							"Servers that generate IDs of the same type must use different values.",
							&uid_generator, 0, 0, 511,
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.cluster",
							"Cluster id of this server for revts8.",
							NULL,
							&uid_cluster, 0, 0, 15,
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.partition",
							"Partition of this server for sno; -1 draws one when the server starts.",
							"Servers that generate sno IDs must use different partitions.",
							&uid_partition, -1, -1, 65535,
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("uid.medallion",
							   "Medallion of this server for muid, up to 11 hexadecimal digits; empty draws one when the server starts.",
							   NULL,
							   &medallion_string, "",
							   PGC_SUSET, 0,
							   check_medallion, assign_medallion, NULL);
	DefineCustomStringVariable("uid.snowflake_si_epoch",
							   "Base clock of snowflake_si IDs; set it once, before any ID exists.",
							   NULL,
							   &epoch_string, "2024-01-01 00:00:00+00",
							   PGC_SIGHUP, 0,
							   check_epoch, assign_epoch, NULL);
	DefineCustomIntVariable("uid.snowflake_si_index_bits",
							"Width in bits of the snowflake_si per-millisecond index (UIN).",
							"The machine id gets the other 13 - k bits.",
							&uid_snowflake_si_index_bits, 8, 1, 13,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("uid");
}

int
uid_effective_partition(void)
{
	static int	drawn = -1;

	if (uid_partition >= 0)
		return uid_partition;
	if (drawn < 0)
		drawn = (int) (uid_boot_value(UID_SLOT_SNO) & 0xFFFF);
	return drawn;
}

int64
uid_effective_medallion(void)
{
	static int64 drawn = -1;
	const int64 lo = (INT64CONST(1) << 40) + 1;
	const int64 span = (INT64CONST(1) << 41) - lo;

	if (uid_medallion_value >= 0)
		return uid_medallion_value;
	if (drawn < 0)
		drawn = lo + (int64) (uid_boot_value(UID_SLOT_MUID) % (uint64) span);
	return drawn;
}

PG_FUNCTION_INFO_V1(uid_config);
Datum
uid_config(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char		buf[32];
	struct
	{
		const char *name;
		char	   *effective;
	}			rows[6];
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);

	rows[n].name = "uid.generator";
	rows[n++].effective = psprintf("%d", uid_generator);
	rows[n].name = "uid.cluster";
	rows[n++].effective = psprintf("%d", uid_cluster);
	rows[n].name = "uid.partition";
	rows[n++].effective = psprintf("%d", uid_effective_partition());
	snprintf(buf, sizeof(buf), "%011llX", (unsigned long long) uid_effective_medallion());
	rows[n].name = "uid.medallion";
	rows[n++].effective = pstrdup(buf);
	rows[n].name = "uid.snowflake_si_epoch";
	rows[n++].effective = pstrdup(timestamptz_to_str((uid_snowflake_si_epoch_ms - PG_EPOCH_UNIX_MS) * 1000));
	rows[n].name = "uid.snowflake_si_index_bits";
	rows[n++].effective = psprintf("%d", uid_snowflake_si_index_bits);

	for (int i = 0; i < n; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {0};

		values[0] = CStringGetTextDatum(rows[i].name);
		values[1] = CStringGetTextDatum(GetConfigOption(rows[i].name, false, false));
		values[2] = CStringGetTextDatum(rows[i].effective);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
