/*
 * snowflake_si.c
 *		The SQL functions of the snowflake_si type.
 *
 * The generator's state holds Unix milliseconds, not milliseconds after
 * uid.snowflake_si_epoch, so that the high-water mark keeps its meaning
 * whatever the setting says.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/sortsupport.h"

#include "generate.h"
#include "identity.h"
#include "type_support.h"
#include "guc.h"
#include "source.h"
#include "snowflake_si.h"

#define SNOWFLAKE_SI_EXPECTED "a decimal integer from 0 to 9007199254740991"


static uint64 snowflake_si_now(const UidClockSpec *spec);

/* Unix milliseconds: the generator's clock and its state's ticks. */
static const UidClockSpec unix_ms_clock = {
	.type_name = "snowflake_si",
	.func = "snowflake_si_new()",
	.slot = UID_SLOT_SNOWFLAKE_SI,
	UID_CLOCK_FIELDS(SNOWFLAKE_SI_CLOCK),
	.now = snowflake_si_now,
};

StaticAssertDecl(SNOWFLAKE_SI_UNIX_MS_MAX == UID_TICK_MAX,
				 "snowflake_si's clock runs as far as the generator's state holds");

static uint64
snowflake_si_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&unix_ms_clock);
}

/*
 * The format's clock for a base clock: ms after epoch_ms, 40 bits.  A base
 * clock the rule takes (uid_snowflake_si_epoch_of) keeps every tick's
 * Unix microseconds in an int64.
 */
static UidClockSpec
snowflake_si_clock(int64 epoch_ms)
{
	UidClockSpec spec = unix_ms_clock;

	Assert(epoch_ms >= SNOWFLAKE_SI_EPOCH_MIN_MS && epoch_ms <= SNOWFLAKE_SI_EPOCH_MAX_MS);
	spec.epoch_us = epoch_ms * 1000;
	spec.tick_max = SNOWFLAKE_SI_MAB_MAX;
	return spec;
}

static void
snowflake_si_check_epoch(TimestampTz epoch, int64 *epoch_ms)
{
	if (!uid_snowflake_si_epoch_of(epoch, epoch_ms))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid snowflake_si base clock: \"%s\"", timestamptz_to_str(epoch)),
				 errdetail(UID_EPOCH_RULE)));
}

static void
snowflake_si_check_bits(int32 k)
{
	uid_check_field("snowflake_si", "index_bits", k, SNOWFLAKE_SI_K_MIN, SNOWFLAKE_SI_K_MAX);
}

/* A value from outside (binary input, bigint), or an error with sqlstate. */
static uint64
snowflake_si_checked(uint64 v, int sqlstate, UidValueFrom from)
{
	return uid_check_range("snowflake_si", (int64) v, SNOWFLAKE_SI_MAX, sqlstate, from);
}

/* Binary: the value as a big-endian 64-bit integer, like bigint's. */
UID_INT64_TYPE_IO(snowflake_si, SNOWFLAKE_SI_TEXT_MAX, SNOWFLAKE_SI_EXPECTED,
				  UID_KEY_IS_VALUE, UID_KEY_IS_VALUE, snowflake_si_checked)

/* Values are non-negative int64s, so signed order is their order. */
UID_INT64_COMPARISONS(snowflake_si, int64, ssup_datum_signed_cmp)

PG_FUNCTION_INFO_V1(snowflake_si_to_bigint);
Datum
snowflake_si_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) PG_GETARG_SNOWFLAKE_SI(0));
}

PG_FUNCTION_INFO_V1(bigint_to_snowflake_si);
Datum
bigint_to_snowflake_si(PG_FUNCTION_ARGS)
{
	PG_RETURN_SNOWFLAKE_SI(snowflake_si_checked((uint64) PG_GETARG_INT64(0),
												ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, UID_FROM_BIGINT));
}

static TimestampTz
snowflake_si_time(uint64 id, int64 epoch_ms)
{
	UidClockSpec spec = snowflake_si_clock(epoch_ms);

	return uid_tick_to_time(&spec, id >> SNOWFLAKE_SI_LOW_BITS);
}

/* With one argument it reads uid.snowflake_si_epoch; the second names the base clock. */
PG_FUNCTION_INFO_V1(snowflake_si_timestamp);
Datum
snowflake_si_timestamp(PG_FUNCTION_ARGS)
{
	int64		epoch_ms = uid_snowflake_si_epoch_ms;

	if (PG_NARGS() > 1)
		snowflake_si_check_epoch(PG_GETARG_TIMESTAMPTZ(1), &epoch_ms);
	PG_RETURN_TIMESTAMPTZ(snowflake_si_time(PG_GETARG_SNOWFLAKE_SI(0), epoch_ms));
}

/*
 * The fields of argument 0 for the index width in argument 1 or, in the
 * one-argument forms, uid.snowflake_si_index_bits.
 */
static snowflake_si_fields
snowflake_si_fields_arg(FunctionCallInfo fcinfo)
{
	int32		k = PG_NARGS() > 1 ? PG_GETARG_INT32(1) : uid_snowflake_si_index_bits;
	snowflake_si_fields f;

	snowflake_si_check_bits(k);
	snowflake_si_unpack(PG_GETARG_SNOWFLAKE_SI(0), k, &f);
	return f;
}

