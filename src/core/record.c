/*
 * core/record.c
 *		The server's settings record: reading it, the rule for what a
 *		process does before it generates, and publication (see record.h).
 */
#include "core/record.h"

/* The head of a body: its words before the values. */
enum
{
	REC_LIFE,
	REC_REQUESTED,
	REC_RELOAD_TIME,
	REC_PUBLISHED_US,
	REC_SOURCE,
	REC_GEN,
};

UID_STATIC_ASSERT(REC_GEN + 1 == UID_REC_HEAD_WORDS, "the head's words");

uint64
uid_record_read(UidRecordShared *s, UidRecord *out)
{
	for (;;)
	{
		uint64		cur = uid_word_read(&s->current);
		UidRecordBody *b;
		uint64		seq;
		uint64		w[UID_REC_WORDS];

		if (cur == 0)
		{
			*out = (UidRecord) {0};
			return 0;
		}
		b = &s->body[cur & 1];
		seq = uid_word_read(&b->seq);
		uid_read_barrier();
		/*
		 * The body in force is rewritten only after another became the one
		 * in force: read the word in force again.
		 */
		if (seq != (cur >> 1) * 2)
			continue;
		for (int i = 0; i < UID_REC_WORDS; i++)
			w[i] = uid_word_read(&b->word[i]);
		uid_read_barrier();
		if (uid_word_read(&b->seq) != seq)
			continue;
		out->gen = cur >> 1;
		out->life = w[REC_LIFE];
		out->requested = (int64) w[REC_REQUESTED];
		out->reload_time = (int64) w[REC_RELOAD_TIME];
		out->published_us = (int64) w[REC_PUBLISHED_US];
		out->source = w[REC_SOURCE] & UINT64CONST(0xFFFFFFFF);
		out->kept = (w[REC_SOURCE] >> 32) != 0;
		for (int i = 0; i < UID_REC_NFIELDS; i++)
			out->values[i] = (int64) w[UID_REC_HEAD_WORDS + i];
		return cur;
	}
}

UidRecordPlan
uid_record_plan(const UidRecord *in_force, const UidRecordNeed *need)
{
	bool		this_life = in_force->gen != 0 && in_force->life == need->life;

	/* a single-user server has no reloads: its values are the server's for its life */
	if (need->own == UID_SOURCE_SINGLE_USER)
		return this_life ? UID_PLAN_USE : UID_PLAN_PUBLISH_OWN;
	/* every other process's own values are never the record: only a worker's are */
	if (!this_life)
		return UID_PLAN_REFRESH;
	if (in_force->requested > uid_record_need_after(need))
		return UID_PLAN_USE;
	/*
	 * Published from the postmaster reload this process was forked under:
	 * its reload time, on the postmaster's wall clock.  Two reloads have the
	 * same time only if that clock stood still between them; a record
	 * published while it stood still (no later than its reload) does not
	 * tell its reload from a later one, and is not taken for it.
	 */
	if (need->reload_time >= 0 && need->signalled == 0 && !need->pending &&
		(in_force->source == UID_SOURCE_POSTMASTER || in_force->source == UID_SOURCE_INHERITED) &&
		in_force->reload_time == need->reload_time &&
		in_force->published_us > in_force->reload_time)
		return UID_PLAN_USE;
	return UID_PLAN_REFRESH;
}

bool
uid_record_usable(const UidRecord *in_force, uint64 life)
{
	return in_force->gen != 0 && in_force->life == life;
}

bool
uid_record_same_identity(const UidRecord *a, const UidRecord *b)
{
	for (int i = 0; i < UID_REC_NFIELDS; i++)
		if (a->values[i] != b->values[i])
			return false;
	return true;
}

UidRecordPlan
uid_record_fallback(const UidRecord *in_force, const UidRecordNeed *need, const UidRecord *own)
{
	if (uid_record_usable(in_force, need->life))
	{
		if (uid_record_plan(in_force, need) == UID_PLAN_USE)
			return UID_PLAN_USE;
		/*
		 * A reload it has not answered: its identity holds only if this
		 * process read that reload's files and found the record's identity
		 * in them (a file edited back to it since the postmaster read them
		 * names an identity the server takes back at its next reload).  Not
		 * a session that set uid settings of its own, nor a parallel
		 * worker: its values are its leader's, who may not have taken it.
		 */
		if (!need->pending && !need->overridden && !need->parallel && own != NULL &&
			uid_record_same_identity(in_force, own))
			return UID_PLAN_USE;
		return UID_PLAN_REFUSE;
	}
	if (need->own == UID_SOURCE_SESSION && need->reload_time >= 0 && !need->pending &&
		!need->overridden && !need->parallel)
		return UID_PLAN_PUBLISH_OWN;
	return UID_PLAN_REFUSE;
}

UidPublishResult
uid_record_accepts(const UidRecord *in_force, const UidRecord *proposal, int64 signalled)
{
	if (proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&
		proposal->source != UID_SOURCE_INHERITED)
		return UID_PUB_NOT_SERVER;
	if (in_force->gen != 0 && in_force->life == proposal->life &&
		(in_force->requested >= proposal->requested ||
		 proposal->source == UID_SOURCE_INHERITED))
		return UID_PUB_OLDER;
	/*
	 * A reload signal came after the request: the worker may have been
	 * forked before that reload and lost its own signal (one that comes
	 * before its signal handling is set up is).  The requester, which took
	 * the signal, asks again.  Never by the postmaster's reload times: a
	 * wall clock stepped back between two reloads makes the later look
	 * older.
	 */
	if (proposal->source == UID_SOURCE_POSTMASTER && signalled >= proposal->requested)
		return UID_PUB_STALE;
	return UID_PUB_TAKEN;
}

