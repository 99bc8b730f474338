/*
 * type_ops.c
 *		What the core lends each type's file (type_ops.h): adding a field
 *		to a reading's fields, and a time in ISO 8601.
 *
 * The types' files (src/inspect/<name>_inspect.c) call these to fill their
 * fields, and detect.c to fill those every type has; inspect_test calls
 * uid_inspect_iso8601() directly.  They are here, below both, so that a
 * type's file needs nothing of detect.c, which reads the types' files
 * through types.c's table.
 */
#include <inttypes.h>
#include <stdio.h>

#include "type_ops.h"

uid_inspect_field *
uid_inspect_field_str(uid_inspect_field *f, int *n, const char *key)
{
	uid_inspect_field *x = &f[(*n)++];

	x->key = key;
	x->is_int = 0;
	x->json_only = 0;
	x->num = 0;
	x->str[0] = '\0';
	return x;
}

void
uid_inspect_field_int(uid_inspect_field *f, int *n, const char *key, int64_t v)
{
	uid_inspect_field *x = uid_inspect_field_str(f, n, key);

	x->is_int = 1;
	x->num = v;
}

/*
 * The proleptic Gregorian date of a day since 1970-01-01 (Hinnant's method;
 * options.c's days_from_civil() is the way back).
 */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

void
uid_inspect_iso8601(int64_t unix_us, int decimals, char out[40])
{
	int64_t		days = unix_us / UID_INSPECT_US_PER_DAY;
	int64_t		rem = unix_us % UID_INSPECT_US_PER_DAY;
	int64_t		y;
	int			m;
	int			d;
	int64_t		secs;
	int			n;

	if (rem < 0)
	{
		rem += UID_INSPECT_US_PER_DAY;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	secs = rem / UID_INSPECT_US_PER_S;
	n = snprintf(out, 40, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02d", y, m, d,
				 (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
	if (decimals == 3)
		n += snprintf(out + n, 40 - (size_t) n, ".%03d", (int) (rem % UID_INSPECT_US_PER_S / 1000));
	else if (decimals == 6)
		n += snprintf(out + n, 40 - (size_t) n, ".%06d", (int) (rem % UID_INSPECT_US_PER_S));
	snprintf(out + n, 40 - (size_t) n, "Z");
}
