/*
 * type_support.c
 *		What every ID type's SQL functions share (type_support.h).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "common/int.h"
#include "libpq/pqformat.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"

#include "compat.h"
#include "core/alloc.h"
#include "type_support.h"


void
uid_text_error(Node *escontext, const char *typname, const char *input,
			   uid_status status, size_t bad_pos, const char *expected)
{
	char		detail[128];

	if (status == UID_OUT_OF_RANGE)
	{
		UID_SOFT_ERROR(escontext,
					   (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("value \"%s\" is out of range for type %s", input, typname),
						errhint("Expected %s.", expected)));
		return;
	}

	switch (status)
	{
		case UID_BAD_CHAR:
			snprintf(detail, sizeof(detail),
					 "Character %zu is not allowed here.", bad_pos + 1);
			break;
		case UID_BAD_LENGTH:
			snprintf(detail, sizeof(detail), "The input is %zu characters long.",
					 strlen(input));
			break;
		case UID_BAD_SHAPE:
			snprintf(detail, sizeof(detail),
					 "Character %zu is out of place: a group has the wrong number of digits.",
					 bad_pos + 1);
			break;
		case UID_BAD_RESERVED:
			snprintf(detail, sizeof(detail), "Reserved bits are set.");
			break;
		default:
			snprintf(detail, sizeof(detail), "The input is malformed.");
			break;
	}
	UID_SOFT_ERROR(escontext,
				   (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("invalid input syntax for type %s: \"%s\"", typname, input),
					errdetail("%s", detail),
					errhint("Expected %s.", expected)));
}

int64
uid_check_field(const char *typname, const char *arg, int64 value,
				int64 min, int64 max)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value " INT64_FORMAT " is out of range for argument \"%s\"",
						value, arg),
				 errdetail("Type %s takes \"%s\" from " INT64_FORMAT " to " INT64_FORMAT ".",
						   typname, arg, min, max)));
	return value;
}

uint64
uid_check_range(const char *typname, int64 value, uint64 max, int sqlstate,
				UidValueFrom from)
{
	if (value < 0 || (uint64) value > max)
		ereport(ERROR,
				(errcode(sqlstate),
				 from == UID_FROM_BINARY ?
				 errmsg("binary value " INT64_FORMAT " is out of range for type %s", value, typname) :
				 errmsg("value " INT64_FORMAT " is out of range for type %s", value, typname),
				 errdetail("A %s is between 0 and " UINT64_FORMAT ".", typname, max)));
	return (uint64) value;
}

uint64
uid_time_to_tick(const UidClockSpec *spec, TimestampTz t, bool round_up)
{
	int64		us;
	int64		tick;

	if (TIMESTAMP_NOT_FINITE(t))
	{
		if (round_up && TIMESTAMP_IS_NOBEGIN(t))
			return 0;
		goto out_of_range;
	}
	/* near the end of timestamptz's range the sum overflows int64 */
	if (pg_add_s64_overflow(t, PG_EPOCH_UNIX_US - spec->epoch_us, &us))
		goto out_of_range;
	if (us < 0)
	{
		if (round_up)
			return 0;
		goto out_of_range;
	}
	tick = us / spec->tick_us;
	if (round_up && us % spec->tick_us != 0)
		tick++;
	if ((uint64) tick > spec->tick_max)
		goto out_of_range;
	return (uint64) tick;

out_of_range:
	/* copies: timestamptz_to_str() returns the same static buffer each time */
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for type %s: \"%s\"",
					spec->type_name, timestamptz_to_str(t)),
			 errdetail("The range is %s to %s.",
					   pstrdup(timestamptz_to_str(uid_tick_to_time(spec, 0))),
					   pstrdup(timestamptz_to_str(uid_tick_to_time(spec, spec->tick_max))))));
	pg_unreachable();
}

TimestampTz
uid_tick_to_time(const UidClockSpec *spec, uint64 tick)
{
	return (TimestampTz) (spec->epoch_us + (int64) tick * spec->tick_us -
						  PG_EPOCH_UNIX_US);
}

/*
 * Sortsupport for fixed-length byte strings, modelled on uuid.c: a 64-bit
 * abbreviated key compared as an unsigned integer, abandoned when its
 * cardinality turns out low.
 */
