/*
 * core/record.h
 *		The server's settings record: the one set of values that every ID
 *		of the server embeds, and the rule that decides which values may
 *		become it.
 *
 * PostgreSQL does not apply a reload to every process at once: the
 * postmaster reads the configuration files and signals its children, and
 * each child reads the files again itself, when it gets to it.  A child's
 * values can therefore hold edits that no reload delivered (an ALTER SYSTEM
 * prepared for a later reload), and a session's own values can come from a
 * startup option or a role's or database's setting.  None of them may
 * choose what an ID carries.
 *
 * So the values an ID embeds (every type's identity settings and sno's
 * ranges) live in one record of the state file, and every generator, in
 * every process, uses only that record.  A process's own settings never
 * become it.  The one process whose values are, by definition, what the
 * last reload delivered is the postmaster, and a process it forks that
 * re-reads nothing inherits them: the record is published by such a
 * process (a uid settings worker, started on demand and gone once it has
 * published), or by a single-user server, whose values are the server's.
 *
 * Freshness.  A reload reaches the postmaster before it signals any child,
 * so a process forked after a child took a reload's signal holds that
 * reload or a later one.  A record answers a request made at a monotonic
 * time (requested): its values are the postmaster's at some moment after
 * it.  A process needs a record that answers a request made after the last
 * reload signal it received, taken or not (or, having received none, after
 * it loaded uid, or of the same postmaster reload it was forked under:
 * reload_time).  A process whose record is older starts a worker and waits
 * for it; if none can publish, see uid_record_fallback.
 *
 * Publication is a compare-and-swap on the word that names the record in
 * force, after the new record is written into the body not in force.  One
 * writer at a time: the writer word holds the publisher's process id, and
 * is taken over only from a process that no longer exists, never from one
 * that lives (a stalled publisher holds up other publishers, never a
 * reader, and cannot write over a newer record when it resumes: its
 * compare-and-swap fails).  Readers never wait: each body has a sequence
 * word, odd while written, and a reader retries when it changed.
 *
 * A worker's values are stale once the postmaster has reloaded since its
 * fork, and the postmaster signals every child it has (the worker too)
 * before it forks another: so a worker whose record in force was published
 * by one forked after a reload has that reload's signal pending
 * (uid_plat_reload_signalled) when it looks, and does not publish its older
 * values over it, whatever the order of their requests.  A signal that came
 * before the worker set its handling up is lost; the other processes of the
 * server took theirs, and note in a word of the server life (signalled, on
 * the monotonic clock) when: a worker whose request came no later than a
 * signal noted there is not published either.  Which record is newer is
 * decided on the monotonic clock alone: the postmaster's wall clock, which a
 * step moves back, only tells one reload from another (uid_record_plan).
 *
 * A reload signal counts from the moment it comes, taken or not: a process
 * that has not taken it yet (a long statement, a procedure committing in a
 * loop) needs a record requested after it all the same, and the postmaster
 * read the reload's files before it sent it.  When no worker can publish
 * one (no slot free, a worker that does not publish in time), the record in
 * force is used only by a process that took every reload signal it had and
 * whose own values give the record's identity (uid_record_same_identity):
 * the reload changed none of it.  Every other call refuses: the record may
 * carry an identity the reload gave up.

 * Plain C over core/platform.h: the server (published.c) and the simulator
 * (test/sim) run this file.
 */
#ifndef UID_CORE_RECORD_H
#define UID_CORE_RECORD_H

#include "core/platform.h"

/* The values of a record, by what they are (the server's settings). */
typedef enum UidRecordField
{
	UID_REC_GENERATOR,			/* uid.generator */
	UID_REC_CLUSTER,			/* uid.cluster */
	UID_REC_PARTITION,			/* uid.partition, -1: drawn at the server's start */
	UID_REC_MEDALLION,			/* uid.medallion, -1: drawn at the server's start */
	UID_REC_EPOCH_MS,			/* uid.snowflake_si_epoch, Unix ms */
	UID_REC_INDEX_BITS,			/* uid.snowflake_si_index_bits */
	UID_REC_SNO_RANGES,			/* sno's live and back-fill ranges, one word (sno_policy.c) */
	UID_REC_LEASED,				/* uid.coordinator is set (or refused): 1 */
	UID_REC_LEASE_KEY,			/* a hash of the coordinator, pool and pool size */
	UID_REC_REFUSED,			/* the fields whose server value the checks refused:
								 * 1 << field, and UID_REC_REFUSED_BACKFILL */
	UID_REC_NFIELDS
} UidRecordField;

