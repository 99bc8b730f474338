/*
 * record_publish_test.c
 *		Tables of the settings record's publication (src/core/record.c):
 *		which proposal may be published over the record in force, the
 *		publication itself (the writer word, the reload signal noted, the
 *		bodies and the word in force, watched at every step) and its races,
 *		and a reader's torn reads.
 *
 * Built into core_test with record_test.c (whose test_record() runs these
 * tables, test_record_publish(), after its own), over core_fake.c's
 * platform; the rows' words are record_test.h's.  Each row names what it
 * checks; a failure prints the name.  The record's words are read and
 * written through core/record.h only (a writer played by a row writes the
 * bodies' public words, never the layout of a body's head, which is
 * record.c's).
 */
#include "record_test.h"

#define TAKEN	UID_PUB_TAKEN
#define NOTSRV	UID_PUB_NOT_SERVER
#define OLDER	UID_PUB_OLDER
#define BUSY	UID_PUB_BUSY
#define STALE	UID_PUB_STALE

static bool
same_record(const UidRecord *a, const UidRecord *b)
{
	if (a->gen != b->gen || a->life != b->life || a->requested != b->requested ||
		a->reload_time != b->reload_time || a->published_us != b->published_us ||
		a->source != b->source || a->kept != b->kept)
		return false;
	for (int i = 0; i < UID_REC_NFIELDS; i++)
		if (a->values[i] != b->values[i])
			return false;
	return true;
}

/* ---------------------------------------------------------------- accepts */

static void
test_accepts(void)
{
	static const struct
	{
		const char *name;
		uint64		gen;			/* the record in force, 0: none */
		uint64		life;
		int64		requested;
		UidRecordSource source;		/* the proposal's, of LIFE */
		int64		prop_requested;
		int64		signalled;
		UidPublishResult want;
	}			rows[] = {
		{"a session's values: never", 1, LIFE, 1000, SE, 2000, 0, NOTSRV},
		{"a session's values, no record: never", 0, 0, 0, SE, 2000, 0, NOTSRV},
		{"values of no source: never", 0, 0, 0, NO, 2000, 0, NOTSRV},
		{"the postmaster's, no record: taken", 0, 0, 0, PM, 2000, 0, TAKEN},
		{"a single-user server's, no record: taken", 0, 0, 0, SU, 2000, 0, TAKEN},
		{"inherited, no record: taken", 0, 0, 0, IN, 0, 0, TAKEN},
		{"inherited, a record of an earlier life, a signal noted: taken", 1, LIFE2, 9000, IN, 0, 500, TAKEN},
		{"inherited, a record of this life: older", 1, LIFE, 0, IN, 0, 0, OLDER},
		{"inherited requested later than a record of this life: older", 1, LIFE, 5, IN, 10, 0, OLDER},
		{"a later request than the record's: taken", 1, LIFE, 1000, PM, 2000, 0, TAKEN},
		{"the same request as the record's (equal times): older", 1, LIFE, 1000, PM, 1000, 0, OLDER},
		{"an earlier request than the record's: older", 1, LIFE, 1000, PM, 999, 0, OLDER},
		{"a single-user server's, the same request: older", 1, LIFE, 1000, SU, 1000, 0, OLDER},
		{"a record of an earlier life requested later (its boot's clock): taken", 1, LIFE2, 9000, PM, 2000, 0, TAKEN},
		{"a signal noted after the request: stale", 1, LIFE, 1000, PM, 2000, 2500, STALE},
		{"a signal noted at the request (equal times): stale", 1, LIFE, 1000, PM, 2000, 2000, STALE},
		{"a signal noted just before the request: taken", 1, LIFE, 1000, PM, 2000, 1999, TAKEN},
		{"a signal noted at the request, no record: stale", 0, 0, 0, PM, 2000, 2000, STALE},
		{"a signal noted after the request, a record of an earlier life: stale", 1, LIFE2, 9000, PM, 2000, 2500, STALE},
		{"a single-user server's with a signal noted after: taken", 1, LIFE, 1000, SU, 2000, 2500, TAKEN},
		{"the same request and a signal noted after: older first", 1, LIFE, 1000, PM, 1000, 1500, OLDER},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		UidRecord	in_force = record(rows[i].gen, rows[i].life, rows[i].requested, RT, RT + 1, PM);
		UidRecord	p = record(0, LIFE, rows[i].prop_requested, RT + 10, RT + 11, rows[i].source);

		if (rows[i].gen == 0)
			memset(&in_force, 0, sizeof(in_force));
		harness_ctx = rows[i].name;
		harness_iter = i;
		CHECK_EQ_U64(uid_record_accepts(&in_force, &p, rows[i].signalled), rows[i].want);
	}
}