PG_FUNCTION_INFO_V1(snowflake_si_machine);
Datum
snowflake_si_machine(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) snowflake_si_fields_arg(fcinfo).mid);
}

PG_FUNCTION_INFO_V1(snowflake_si_index);
Datum
snowflake_si_index(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) snowflake_si_fields_arg(fcinfo).uin);
}

/*
 * With three arguments it reads the settings; the five-argument form names
 * the base clock and the index width.
 */
PG_FUNCTION_INFO_V1(snowflake_si_from_parts);
Datum
snowflake_si_from_parts(PG_FUNCTION_ARGS)
{
	int32		k = uid_snowflake_si_index_bits;
	int64		epoch_ms = uid_snowflake_si_epoch_ms;
	UidClockSpec spec;
	snowflake_si_fields f;

	if (PG_NARGS() > 3)
	{
		snowflake_si_check_epoch(PG_GETARG_TIMESTAMPTZ(3), &epoch_ms);
		k = PG_GETARG_INT32(4);
		snowflake_si_check_bits(k);
	}
	spec = snowflake_si_clock(epoch_ms);

	f.mid = (unsigned) uid_check_field("snowflake_si", "machine", PG_GETARG_INT32(1), 0,
									   snowflake_si_mid_max(k));
	f.uin = (unsigned) uid_check_field("snowflake_si", "index", PG_GETARG_INT32(2), 0,
									   snowflake_si_uin_max(k));
	f.mab = uid_time_to_tick(&spec, PG_GETARG_TIMESTAMPTZ(0), false);
	PG_RETURN_SNOWFLAKE_SI(snowflake_si_pack(&f, k));
}

PG_FUNCTION_INFO_V1(snowflake_si_boundary);
Datum
snowflake_si_boundary(PG_FUNCTION_ARGS)
{
	UidClockSpec spec = snowflake_si_clock(uid_snowflake_si_epoch_ms);

	PG_RETURN_SNOWFLAKE_SI(uid_time_to_tick(&spec, PG_GETARG_TIMESTAMPTZ(0), true)
						   << SNOWFLAKE_SI_LOW_BITS);
}

/* The record's layout settings, checked once per record (uid_per_record). */
static int64
snowflake_si_layout_work_out(void)
{
	uid_rec_check(UID_SET_INDEX_BITS);
	uid_rec_check(UID_SET_EPOCH);
	return 0;
}

/* The hand-set machine id, in the bits the index leaves. */
static int64
snowflake_si_mid_work_out(void)
{
	uid_rec_check(UID_SET_INDEX_BITS);
	return uid_unleased_generator("snowflake_si",
								  (int) snowflake_si_mid_max((int) uid_rec_value(UID_REC_INDEX_BITS)));
}

PG_FUNCTION_INFO_V1(snowflake_si_new);
Datum
snowflake_si_new(PG_FUNCTION_ARGS)
{
	static UidPerRecord layout = UID_PER_RECORD_INIT;
	static UidPerRecord mid = UID_PER_RECORD_INIT;
	UidTickSeq	ts;
	snowflake_si_fields f;
	int			k;
	int64		epoch_ms;

	for (;;)
	{
		uint64		rec = uid_rec_sync();
		UidClockSpec spec = unix_ms_clock;

		(void) uid_per_record(&layout, snowflake_si_layout_work_out);
		k = (int) uid_rec_value(UID_REC_INDEX_BITS);
		epoch_ms = uid_rec_value(UID_REC_EPOCH_MS);
		/*
		 * (in a database with Citus: the layout was noted for its cluster;
		 * another index width would let this node's machine ids overlap
		 * another's, another base clock only dates and orders its IDs
		 * differently on the other nodes)
		 */
		if (unlikely(uid_word_read(&uid_state->rec.agreed) != 0) &&
			uid_word_read(&uid_state->rec.agreed) != uid_record_layout(epoch_ms, k) &&
			uid_citus_group() != UID_GROUP_NONE)
			uid_citus_disagrees(epoch_ms, k, rec);

		/* the state's ticks are Unix ms; the last one the format can hold: */
		spec.tick_max = (uint64) epoch_ms + SNOWFLAKE_SI_MAB_MAX;
		spec.seq_max = snowflake_si_uin_max(k);
		ts = uid_next_tick(&spec);
		/* the base clock is never in the future, but the clock can go back before it */
		if (ts.tick < (uint64) epoch_ms)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("the system clock is before \"uid.snowflake_si_epoch\" (%s)",
							timestamptz_to_str((epoch_ms - PG_EPOCH_UNIX_MS) * 1000))));
		/* the machine id has the 13 - k bits that the index leaves */
		f.mid = ts.ident >= 0 ?
			uid_ident_value(ts.ident, "snowflake_si", (uint32) snowflake_si_mid_max(k)) :
			(unsigned) uid_per_record(&mid, snowflake_si_mid_work_out);
		if (uid_rec_still(rec))
			break;
	}
	f.mab = ts.tick - (uint64) epoch_ms;
	f.uin = ts.seq;
	uid_count_issued(UID_SLOT_SNOWFLAKE_SI);
	PG_RETURN_SNOWFLAKE_SI(snowflake_si_pack(&f, k));
}