uint64
uid_abbrev_prefix8(const uint8 *p, UidSortState *st)
{
	uint64		key;

	memcpy(&key, p, sizeof(key));
	return pg_ntoh64(key);
}

static int
uid_bytes_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	UidSortState *st = (UidSortState *) ssup->ssup_extra;

	return memcmp(DatumGetPointer(x), DatumGetPointer(y), st->len);
}

static Datum
uid_bytes_abbrev_convert(Datum original, SortSupport ssup)
{
	UidSortState *st = (UidSortState *) ssup->ssup_extra;
	uint64		key = st->abbrev((const uint8 *) DatumGetPointer(original), st);

	st->input_count++;
	if (st->estimating)
		addHyperLogLog(&st->abbr_card,
					   DatumGetUInt32(hash_uint32((uint32) (key ^ (key >> 32)))));
	return UInt64GetDatum(key);
}

static bool
uid_bytes_abbrev_abort(int memtupcount, SortSupport ssup)
{
	UidSortState *st = (UidSortState *) ssup->ssup_extra;
	double		abbr_card;

	if (memtupcount < 10000 || st->input_count < 10000 || !st->estimating)
		return false;
	abbr_card = estimateHyperLogLog(&st->abbr_card);

	/* plenty of distinct keys: stop paying for the estimate */
	if (abbr_card > 100000.0)
	{
		st->estimating = false;
		return false;
	}
	/* fewer than one distinct key per 2000 rows: comparing keys is waste */
	if (abbr_card < st->input_count / 2000.0 + 0.5)
		return true;
	return false;
}

void
uid_bytes_sortsupport(SortSupport ssup, int len, UidAbbrevFn abbrev)
{
	MemoryContext oldcontext = MemoryContextSwitchTo(ssup->ssup_cxt);
	UidSortState *st = palloc(sizeof(UidSortState));

	st->len = len;
	st->abbrev = abbrev;
	st->have_ref = false;
	st->ref = 0;
	st->ref2 = 0;
	st->input_count = 0;
	st->estimating = true;
	initHyperLogLog(&st->abbr_card, 10);
	ssup->ssup_extra = st;
	ssup->comparator = uid_bytes_fastcmp;
	if (ssup->abbreviate)
	{
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = uid_bytes_abbrev_convert;
		ssup->abbrev_abort = uid_bytes_abbrev_abort;
		ssup->abbrev_full_comparator = uid_bytes_fastcmp;
	}
	MemoryContextSwitchTo(oldcontext);
}

Datum
uid_bytes_hash(const void *p, int len)
{
	return hash_any((const unsigned char *) p, len);
}

Datum
uid_bytes_hash_extended(const void *p, int len, uint64 seed)
{
	return hash_any_extended((const unsigned char *) p, len, seed);
}

static void
uid_recv_check_length(StringInfo buf, int len, const char *typname)
{
	int			have = buf->len - buf->cursor;

	if (have != len)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary length for type %s: %d bytes", typname, have),
				 errdetail("A %s is %d bytes.", typname, len)));
}

void *
uid_bytes_recv(StringInfo buf, int len, const char *typname)
{
	void	   *p;

	uid_recv_check_length(buf, len, typname);
	p = palloc(len);
	memcpy(p, pq_getmsgbytes(buf, len), len);
	return p;
}

uint64
uid_recv_uint64(StringInfo buf, const char *typname)
{
	uid_recv_check_length(buf, 8, typname);
	return (uint64) pq_getmsgint64(buf);
}

bytea *
uid_send_uint64(uint64 v)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) v);
	return pq_endtypsend(&buf);
}

bytea *
uid_bytes_send(const void *p, int len)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, p, len);
	return pq_endtypsend(&buf);
}

bytea *
uid_bytes_to_bytea(const void *p, int len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), p, len);
	return b;
}

void *
uid_bytea_to_bytes(const bytea *b, int len, const char *typname)
{
	void	   *p;

	if (VARSIZE_ANY_EXHDR(b) != (size_t) len)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid length for type %s: %zu bytes", typname,
						(size_t) VARSIZE_ANY_EXHDR(b)),
				 errdetail("A %s is %d bytes.", typname, len)));
	p = palloc(len);
	memcpy(p, VARDATA_ANY(b), len);
	return p;
}