/* ---------------------------------------------------------------- publication */

/*
 * The words a reader depends on, watched at every step of a publication:
 * the body the word in force names is whole (its seq is 2 * gen) and never
 * written while it is in force; a body whose seq stays at one even value
 * keeps its words (a reader that saw that seq before and after its reads
 * read one record).
 */
static UidRecordShared *watched;
static struct
{
	uint64		cur;			/* the word in force when taken */
	uint64		seq[2];
	uint64		words[2][UID_REC_WORDS];
}			seen;
static unsigned long watch_failures;

static void
watch_take(void)
{
	seen.cur = watched->current.value;
	for (int b = 0; b < 2; b++)
	{
		seen.seq[b] = watched->body[b].seq.value;
		for (int i = 0; i < UID_REC_WORDS; i++)
			seen.words[b][i] = watched->body[b].word[i].value;
	}
}

static void
watch_step(void)
{
	uint64		cur = watched->current.value;

	if (cur != 0 && watched->body[cur & 1].seq.value != (cur >> 1) * 2)
		watch_failures++;
	for (int b = 0; b < 2; b++)
	{
		uint64		seq = watched->body[b].seq.value;

		if (seq % 2 == 0 && seq == seen.seq[b] &&
			memcmp(seen.words[b], watched->body[b].word, sizeof(seen.words[b])) != 0)
			watch_failures++;
		if (cur != 0 && cur == seen.cur && b == (int) (cur & 1) &&
			memcmp(seen.words[b], watched->body[b].word, sizeof(seen.words[b])) != 0)
			watch_failures++;
	}
	watch_take();
}

static void
watch(UidRecordShared *s)
{
	watched = s;
	watch_failures = 0;
	watch_take();
	fake_hook = watch_step;
}

/* A proposal of LIFE from source, requested at requested. */
static UidRecord
proposal(UidRecordSource source, int64 requested, int n)
{
	UidRecord	p = record(0, LIFE, requested, RT + n, RT + 1000 + n, source);

	for (int i = 0; i < UID_REC_REFUSED; i++)
		p.values[i] = 1000 * n + i;
	return p;
}

#define SELF_PID	101
#define OTHER_PID	202

/* The writer word before a publication. */
enum
{
	W_FREE,
	W_LIVING,					/* a living process of this life */
	W_DEAD,						/* a process of this life that exists no more */
	W_EARLIER_LIVING,			/* a process of an earlier life whose id names a living one now */
	W_SELF,						/* this process's already */
};

/* The note of the latest reload signal (the word signalled) */
enum
{
	S_NONE,						/* no word (NULL) */
	S_ZERO,
	S_BEFORE,					/* before the request */
	S_AT,						/* at the request */
	S_AFTER,					/* after the request, before now */
	S_NOW,						/* at the monotonic clock's now */
	S_AHEAD,					/* ahead of it: of an earlier boot */
};

