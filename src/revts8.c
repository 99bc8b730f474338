/*
 * revts8.c
 *		The SQL functions of the revts8 type.
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
#include "revts8.h"

#define REVTS8_EXPECTED "16 hexadecimal digits with bits 15 to 10 clear"

static uint64 revts8_now(const UidClockSpec *spec);

/* Unix milliseconds, 42 bits (until 2109-05-15), 64 IDs each. */
static const UidClockSpec revts8_clock = {
	.type_name = "revts8",
	.func = "revts8_new()",
	.slot = UID_SLOT_REVTS8,
	UID_CLOCK_FIELDS(REVTS8_CLOCK),
	.now = revts8_now,
};

static uint64
revts8_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&revts8_clock);
}

static inline uint64
revts8_key_of(const revts8_fields *f)
{
	return f->ts << REVTS8_LOW_BITS | (uint64) f->seq << 16 |
		(uint64) f->generator << 4 | f->cluster;
}

/*
 * Time order is the key's unsigned order: every default operator and sort
 * uses it, and core's specialized sorts apply.
 */
UID_INT64_COMPARISONS(revts8, uint64, ssup_datum_unsigned_cmp)

/* The byte-order comparator of revts8_bytes_ops. */
static inline int
revts8_bytes_cmp_internal(uint64 a, uint64 b)
{
	return revts8_cmp_internal(revts8_canonical(a), revts8_canonical(b));
}

static uint64
revts8_checked_canonical(uint64 canonical, int sqlstate, UidValueFrom from)
{
	if (canonical & REVTS8_RESERVED_MASK)
		ereport(ERROR,
				(errcode(sqlstate),
				 from == UID_FROM_BINARY ?
				 errmsg("invalid binary value for type revts8: reserved bits are set") :
				 from == UID_FROM_BYTEA ?
				 errmsg("invalid bytea value for type revts8: reserved bits are set") :
				 errmsg("invalid bigint value for type revts8: reserved bits are set"),
				 errdetail("Bits 15 to 10 of a revts8 must be zero; the value is %016llx.",
						   (unsigned long long) canonical)));
	return revts8_key(canonical);
}

/* Text and binary: the canonical value; the datum: its key. */
UID_INT64_TYPE_IO(revts8, REVTS8_TEXT_LEN, REVTS8_EXPECTED,
				  revts8_key, revts8_canonical, revts8_checked_canonical)

UID_INT64_CMP_FUNC(revts8_bytes_lt, revts8_bytes, uint64, <)
UID_INT64_CMP_FUNC(revts8_bytes_le, revts8_bytes, uint64, <=)
UID_INT64_CMP_FUNC(revts8_bytes_gt, revts8_bytes, uint64, >)
UID_INT64_CMP_FUNC(revts8_bytes_ge, revts8_bytes, uint64, >=)

PG_FUNCTION_INFO_V1(revts8_bytes_cmp);
Datum
revts8_bytes_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(revts8_bytes_cmp_internal(PG_GETARG_REVTS8_KEY(0), PG_GETARG_REVTS8_KEY(1)));
}

static int
revts8_bytes_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	return revts8_bytes_cmp_internal(DatumGetRevts8Key(x), DatumGetRevts8Key(y));
}

/* Abbreviation turns a key into its canonical value once per row. */
static Datum
revts8_bytes_abbrev_convert(Datum original, SortSupport ssup)
{
	return UInt64GetDatum(revts8_canonical(DatumGetRevts8Key(original)));
}

static bool
revts8_bytes_abbrev_abort(int memtupcount, SortSupport ssup)
{
	return false;
}

PG_FUNCTION_INFO_V1(revts8_bytes_sortsupport);
Datum
revts8_bytes_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = revts8_bytes_fastcmp;
	if (ssup->abbreviate)
	{
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = revts8_bytes_abbrev_convert;
		ssup->abbrev_abort = revts8_bytes_abbrev_abort;
		ssup->abbrev_full_comparator = revts8_bytes_fastcmp;
	}
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(revts8_to_bytea);
Datum
revts8_to_bytea(PG_FUNCTION_ARGS)
{
	uint8		b[8];

	uid_store_be(b, 8, revts8_canonical(PG_GETARG_REVTS8_KEY(0)));
	PG_RETURN_BYTEA_P(uid_bytes_to_bytea(b, 8));
}