void
uid_record_keep_refused(const UidRecord *in_force, UidRecord *proposal)
{
	uint64		refused = (uint64) proposal->values[UID_REC_REFUSED];
	uint64		fields = refused & ((UINT64CONST(1) << UID_REC_NFIELDS) - 1);
	uint64		kept_bits;

	if (refused & UID_REC_REFUSED_BACKFILL)
		fields |= UINT64CONST(1) << UID_REC_SNO_RANGES;
	if (fields == 0 || in_force->gen == 0 || in_force->life != proposal->life)
		return;
	/* the ranges are one field: both refusals go with it */
	kept_bits = fields;
	if (fields & (UINT64CONST(1) << UID_REC_SNO_RANGES))
		kept_bits |= UID_REC_REFUSED_BACKFILL;
	for (int i = 0; i < UID_REC_REFUSED; i++)
		if (fields & (UINT64CONST(1) << i))
			proposal->values[i] = in_force->values[i];
	proposal->values[UID_REC_REFUSED] = (int64) ((refused & ~kept_bits) |
												 ((uint64) in_force->values[UID_REC_REFUSED] & kept_bits));
	proposal->kept = true;
}

/*
 * Takes the writer word for self: free, already self's, or held by a
 * process that no longer exists (of an earlier server life, or whose
 * process id names no process).  A living holder keeps it, however long
 * it has been stalled.
 */
static bool
uid_record_claim(UidRecordShared *s, uint64 self)
{
	for (;;)
	{
		uint64		w = uid_word_read(&s->writer);

		if (w == self)
			return true;
		if (w != 0 && (w >> 32) == (self >> 32) && uid_plat_alive((uint32) w))
			return false;
		if (uid_word_cas(&s->writer, &w, self))
			return true;
	}
}

/* The word of the latest reload signal noted, 0 if none or of an earlier boot. */
static int64
uid_record_signalled(UidWord *signalled)
{
	int64		v = signalled == NULL ? 0 : (int64) uid_word_read(signalled);

	return v > uid_plat_mono_us() ? 0 : v;
}

UidPublishResult
uid_record_publish(UidRecordShared *s, UidRecord *proposal, uint64 self, UidWord *signalled)
{
	UidRecord	in_force;
	UidPublishResult verdict;
	uint64		cur;
	uint64		next;
	UidRecordBody *b;
	uint64		w[UID_REC_WORDS];

	if (proposal->source != UID_SOURCE_POSTMASTER && proposal->source != UID_SOURCE_SINGLE_USER &&
		proposal->source != UID_SOURCE_INHERITED)
		return UID_PUB_NOT_SERVER;
	if (!uid_record_claim(s, self))
		return UID_PUB_BUSY;
	cur = uid_record_read(s, &in_force);
	verdict = uid_record_accepts(&in_force, proposal, uid_record_signalled(signalled));
	uid_record_keep_refused(&in_force, proposal);
	if (verdict == UID_PUB_TAKEN)
	{
		/* the body not in force; a reader that still reads it sees seq move */
		proposal->gen = (cur >> 1) + 1;
		next = proposal->gen << 1 | (cur == 0 ? 0 : (cur & 1) ^ 1);
		b = &s->body[next & 1];
		w[REC_LIFE] = proposal->life;
		w[REC_REQUESTED] = (uint64) proposal->requested;
		w[REC_RELOAD_TIME] = (uint64) proposal->reload_time;
		w[REC_PUBLISHED_US] = (uint64) proposal->published_us;
		w[REC_SOURCE] = proposal->source | (proposal->kept ? UINT64CONST(1) << 32 : 0);
		w[REC_GEN] = proposal->gen;
		for (int i = 0; i < UID_REC_NFIELDS; i++)
			w[UID_REC_HEAD_WORDS + i] = (uint64) proposal->values[i];
		uid_word_write(&b->seq, proposal->gen * 2 - 1);
		uid_write_barrier();
		for (int i = 0; i < UID_REC_WORDS; i++)
			uid_word_write(&b->word[i], w[i]);
		uid_write_barrier();
		uid_word_write(&b->seq, proposal->gen * 2);
		/*
		 * The compare-and-swap that publishes: no other process wrote the
		 * word in force while this one held the writer word (one that took
		 * it over found this one gone).  Not if the postmaster reloaded
		 * since this worker's fork: the record read (cur) may be a later
		 * worker's, of that reload; its signal is pending here by now, or
		 * (lost) another process noted one after the request.
		 */
		if ((proposal->source == UID_SOURCE_POSTMASTER ||
			 proposal->source == UID_SOURCE_INHERITED) &&
			(uid_plat_reload_signalled() ||
			 (proposal->source == UID_SOURCE_POSTMASTER &&
			  uid_record_signalled(signalled) >= proposal->requested)))
			verdict = UID_PUB_STALE;
		else if (!uid_word_cas(&s->current, &cur, next))
			verdict = UID_PUB_OLDER;
	}
	{
		uint64		mine = self;

		(void) uid_word_cas(&s->writer, &mine, 0);
	}
	return verdict;
}