static void
test_publish_table(void)
{
	static const struct
	{
		const char *name;
		int			prior;			/* publications before, of LIFE (or LIFE2, below) */
		bool		prior_earlier;	/* they are of an earlier life, requested 9000 */
		int			writer;
		bool		pending;		/* a reload signal pending here */
		int			signalled;
		UidRecordSource source;
		int64		requested;
		UidPublishResult want;
	}			rows[] = {
		{"the first publication: taken", 0, false, W_FREE, false, S_NONE, PM, 5000, TAKEN},
		{"the second: taken, into the other body", 1, false, W_FREE, false, S_NONE, PM, 5000, TAKEN},
		{"the third: taken, into the first body again", 2, false, W_FREE, false, S_NONE, PM, 5000, TAKEN},
		{"a single-user server's: taken", 1, false, W_FREE, false, S_NONE, SU, 5000, TAKEN},
		{"inherited, no record: taken", 0, false, W_FREE, false, S_NONE, IN, 0, TAKEN},
		{"a session's values: never", 1, false, W_FREE, false, S_NONE, SE, 5000, NOTSRV},
		{"a session's values while another process publishes: never, not busy", 1, false, W_LIVING, false, S_NONE, SE, 5000, NOTSRV},
		{"an earlier request than the record's: older", 1, false, W_FREE, false, S_NONE, PM, 500, OLDER},
		{"the same request as the record's: older", 1, false, W_FREE, false, S_NONE, PM, 1000, OLDER},
		{"inherited, a record of this life: older", 1, false, W_FREE, false, S_NONE, IN, 0, OLDER},
		{"a record of an earlier life requested later (its boot's clock): taken", 1, true, W_FREE, false, S_NONE, PM, 5000, TAKEN},
		{"a living writer of this life: busy, its word kept", 1, false, W_LIVING, false, S_NONE, PM, 5000, BUSY},
		{"a writer of this life that exists no more: taken over", 1, false, W_DEAD, false, S_NONE, PM, 5000, TAKEN},
		{"a writer of an earlier life whose process id lives again: taken over", 1, false, W_EARLIER_LIVING, false, S_NONE, PM, 5000, TAKEN},
		{"the writer word already this process's: taken", 1, false, W_SELF, false, S_NONE, PM, 5000, TAKEN},
		{"a reload signal pending here: stale", 1, false, W_FREE, true, S_NONE, PM, 5000, STALE},
		{"inherited values with a reload signal pending: stale", 0, false, W_FREE, true, S_NONE, IN, 0, STALE},
		{"a single-user server's with a reload signal pending: taken", 1, false, W_FREE, true, S_NONE, SU, 5000, TAKEN},
		{"a signal noted after the request: stale", 1, false, W_FREE, false, S_AFTER, PM, 5000, STALE},
		{"a signal noted at the request (equal times): stale", 1, false, W_FREE, false, S_AT, PM, 5000, STALE},
		{"a signal noted just before the request: taken", 1, false, W_FREE, false, S_BEFORE, PM, 5000, TAKEN},
		{"a signal noted now (the monotonic clock's), after the request: stale", 1, false, W_FREE, false, S_NOW, PM, 5000, STALE},
		{"a note ahead of the monotonic clock (an earlier boot's): ignored, taken", 1, false, W_FREE, false, S_AHEAD, PM, 5000, TAKEN},
		{"a note of 0: taken", 1, false, W_FREE, false, S_ZERO, PM, 5000, TAKEN},
		{"inherited with a signal noted (no request to compare): taken", 0, false, W_FREE, false, S_AFTER, IN, 0, TAKEN},
		{"a single-user server's with a signal noted after the request: taken", 1, false, W_FREE, false, S_AFTER, SU, 5000, TAKEN},
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
	{
		UidRecordShared s;
		UidWord		note;
		UidWord    *notep = NULL;
		uint64		self = uid_record_self(LIFE, SELF_PID);
		uint64		writer = 0;
		uint64		cur_before;
		UidRecord	p;
		UidRecord	before;
		UidRecord	after;
		UidPublishResult r;

		harness_ctx = rows[i].name;
		harness_iter = i;
		fake_reset();
		fake_mono = NOW;
		fake_alive_set(SELF_PID, true);
		memset(&s, 0, sizeof(s));
		for (int k = 1; k <= rows[i].prior; k++)
		{
			UidRecord	q = proposal(PM, rows[i].prior_earlier ? 9000 : 1000 * k, k);

			if (rows[i].prior_earlier)
				q.life = LIFE2;
			if (!CHECK_EQ_U64(uid_record_publish(&s, &q, uid_record_self(q.life, 55), NULL), TAKEN))
				break;
		}
		switch (rows[i].writer)
		{
			case W_LIVING:
				writer = uid_record_self(LIFE, OTHER_PID);
				fake_alive_set(OTHER_PID, true);
				break;
			case W_DEAD:
				writer = uid_record_self(LIFE, OTHER_PID);
				break;
			case W_EARLIER_LIVING:
				writer = uid_record_self(LIFE2, OTHER_PID);
				fake_alive_set(OTHER_PID, true);
				break;
			case W_SELF:
				writer = self;
				break;
		}
		s.writer.value = writer;
		switch (rows[i].signalled)
		{
			case S_ZERO:
				note.value = 0;
				break;
			case S_BEFORE:
				note.value = (uint64) rows[i].requested - 1;
				break;
			case S_AT:
				note.value = (uint64) rows[i].requested;
				break;
			case S_AFTER:
				note.value = (uint64) rows[i].requested + 2000;
				break;
			case S_NOW:
				note.value = NOW;
				break;
			case S_AHEAD:
				note.value = NOW + 1;
				break;
		}
		if (rows[i].signalled != S_NONE)
			notep = &note;
		fake_signal_pending = rows[i].pending;
		cur_before = uid_record_read(&s, &before);
		p = proposal(rows[i].source, rows[i].requested, 7);
		watch(&s);
		r = uid_record_publish(&s, &p, self, notep);
		fake_hook = NULL;
		CHECK_EQ_U64(r, rows[i].want);
		CHECK_EQ_U64(watch_failures, 0);
		/* the writer word: untouched if busy or never claimed, else free again */
		CHECK_EQ_U64(s.writer.value, r == BUSY || r == NOTSRV ? writer : 0);
		uid_record_read(&s, &after);
		if (r == TAKEN)
		{
			/* in force: the proposal, the next publication, in the other body */
			CHECK_EQ_U64(p.gen, before.gen + 1);
			CHECK_EQ_U64(s.current.value, p.gen << 1 | (cur_before == 0 ? 0 : (cur_before & 1) ^ 1));
			CHECK(same_record(&after, &p));
			/* the record before still whole in its body */
			if (cur_before != 0)
				CHECK_EQ_U64(s.body[cur_before & 1].seq.value, (cur_before >> 1) * 2);
		}
		else
		{
			CHECK_EQ_U64(s.current.value, cur_before);
			CHECK(same_record(&after, &before));
		}
	}
}

/* A hook's doings during one publication */
static UidRecordShared *hooked;
static UidWord *hooked_note;
static int64 hooked_value;
static int	hook_done;

/* While a body is written (its seq odd): another process notes a reload signal. */
static void
note_while_written(void)
{
	if (!hook_done && (hooked->body[0].seq.value % 2 == 1 || hooked->body[1].seq.value % 2 == 1))
	{
		hooked_note->value = (uint64) hooked_value;
		hook_done = 1;
	}
}

/* While a body is written: a reload signal comes to the publisher. */
static void
signal_while_written(void)
{
	if (!hook_done && (hooked->body[0].seq.value % 2 == 1 || hooked->body[1].seq.value % 2 == 1))
	{
		fake_signal_pending = true;
		hook_done = 1;
	}
}

/* Between the writer word's read and its compare-and-swap: its dead holder's word cleared. */
static unsigned long hook_at;

static void
writer_freed(void)
{
	if (!hook_done && fake_steps == hook_at)
	{
		hooked->writer.value = 0;
		hook_done = 1;
	}
}

static void
test_publish_races(void)
{
	UidRecordShared s;
	UidWord		note;
	UidRecord	p;
	UidRecord	r;
	uint64		self = uid_record_self(LIFE, SELF_PID);

	/* a signal noted by another process while the body is written */
	harness_ctx = "a signal noted at the request while the body is written: stale";
	fake_reset();
	fake_mono = NOW;
	memset(&s, 0, sizeof(s));
	note.value = 0;
	p = proposal(PM, 1000, 1);
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, &note), TAKEN);
	p = proposal(PM, 5000, 2);
	hooked = &s;
	hooked_note = &note;
	hooked_value = 5000;
	hook_done = 0;
	fake_hook = note_while_written;
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, &note), STALE);
	fake_hook = NULL;
	CHECK(hook_done);
	CHECK_EQ_U64(uid_record_read(&s, &r) >> 1, 1);
	CHECK_EQ_U64(s.writer.value, 0);

	harness_ctx = "a signal noted just before the request while the body is written: taken";
	hooked_value = 4999;
	hook_done = 0;
	note.value = 0;
	p = proposal(PM, 5000, 2);
	fake_hook = note_while_written;
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, &note), TAKEN);
	fake_hook = NULL;

	harness_ctx = "a reload signal that comes while the body is written: stale";
	fake_reset();
	fake_mono = NOW;
	memset(&s, 0, sizeof(s));
	p = proposal(PM, 1000, 1);
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), TAKEN);
	p = proposal(PM, 5000, 2);
	hook_done = 0;
	fake_hook = signal_while_written;
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), STALE);
	fake_hook = NULL;
	CHECK_EQ_U64(uid_record_read(&s, &r) >> 1, 1);

	harness_ctx = "inherited values, a reload signal that comes while the body is written: stale";
	fake_reset();
	fake_mono = NOW;
	memset(&s, 0, sizeof(s));
	p = proposal(IN, 0, 1);
	hook_done = 0;
	fake_hook = signal_while_written;
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), STALE);
	fake_hook = NULL;
	CHECK_EQ_U64(uid_record_read(&s, &r), 0);

	/*
	 * The writer word of a dead process, cleared by another between this
	 * publisher's read of it and its compare-and-swap: read again, taken.
	 * The publication's first step reads the writer word, its second
	 * compares and swaps it.
	 */
	harness_ctx = "the writer word freed between its read and the compare-and-swap: read again, taken";
	fake_reset();
	fake_mono = NOW;
	fake_alive_set(SELF_PID, true);
	memset(&s, 0, sizeof(s));
	s.writer.value = uid_record_self(LIFE, OTHER_PID);
	p = proposal(PM, 1000, 1);
	hooked = &s;
	hook_done = 0;
	hook_at = fake_steps + 2;
	fake_hook = writer_freed;
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), TAKEN);
	fake_hook = NULL;
	CHECK(hook_done);
	CHECK_EQ_U64(s.writer.value, 0);

	/* refused values kept through a publication, and kept read back */
	harness_ctx = "a refused value published: the record's kept, and kept read back";
	fake_reset();
	fake_mono = NOW;
	memset(&s, 0, sizeof(s));
	p = proposal(PM, 1000, 1);
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), TAKEN);
	p = proposal(PM, 5000, 2);
	p.values[UID_REC_PARTITION] = 77;
	p.values[UID_REC_REFUSED] = (int64) BIT(UID_REC_PARTITION);
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), TAKEN);
	uid_record_read(&s, &r);
	CHECK_EQ_U64(r.gen, 2);
	CHECK_EQ_U64(r.values[UID_REC_PARTITION], 1000 + UID_REC_PARTITION);
	CHECK_EQ_U64(r.values[UID_REC_REFUSED], 0);
	CHECK(r.kept);
	CHECK_EQ_U64(r.source, PM);
	CHECK_EQ_U64(r.values[UID_REC_GENERATOR], 2000 + UID_REC_GENERATOR);

	harness_ctx = "a refused value, no record of this life: published refused";
	memset(&s, 0, sizeof(s));
	p = proposal(PM, 1000, 1);
	p.values[UID_REC_REFUSED] = (int64) BIT(UID_REC_PARTITION);
	CHECK_EQ_U64(uid_record_publish(&s, &p, self, NULL), TAKEN);
	uid_record_read(&s, &r);
	CHECK_EQ_U64(r.values[UID_REC_REFUSED], BIT(UID_REC_PARTITION));
	CHECK_EQ_U64(r.values[UID_REC_PARTITION], 1000 + UID_REC_PARTITION);
	CHECK(!r.kept);
}

