/*
 * sno.h
 *		The sno type: 10 bytes by reference, char alignment.
 */
#ifndef UID_SNO_H
#define UID_SNO_H

#include "fmgr.h"

#include "codec/sno_codec.h"
#include "guc.h"
#include "published.h"
#include "sno_policy.h"
#include "sno_ranges.h"
#include "state.h"

typedef struct sno_t
{
	uint8		data[SNO_LEN];
} sno_t;

#define DatumGetSnoP(X)		((sno_t *) DatumGetPointer(X))
#define SnoPGetDatum(X)		PointerGetDatum(X)
#define PG_GETARG_SNO_P(n)	DatumGetSnoP(PG_GETARG_DATUM(n))
#define PG_RETURN_SNO_P(x)	return SnoPGetDatum(x)

/* sno's clock, for sno_new() and, named so in errors, sno_new_at() */
extern UID_HIDDEN const UidClockSpec sno_clock;
extern UID_HIDDEN const UidClockSpec sno_backfill_clock;

/*
 * The live sequences sno_new() has issued, as the state file records them
 * (core/backfill.h, UID_USED_*); an older file's record is taken over first.
 */
extern UID_HIDDEN uint64 sno_used_read(void);

static inline sno_t *
sno_make(const sno_fields *f)
{
	sno_t	   *id = palloc(sizeof(sno_t));

	sno_pack(f, id->data);
	return id;
}

#endif							/* UID_SNO_H */