/*
 * In UID_REC_REFUSED: an end of the back-fill range was refused (the ranges
 * word holds back-fill off); 1 << UID_REC_SNO_RANGES: an end of the live
 * range was.
 */
#define UID_REC_REFUSED_BACKFILL (UINT64CONST(1) << 32)

/* Where a record's values came from. */
typedef enum UidRecordSource
{
	UID_SOURCE_NONE = 0,
	UID_SOURCE_POSTMASTER = 1,	/* inherited from the postmaster, re-read nothing */
	UID_SOURCE_SINGLE_USER = 2, /* a single-user server: the server's own */
	UID_SOURCE_SESSION = 3,		/* a session's own values: never published */
	UID_SOURCE_INHERITED = 4,	/* a session's values inherited at its fork from the
								 * postmaster and never changed since: only where no
								 * record of the server life exists */
} UidRecordSource;

/* A record, as a reader copies it or a publisher proposes it. */
typedef struct UidRecord
{
	uint64		gen;			/* its publication, from 1; 0: none */
	uint64		life;			/* the server life (postmaster) it is for, never 0 */
	int64		requested;		/* monotonic us of the request it answers */
	int64		reload_time;	/* the publisher's last reload (PgReloadTime) */
	int64		published_us;	/* when it was published (Unix us) */
	uint64		source;			/* UidRecordSource */
	int64		values[UID_REC_NFIELDS];
	bool		kept;			/* it keeps values of the record before, for values
								 * the server refused (uid_record_keep_refused);
								 * kept in the source word's high half */
} UidRecord;

#define UID_REC_HEAD_WORDS 6
#define UID_REC_WORDS (UID_REC_HEAD_WORDS + UID_REC_NFIELDS)

/* One of the two bodies: seq is 2 * gen when whole, odd while written. */
typedef struct UidRecordBody
{
	UidWord		seq;
	UidWord		word[UID_REC_WORDS];
} UidRecordBody;

/*
 * The record's words in the state file; all zero: none published.
 * current is gen << 1 | the body that holds it.
 */
typedef struct UidRecordShared
{
	UidWord		current;
	UidWord		writer;			/* the process publishing, 0 if none */
	UidWord		requested;		/* the latest request for a worker (monotonic us) */
	UidWord		agreed;			/* the layout every node of a Citus cluster was found
								 * to share (uid_record_layout), 0: none noted */
	UidRecordBody body[2];
} UidRecordShared;

/*
 * snowflake_si's layout (the base clock in Unix ms, the index width) as one
 * word, never 0.  A function that decodes a snowflake_si on one node of a
 * Citus cluster reads its own node's settings: where a check of the cluster
 * noted the layout its nodes share (agreed), a node whose record holds
 * another makes no snowflake_si (snowflake_si.c).
 */
static inline uint64
uid_record_layout(int64 epoch_ms, int64 index_bits)
{
	return UINT64CONST(1) << 63 | (uint64) epoch_ms << 5 | (uint64) (index_bits & 31);
}

/* The word that changes with every publication: a reader's copy is current while it equals this. */
static inline uint64
uid_record_current(UidRecordShared *s)
{
	return uid_word_read(&s->current);
}

/*
 * Copies the record in force into *out (out->gen 0 if none was ever
 * published) and returns the word in force it was copied at.  Never waits:
 * a body rewritten while it was read is read again from the word in force.
 */
extern uint64 uid_record_read(UidRecordShared *s, UidRecord *out);

/* What a process needs of the record before it generates. */
typedef struct UidRecordNeed
{
	uint64		life;			/* this server life */
	int64		after;			/* answers a request made after this (monotonic us):
								 * the last reload it took, or its load of uid */
	int64		signalled;		/* the last reload signal it received, taken or
								 * not (monotonic us), 0: none since its load */
	int64		reload_time;	/* PgReloadTime inherited from the postmaster, -1 if it took one */
	UidRecordSource own;		/* what the process's own values are */
	bool		overridden;		/* it set a uid setting of its own (a startup option,
								 * a role's or database's setting) */
	bool		parallel;		/* a parallel worker (its leader's values) */
	bool		pending;		/* a reload signal came that it has not taken: its
								 * own values may be older than the server's */
} UidRecordNeed;