/* ---------------------------------------------------------------- reading */

/*
 * A reader's steps: 1 reads the word in force, 2 the body's seq, then its
 * words, then the seq again.  A row plays a writer at one of them.
 */
static void (*play) (void);
static unsigned long play_at;

static void
play_step(void)
{
	if (play != NULL && fake_steps == play_at)
	{
		void		(*p) (void) = play;

		play = NULL;
		p();
	}
}

static UidRecordShared *rs;
static UidRecord rec_b;
static UidRecord rec_c;

/* Publishes B (into the other body) and C (into the body read). */
static void
publish_b_c(void)
{
	CHECK_EQ_U64(uid_record_publish(rs, &rec_b, uid_record_self(LIFE, 55), NULL), TAKEN);
	CHECK_EQ_U64(uid_record_publish(rs, &rec_c, uid_record_self(LIFE, 55), NULL), TAKEN);
}

/* Publishes B, and begins C into the body read: its seq odd, some words written. */
static void
publish_b_begin_c(void)
{
	UidRecordBody *b;

	CHECK_EQ_U64(uid_record_publish(rs, &rec_b, uid_record_self(LIFE, 55), NULL), TAKEN);
	b = &rs->body[(rs->current.value & 1) ^ 1];
	b->seq.value = 3 * 2 - 1;
	for (int i = 0; i < 3; i++)
		b->word[i].value = UINT64CONST(0xDEADBEEF);
}

