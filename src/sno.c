/*
 * sno.c
 *		PostgreSQL glue for the sno type.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "clock.h"
#include "glue.h"
#include "guc.h"
#include "sno.h"

#define SNO_EXPECTED "16 characters of 2-9 and a-x"

static uint64 sno_now(const UidClockSpec *spec);

static const UidClockSpec sno_clock = {
	.type_name = "sno",
	.func = "sno_new()",
	.slot = UID_SLOT_SNO,
	.ticktock = true,
	.epoch_us = SNO_EPOCH_UNIX_MS * 1000,
	.tick_us = SNO_UNIT_MS * 1000,
	.tick_max = SNO_UNITS_MAX,
	.seq_max = SNO_SEQ_MAX,
	.now = sno_now,
};

static uint64
sno_now(const UidClockSpec *spec)
{
	return uid_clock_tick(&sno_clock);
}

static inline sno_t *
sno_make(const sno_fields *f)
{
	sno_t	   *id = palloc(sizeof(sno_t));

	sno_pack(f, id->data);
	return id;
}

static inline sno_fields
sno_fields_of(const sno_t *id)
{
	sno_fields	f;

	sno_unpack(id->data, &f);
	return f;
}

UID_BYTES_TYPE_FUNCS(sno, SNO_LEN, SNO_TEXT_LEN, SNO_EXPECTED)

/*
 * Abbreviated key: the 40 bits of time and tick, then 24 bits that place
 * (metabyte, partition, sequence) relative to the first value's (metabyte,
 * partition): 0 below it, 1 + sequence equal to it, all ones above it.
 * That order never contradicts the full one, and it keeps IDs of one server
 * and metabyte distinct even when thousands share a 4 ms unit, where the
 * plain 8-byte prefix (time, metabyte, partition) would not.
 */
static uint64
sno_abbrev(const uint8 *p, UidSortState *st)
{
	uint64		first8 = uid_abbrev_prefix8(p, st);
	uint64		mid = first8 & 0xFFFFFF;
	uint64		low;

	if (unlikely(!st->have_ref))
	{
		st->ref = mid;
		st->have_ref = true;
	}
	if (likely(mid == st->ref))
		low = 1 + ((uint64) p[8] << 8 | p[9]);
	else
		low = mid < st->ref ? 0 : 0xFFFFFF;
	return (first8 & ~UINT64CONST(0xFFFFFF)) | low;
}

PG_FUNCTION_INFO_V1(sno_sortsupport);
Datum
sno_sortsupport(PG_FUNCTION_ARGS)
{
	uid_bytes_sortsupport((SortSupport) PG_GETARG_POINTER(0), SNO_LEN, sno_abbrev);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(sno_timestamp);
Datum
sno_timestamp(PG_FUNCTION_ARGS)
{
	sno_fields	f = sno_fields_of(PG_GETARG_SNO_P(0));

	PG_RETURN_TIMESTAMPTZ(uid_tick_to_time(&sno_clock, f.units));
}

#define SNO_FIELD_FUNC(name, field) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_INT32((int32) sno_fields_of(PG_GETARG_SNO_P(0)).field); \
}

SNO_FIELD_FUNC(sno_meta, meta)
SNO_FIELD_FUNC(sno_partition, partition)
SNO_FIELD_FUNC(sno_sequence, sequence)
SNO_FIELD_FUNC(sno_tick, tick)

PG_FUNCTION_INFO_V1(sno_from_parts);
Datum
sno_from_parts(PG_FUNCTION_ARGS)
{
	sno_fields	f;

	f.meta = (unsigned) uid_check_field("sno", "metabyte", PG_GETARG_INT32(1), 0, 255);
	f.partition = (unsigned) uid_check_field("sno", "partition", PG_GETARG_INT32(2), 0, 65535);
	f.sequence = (unsigned) uid_check_field("sno", "sequence", PG_GETARG_INT32(3), 0, SNO_SEQ_MAX);
	f.tick = (unsigned) uid_check_field("sno", "tick", PG_GETARG_INT32(4), 0, 1);
	f.units = uid_time_to_tick(&sno_clock, PG_GETARG_TIMESTAMPTZ(0), false);
	PG_RETURN_SNO_P(sno_make(&f));
}

PG_FUNCTION_INFO_V1(sno_boundary);
Datum
sno_boundary(PG_FUNCTION_ARGS)
{
	sno_fields	f = {0};

	f.units = uid_time_to_tick(&sno_clock, PG_GETARG_TIMESTAMPTZ(0), true);
	PG_RETURN_SNO_P(sno_make(&f));
}

PG_FUNCTION_INFO_V1(sno_new);
Datum
sno_new(PG_FUNCTION_ARGS)
{
	int32		meta = PG_GETARG_INT32(0);
	UidTickSeq	ts;
	sno_fields	f;

	uid_check_field("sno", "metabyte", meta, 0, 255);
	ts = uid_next_tick(&sno_clock);
	f.units = ts.tick;
	f.tick = (unsigned) ts.timeline;
	f.meta = (unsigned) meta;
	f.partition = ts.ident >= 0 ? uid_ident_value(ts.ident, "sno", "partition", 0xFFFF) :
		(unsigned) uid_effective_partition();
	f.sequence = ts.seq;
	uid_count_issued(UID_SLOT_SNO);
	PG_RETURN_SNO_P(sno_make(&f));
}