typedef enum UidRecordPlan
{
	UID_PLAN_USE,				/* the record in force answers the need */
	UID_PLAN_REFRESH,			/* start a settings worker and wait for it */
	UID_PLAN_PUBLISH_OWN,		/* this process's values are the server's: publish them */
	UID_PLAN_REFUSE,			/* no record to use, none to publish */
} UidRecordPlan;

extern UidRecordPlan uid_record_plan(const UidRecord *in_force, const UidRecordNeed *need);

/*
 * The request a record must answer (come after): the later of the last
 * reload taken and the last reload signal received.
 */
static inline int64
uid_record_need_after(const UidRecordNeed *need)
{
	return need->signalled > need->after ? need->signalled : need->after;
}


/*
 * After a refresh that did not happen (no worker could start, or none
 * published in time): may the record in force be used?  Only if it is of
 * this server life; a record of an earlier one is refused (a restart may
 * have changed the settings).
 */
extern bool uid_record_usable(const UidRecord *in_force, uint64 life);

/*
 * Do two records give IDs the same identity?  Every value but the head's:
 * each type's identity settings, sno's ranges, the lease and the refusals.
 */
extern bool uid_record_same_identity(const UidRecord *a, const UidRecord *b);

/*
 * After a refresh that did not happen (no worker could start, or none
 * published in time):
 *   - with a record of this server life in force: USE it if it answers the
 *     need after all (another process published meanwhile); else only if
 *     this process took every reload signal it had (!pending), set no uid
 *     setting of its own (!overridden), is no parallel worker (its values
 *     are its leader's, who may not have taken the reload), and own, its own values as a
 *     proposal (uid_record_keep_refused applied), gives the record's
 *     identity; else REFUSE: the record may hold what a reload gave up.
 *     own NULL: its own values are not known, REFUSE.
 *   - with none: PUBLISH_OWN (as UID_SOURCE_INHERITED, requested 0) if this
 *     process's values are the postmaster's as it was forked: it took no
 *     reload (reload_time) and has none pending, set no uid setting of its
 *     own, and is no parallel worker; publication refuses it if a reload
 *     signal is pending, and it never replaces a record of this server
 *     life.  Else REFUSE.
 */
extern UidRecordPlan uid_record_fallback(const UidRecord *in_force, const UidRecordNeed *need,
										 const UidRecord *own);

typedef enum UidPublishResult
{
	UID_PUB_TAKEN,				/* published: in force now */
	UID_PUB_NOT_SERVER,			/* its values are a session's: never taken */
	UID_PUB_OLDER,				/* the record in force answers a later request */
	UID_PUB_BUSY,				/* another living process is publishing */
	UID_PUB_STALE,				/* the postmaster reloaded since the publisher's fork,
								 * or since its request */
} UidPublishResult;

/*
 * A proposal in which the server refused a value (the checks found it
 * invalid: the process holds the built-in default in its place) keeps, for
 * each such field, the value of the record in force (and its refusal), if
 * that is of this server life, as the postmaster keeps a setting's value
 * when a reload gives it an invalid one; proposal->kept says so.  Only with
 * no record of this life is a refusal published: then the generators that
 * embed the field refuse, never using the default.
 */
extern void uid_record_keep_refused(const UidRecord *in_force, UidRecord *proposal);

/*
 * Is the proposal one that may replace the record in force?  signalled: the
 * latest reload signal a process of the server took note of (monotonic us,
 * 0: none), no later than now.
 */
extern UidPublishResult uid_record_accepts(const UidRecord *in_force, const UidRecord *proposal,
										   int64 signalled);

/*
 * Publishes a proposal (its gen is set) from the process self: the high
 * 32 bits of the server life and the process id (uid_record_self).
 * signalled (NULL: none) is the word of the server life where processes
 * note the latest reload signal they took (monotonic us); a value ahead of
 * the monotonic clock is of an earlier boot and ignored.  Returns
 * UID_PUB_TAKEN if it is now the record in force.
 */
static inline uint64
uid_record_self(uint64 life, uint32 pid)
{
	return (life >> 32) << 32 | pid;
}

extern UidPublishResult uid_record_publish(UidRecordShared *s, UidRecord *proposal, uint64 self,
										   UidWord *signalled);

#endif							/* UID_CORE_RECORD_H */