static void
read_row(const char *name, unsigned long at, void (*writer) (void), const UidRecord *want)
{
	UidRecordShared s;
	UidRecord	a = proposal(PM, 1000, 1);
	UidRecord	out;
	uint64		word;

	harness_ctx = name;
	fake_reset();
	fake_mono = NOW;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_U64(uid_record_publish(&s, &a, uid_record_self(LIFE, 55), NULL), TAKEN);
	rs = &s;
	rec_b = proposal(PM, 2000, 2);
	rec_c = proposal(PM, 3000, 3);
	play = writer;
	play_at = fake_steps + at;
	fake_hook = play_step;
	word = uid_record_read(&s, &out);
	fake_hook = NULL;
	CHECK(play == NULL);
	CHECK(same_record(&out, want == NULL ? &a : want == &rec_b ? &rec_b : &rec_c));
	CHECK_EQ_U64(word, s.current.value);
}

static void
test_read(void)
{
	UidRecordShared s;
	UidRecord	out;
	UidRecord	a;

	harness_ctx = "no record: all zero, the word 0";
	fake_reset();
	memset(&s, 0, sizeof(s));
	memset(&out, 0xA5, sizeof(out));
	CHECK_EQ_U64(uid_record_read(&s, &out), 0);
	CHECK_EQ_U64(out.gen, 0);
	CHECK_EQ_U64(out.life, 0);
	CHECK(!out.kept);
	CHECK_EQ_U64(out.values[UID_REC_GENERATOR], 0);

	harness_ctx = "a record read back: every value as published, kept in the source word's high half";
	a = proposal(PM, 1000, 1);
	a.kept = true;
	a.values[UID_REC_MEDALLION] = -1;
	a.requested = INT64_MAX;
	a.reload_time = -5;
	CHECK_EQ_U64(uid_record_publish(&s, &a, uid_record_self(LIFE, 55), NULL), TAKEN);
	CHECK_EQ_U64(uid_record_read(&s, &out), 1 << 1);
	CHECK(same_record(&out, &a));
	CHECK_EQ_U64(out.source, PM);

	read_row("nothing written meanwhile: the record", 3, NULL, NULL);
	/* (the writers run before the step they are at) */
	read_row("the body rewritten while its words are read: read again, the newest whole", 5,
			 publish_b_c, &rec_c);
	read_row("the body rewritten before its seq is read: read again, the newest whole", 2,
			 publish_b_c, &rec_c);
	read_row("the body being written when its seq is read (odd): read again, the record in force", 2,
			 publish_b_begin_c, &rec_b);
}

void
test_record_publish(void)
{
	test_accepts();
	test_publish_table();
	test_publish_races();
	test_read();
}
