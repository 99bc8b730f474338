/*
 * published.h
 *		The server's settings record in the server: what every generator
 *		embeds (published.c; the rule is core/record.c's).
 */
#ifndef UID_PUBLISHED_H
#define UID_PUBLISHED_H

#include "utils/timestamp.h"

#include "compat.h"
#include "ident_inval.h"
#include "reload.h"
#include "state.h"

/*
 * This process's copy of the record in force, and the word of the state
 * file it was copied at.  Read through uid_rec_sync() only.
 */
extern UID_HIDDEN UidRecord uid_rec;
extern UID_HIDDEN uint64 uid_rec_word;
extern UID_HIDDEN TimestampTz uid_rec_reload_seen;
extern UID_HIDDEN uint32 uid_rec_signals_seen;

extern uint64 uid_rec_sync_slow(void);

/*
 * Before a generator uses the record: this process's copy is the record in
 * force, and answers every reload signal this process received, taken or
 * not (or it has started a settings worker and waited for it).  Returns the
 * word to hand to uid_rec_still() once the ID is made.  Three loads and
 * three comparisons when nothing changed.
 */
static inline uint64
uid_rec_sync(void)
{
	if (likely(uid_state != NULL && PgReloadTime == uid_rec_reload_seen &&
			   uid_reload_signals == uid_rec_signals_seen &&
			   uid_record_current(&uid_state->rec) == uid_rec_word))
		return uid_rec_word;
	return uid_rec_sync_slow();
}

/*
 * Is the record an ID was made under still the one in force?  An ID is
 * handed out only if it is: once a new record is in force (and shown by
 * uid_config() or sno_range()), no ID of the old one is.
 */
static inline bool
uid_rec_still(uint64 word)
{
	return likely(uid_record_current(&uid_state->rec) == word);
}

/* A value of the record (after uid_rec_sync()). */
static inline int64
uid_rec_value(UidRecordField f)
{
	return uid_rec.values[f];
}

/*
 * Which of the record's fields the server refused (1 << UidRecordField,
 * and UID_REC_REFUSED_BACKFILL).
 */
static inline uint64
uid_rec_refused(void)
{
	return (uint64) uid_rec.values[UID_REC_REFUSED];
}

/* The record's field of a setting (guc.h's UidSettingBit) it carries. */
extern UidRecordField uid_rec_field_of(int bit);

/*
 * Errors if the server refused its value of a setting the record carries
 * (bit of guc.h's UidSettingBit): the generators that embed it refuse rather
 * than use the built-in default.
 */
UID_NORETURN extern void uid_rec_refused_error(int bit) UID_NORETURN_AFTER;

static inline void
uid_rec_check(int bit)
{
	if (unlikely(uid_rec_refused() != 0) &&
		(uid_rec_refused() & (UINT64CONST(1) << uid_rec_field_of(bit))))
		uid_rec_refused_error(bit);
}

/*
 * A value a generator embeds, worked out once per record rather than per
 * ID (the checks and the lookups): the record changes only when a new one
 * is published, and uid_rec_word with it; the Citus node group and
 * whether the database has a subscription only when an invalidation of
 * their catalogs reaches this process, and uid_ident_invals with it.
 * work_out errors as the per-ID checks would, and then nothing is kept.
 * After uid_rec_sync().
 */
typedef struct UidPerRecord
{
	uint64		word;			/* the record word it was worked out for */
	uint64		invals;			/* and uid_ident_invals (ident_inval.h) */
	int64		value;
} UidPerRecord;

#define UID_PER_RECORD_INIT {UINT64_MAX, 0, 0}

extern int64 uid_per_record_slow(UidPerRecord *c, int64 (*work_out) (void));

static inline int64
uid_per_record(UidPerRecord *c, int64 (*work_out) (void))
{
	if (likely(c->word == uid_rec_word && c->invals == uid_ident_invals))
		return c->value;
	return uid_per_record_slow(c, work_out);
}

/*
 * Does the server lease its identity (uid.coordinator set, or refused)?
 * The record's answer; on a server with no record of its life yet (a
 * standby), this session's own setting, for reports only.
 */
extern bool uid_rec_leased(void);

/* The settings worker's entry point (loaded by the postmaster's child). */
extern PGDLLEXPORT void uid_settings_worker(Datum arg);

#endif							/* UID_PUBLISHED_H */