PG_FUNCTION_INFO_V1(bytea_to_revts8);
Datum
bytea_to_revts8(PG_FUNCTION_ARGS)
{
	uint8	   *b = uid_bytea_to_bytes(PG_GETARG_BYTEA_PP(0), 8, "revts8");

	PG_RETURN_REVTS8_KEY(revts8_checked_canonical(uid_load_be(b, 8),
												  ERRCODE_INVALID_BINARY_REPRESENTATION,
												  UID_FROM_BYTEA));
}

PG_FUNCTION_INFO_V1(revts8_to_bigint);
Datum
revts8_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) revts8_canonical(PG_GETARG_REVTS8_KEY(0)));
}

PG_FUNCTION_INFO_V1(bigint_to_revts8);
Datum
bigint_to_revts8(PG_FUNCTION_ARGS)
{
	PG_RETURN_REVTS8_KEY(revts8_checked_canonical((uint64) PG_GETARG_INT64(0),
												  ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
												  UID_FROM_BIGINT));
}

PG_FUNCTION_INFO_V1(revts8_timestamp);
Datum
revts8_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(uid_tick_to_time(&revts8_clock,
										   PG_GETARG_REVTS8_KEY(0) >> REVTS8_LOW_BITS));
}

#define REVTS8_FIELD_FUNC(name, shift, mask) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_INT32((int32) ((PG_GETARG_REVTS8_KEY(0) >> (shift)) & (mask))); \
}

REVTS8_FIELD_FUNC(revts8_sequence, 16, REVTS8_SEQ_MAX)
REVTS8_FIELD_FUNC(revts8_generator, 4, REVTS8_GENERATOR_MAX)
REVTS8_FIELD_FUNC(revts8_cluster, 0, REVTS8_CLUSTER_MAX)

PG_FUNCTION_INFO_V1(revts8_from_parts);
Datum
revts8_from_parts(PG_FUNCTION_ARGS)
{
	revts8_fields f;

	f.seq = (unsigned) uid_check_field("revts8", "sequence", PG_GETARG_INT32(1), 0, REVTS8_SEQ_MAX);
	f.generator = (unsigned) uid_check_field("revts8", "generator", PG_GETARG_INT32(2), 0, REVTS8_GENERATOR_MAX);
	f.cluster = (unsigned) uid_check_field("revts8", "cluster", PG_GETARG_INT32(3), 0, REVTS8_CLUSTER_MAX);
	f.ts = uid_time_to_tick(&revts8_clock, PG_GETARG_TIMESTAMPTZ(0), false);
	PG_RETURN_REVTS8_KEY(revts8_key_of(&f));
}

PG_FUNCTION_INFO_V1(revts8_boundary);
Datum
revts8_boundary(PG_FUNCTION_ARGS)
{
	PG_RETURN_REVTS8_KEY(uid_time_to_tick(&revts8_clock, PG_GETARG_TIMESTAMPTZ(0), true)
						 << REVTS8_LOW_BITS);
}

/* The generator id and cluster not leased: generator | cluster << 8. */
static int64
revts8_hand_work_out(void)
{
	return uid_unleased_revts8();
}

PG_FUNCTION_INFO_V1(revts8_new);
Datum
revts8_new(PG_FUNCTION_ARGS)
{
	static UidPerRecord hand = UID_PER_RECORD_INIT;
	UidTickSeq	ts;
	revts8_fields f;
	uint64		rec;

	do
	{
		rec = uid_rec_sync();
		ts = uid_next_tick(&revts8_clock);
		f.ts = ts.tick;
		f.seq = ts.seq;
		if (ts.ident >= 0)
		{
			/* a lease id is 64 generators by 16 clusters */
			uint32		id = uid_ident_value(ts.ident, "revts8",
											 (REVTS8_CLUSTER_MAX + 1) * (REVTS8_GENERATOR_MAX + 1) - 1);

			f.generator = id % (REVTS8_GENERATOR_MAX + 1);
			f.cluster = id / (REVTS8_GENERATOR_MAX + 1);
		}
		else
		{
			int64		gc = uid_per_record(&hand, revts8_hand_work_out);

			f.generator = (unsigned) (gc & 0xFF);
			f.cluster = (unsigned) (gc >> 8);
		}
	} while (unlikely(!uid_rec_still(rec)));
	uid_count_issued(UID_SLOT_REVTS8);
	PG_RETURN_REVTS8_KEY(revts8_key_of(&f));
}
