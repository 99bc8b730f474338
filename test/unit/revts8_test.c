/*
 * revts8_test.c
 *		Unit tests of the revts8 codec (src/codec/revts8_codec.c and the
 *		inline key functions of src/codec/revts8_codec.h).
 *
 * Included by codec_test.c (see there); exposes test_revts8().
 * The reference vectors are those of doc/formats.md, section
 * "revts8" (LableOrg/java-uniqueid BaseUniqueIDGeneratorTest, IDBuilderTest).
 *
 * The references below are written from the spec without bits.h: the
 * timestamp is placed bit by bit ("timestamp bit i sits at bit 63 - i"),
 * the text is snprintf("%016" PRIx64), and decoding looks each character
 * up in a string of the 22 hex digits.
 */
#include <stdlib.h>

#include "harness.h"
#include "codec/revts8_codec.h"
#include "revts8_ref.h"

#define RTS8_RANDOM_N		1000000
#define RTS8_ORDER_PAIRS	300000
#define RTS8_RESERVED		UINT64_C(0xFC00)	/* bits 15..10, from the spec */

/* ---- references, independent of the code under test ---- */

/*
 * L from fields, bit by bit from the layout table.  Only the low 42 / 6 / 6
 * / 4 bits of each field are read, which is also what "excess bits are
 * masked" means.
 */
static uint64_t
rts8_ref_pack(uint64_t ts, uint64_t seq, uint64_t gen, uint64_t cluster)
{
	uint64_t	l = 0;

	for (int i = 0; i < 42; i++)
		if ((ts >> i) & 1)
			l |= UINT64_C(1) << (63 - i);
	for (int i = 0; i < 6; i++)
		if ((seq >> i) & 1)
			l |= UINT64_C(1) << (16 + i);
	for (int i = 0; i < 6; i++)
		if ((gen >> i) & 1)
			l |= UINT64_C(1) << (4 + i);
	for (int i = 0; i < 4; i++)
		if ((cluster >> i) & 1)
			l |= UINT64_C(1) << i;
	return l;
}


/* The time key from the fields: ts << 22 | seq << 16 | gen << 4 | cluster. */
static uint64_t
rts8_ref_key(const revts8_fields *f)
{
	return f->ts << 22 | (uint64_t) f->seq << 16 |
		(uint64_t) f->generator << 4 | f->cluster;
}

/* 16 lower-case hex digits and a terminator. */
static void
rts8_ref_encode(uint64_t l, char out[REVTS8_TEXT_LEN + 1])
{
	snprintf(out, REVTS8_TEXT_LEN + 1, "%016" PRIx64, l);
}

static void
rts8_upper(const char *in, char *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (char) (in[i] >= 'a' && in[i] <= 'z' ? in[i] - 'a' + 'A' : in[i]);
}


/*
 * The spec's decoder: exactly 16 hex digits (length first), the first
 * non-hex character is reported, then any of bits 15..10 set is invalid.
 */
static uid_status
rts8_ref_decode(const char *in, size_t len, uint64_t *out, size_t *bad_pos)
{
	uint64_t	v = 0;

	if (len != 16)
		return UID_BAD_LENGTH;
	for (size_t i = 0; i < 16; i++)
	{
		int			d = rts8_ref_hex((unsigned char) in[i]);

		if (d < 0)
		{
			*bad_pos = i;
			return UID_BAD_CHAR;
		}
		v = v * 16 + (uint64_t) d;
	}
	for (int b = 10; b <= 15; b++)
		if ((v >> b) & 1)
			return UID_BAD_RESERVED;
	*out = v;
	return UID_OK;
}

static int
rts8_fields_eq(const revts8_fields *a, const revts8_fields *b)
{
	return a->ts == b->ts && a->seq == b->seq && a->generator == b->generator &&
		a->cluster == b->cluster;
}


/* In-range random fields, now and then a field at its minimum or maximum. */
static void
rts8_random_fields(harness_rng *r, revts8_fields *f)
{
	f->ts = rng_field(r, REVTS8_TS_MAX);
	f->seq = (unsigned) rng_field(r, REVTS8_SEQ_MAX);
	f->generator = (unsigned) rng_field(r, REVTS8_GENERATOR_MAX);
	f->cluster = (unsigned) rng_field(r, REVTS8_CLUSTER_MAX);
}

/* ---- (a) constants and reference vectors ---- */

typedef struct rts8_vector
{
	revts8_fields f;
	const char *text;			/* the whole text, or NULL */
	int			first;			/* else: bytes first .. first + n - 1 of L */
	int			n;
	uint8_t		bytes[2];
} rts8_vector;

static void
rts8_check_vector(const rts8_vector *v)
{
	char		text[REVTS8_TEXT_LEN + 1];
	char		upper[REVTS8_TEXT_LEN];
	uint8_t		be[8];
	revts8_fields g;
	uint64_t	l = revts8_pack(&v->f);
	uint64_t	out;
	size_t		bad = 12345;

	/* fields -> L, and the bit-by-bit reference agrees */
	CHECK_EQ_U64(l, rts8_ref_pack(v->f.ts, v->f.seq, v->f.generator, v->f.cluster));
	for (int i = 0; i < 8; i++)
		be[i] = (uint8_t) (l >> (56 - 8 * i));
	if (v->text)
	{
		uint8_t		want[8];

		CHECK(harness_hex(v->text, want, 8));
		CHECK_MEM(be, want, 8);
	}
	else
		CHECK_MEM(be + v->first, v->bytes, (size_t) v->n);

	/* L -> fields */
	memset(&g, 0x5A, sizeof g);
	revts8_unpack(l, &g);
	CHECK(rts8_fields_eq(&g, &v->f));

	/* L -> text (lower case), the reference text */
	memset(text, '?', sizeof text);
	revts8_encode(l, text);
	if (v->text)
		CHECK_MEM(text, v->text, REVTS8_TEXT_LEN);
	{
		char		ref[REVTS8_TEXT_LEN + 1];

		rts8_ref_encode(l, ref);
		CHECK_MEM(text, ref, REVTS8_TEXT_LEN);
	}
	CHECK_EQ_U64((unsigned char) text[REVTS8_TEXT_LEN], '?');	/* no terminator */

	/* text -> L, in both cases */
	out = ~l;
	CHECK_EQ_U64(revts8_decode(text, REVTS8_TEXT_LEN, &out, &bad), UID_OK);
	CHECK_EQ_U64(out, l);
	CHECK_EQ_U64(bad, 12345);	/* untouched on success */
	rts8_upper(text, upper, REVTS8_TEXT_LEN);
	out = ~l;
	CHECK_EQ_U64(revts8_decode(upper, REVTS8_TEXT_LEN, &out, NULL), UID_OK);
	CHECK_EQ_U64(out, l);

	/* the key orders by the fields and gives L back */
	CHECK_EQ_U64(revts8_key(l), rts8_ref_key(&v->f));
	CHECK_EQ_U64(revts8_canonical(revts8_key(l)), l);
}

static void
test_rts8_vectors(void)
{
	const rts8_vector v[] = {
		{{0, 0, 0, 0}, "0000000000000000", 0, 0, {0}},
		{{UINT64_C(0x3FFFFFFFFFF), 63, 63, 15}, "ffffffffffff03ff", 0, 0, {0}},
		{{UINT64_C(143062936275), 0, 0, 0}, "cb54ecf284000000", 0, 0, {0}},
		{{UINT64_C(0x3FFFFFFFD), 0, 0, 0}, "bfffffffc0000000", 0, 0, {0}},
		{{0, 0x22, 0, 0}, NULL, 5, 1, {0x22}},
		{{0, 0, 0x27, 0}, NULL, 6, 2, {0x02, 0x70}},
		{{0, 0, 0, 5}, NULL, 6, 2, {0x00, 0x05}},
	};

	harness_ctx = "revts8 constants";
	CHECK_EQ_U64(REVTS8_TEXT_LEN, 16);
	CHECK_EQ_U64(REVTS8_TS_BITS, 42);
	CHECK_EQ_U64(REVTS8_TS_MAX, UINT64_C(0x3FFFFFFFFFF));
	CHECK_EQ_U64(REVTS8_SEQ_MAX, 63);
	CHECK_EQ_U64(REVTS8_GENERATOR_MAX, 63);
	CHECK_EQ_U64(REVTS8_CLUSTER_MAX, 15);
	CHECK_EQ_U64(REVTS8_LOW_BITS, 22);
	CHECK_EQ_U64(REVTS8_LOW_MASK, UINT64_C(0x3FFFFF));
	CHECK_EQ_U64(REVTS8_RESERVED_MASK, RTS8_RESERVED);
	/* 42 bits of ms since 1970 last "until 2109-05-15" */
	CHECK(harness_unix_ms(2109, 5, 15, 0, 0, 0, 0) <= (int64_t) REVTS8_TS_MAX);
	CHECK(harness_unix_ms(2109, 5, 16, 0, 0, 0, 0) > (int64_t) REVTS8_TS_MAX);

	harness_ctx = "revts8 reference vectors";
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
	{
		harness_iter = i;
		rts8_check_vector(&v[i]);
	}

	/*
	 * "timestamp bit i sits at bit 63 - i": every single timestamp bit
	 * against the bit-by-bit reference and against the literal position.
	 */
	harness_ctx = "revts8 timestamp bit positions";
	for (int i = 0; i < 42; i++)
	{
		revts8_fields f = {UINT64_C(1) << i, 0, 0, 0};
		revts8_fields g;

		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(1) << (63 - i));
		CHECK_EQ_U64(rts8_ref_pack(f.ts, 0, 0, 0), UINT64_C(1) << (63 - i));
		revts8_unpack(UINT64_C(1) << (63 - i), &g);
		CHECK(rts8_fields_eq(&g, &f));
		CHECK_EQ_U64(revts8_key(UINT64_C(1) << (63 - i)), UINT64_C(1) << (22 + i));
		CHECK_EQ_U64(revts8_canonical(UINT64_C(1) << (22 + i)), UINT64_C(1) << (63 - i));
	}
	/* the other fields, one bit at a time */
	harness_ctx = "revts8 field bit positions";
	for (int i = 0; i < 6; i++)
	{
		revts8_fields f = {0, 1u << i, 0, 0};

		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(1) << (16 + i));
		f = (revts8_fields) {0, 0, 1u << i, 0};
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(1) << (4 + i));
	}
	for (int i = 0; i < 4; i++)
	{
		revts8_fields f = {0, 0, 0, 1u << i};

		harness_iter = (unsigned long long) i;
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(1) << i);
	}
	/* each bit of L unpacks into exactly one field bit (none for reserved) */
	harness_ctx = "revts8 unpack bit positions";
	for (int p = 0; p < 64; p++)
	{
		revts8_fields g;
		revts8_fields want;

		harness_iter = (unsigned long long) p;
		rts8_ref_unpack(UINT64_C(1) << p, &want);
		memset(&g, 0x5A, sizeof g);
		revts8_unpack(UINT64_C(1) << p, &g);
		CHECK(rts8_fields_eq(&g, &want));
		if (p >= 10 && p <= 15)
			CHECK(want.ts == 0 && want.seq == 0 && want.generator == 0 &&
				  want.cluster == 0);
	}

	/* timestamps of a random bit pattern against the reference */
	harness_ctx = "revts8 pack vs bit-by-bit reference";
	{
		harness_rng r = rng_seeded(0xB17B);

		for (long i = 0; i < 100000; i++)
		{
			revts8_fields f;

			harness_iter = (unsigned long long) i;
			rts8_random_fields(&r, &f);
			CHECK_EQ_U64(revts8_pack(&f),
						 rts8_ref_pack(f.ts, f.seq, f.generator, f.cluster));
		}
	}
	harness_ctx = NULL;
}

/* ---- (b) random round trips ---- */

static void
test_rts8_random(void)
{
	harness_rng r = rng_seeded(0x2E75);

	harness_ctx = "revts8 random fields round trip";
	for (long i = 0; i < RTS8_RANDOM_N; i++)
	{
		revts8_fields f;
		revts8_fields g;
		uint64_t	l;
		uint64_t	k;

		harness_iter = (unsigned long long) i;
		rts8_random_fields(&r, &f);
		l = revts8_pack(&f);
		CHECK_EQ_U64(l & RTS8_RESERVED, 0);
		memset(&g, 0x5A, sizeof g);
		revts8_unpack(l, &g);
		CHECK(rts8_fields_eq(&g, &f));
		k = revts8_key(l);
		CHECK_EQ_U64(k, rts8_ref_key(&f));
		CHECK_EQ_U64(revts8_canonical(k), l);
	}

	harness_ctx = "revts8 random L round trip";
	for (long i = 0; i < RTS8_RANDOM_N; i++)
	{
		uint64_t	l = rng_next(&r) & ~RTS8_RESERVED;
		char		text[REVTS8_TEXT_LEN];
		char		ref[REVTS8_TEXT_LEN + 1];
		revts8_fields g;
		revts8_fields want;
		uint64_t	out = ~l;
		size_t		bad = 777;

		harness_iter = (unsigned long long) i;
		revts8_encode(l, text);
		rts8_ref_encode(l, ref);
		CHECK_MEM(text, ref, REVTS8_TEXT_LEN);
		CHECK_EQ_U64(revts8_decode(text, REVTS8_TEXT_LEN, &out, &bad), UID_OK);
		CHECK_EQ_U64(out, l);
		CHECK_EQ_U64(bad, 777);

		CHECK_EQ_U64(revts8_canonical(revts8_key(l)), l);

		revts8_unpack(l, &g);
		rts8_ref_unpack(l, &want);
		CHECK(rts8_fields_eq(&g, &want));
		CHECK_EQ_U64(revts8_pack(&g), l);
		CHECK_EQ_U64(revts8_key(l), rts8_ref_key(&want));
	}

	/*
	 * K -> L -> K over every key whose bits 15..10 are clear (the keys of
	 * valid IDs are exactly those, as the low 22 bits are copied).
	 */
	harness_ctx = "revts8 random key round trip";
	for (long i = 0; i < RTS8_RANDOM_N / 10; i++)
	{
		uint64_t	k = rng_next(&r) & ~RTS8_RESERVED;
		uint64_t	l;

		harness_iter = (unsigned long long) i;
		l = revts8_canonical(k);
		CHECK_EQ_U64(l & RTS8_RESERVED, 0);
		CHECK_EQ_U64(revts8_key(l), k);
	}
	harness_ctx = NULL;
}

/* ---- (c) order ---- */

static void
test_rts8_order(void)
{
	harness_rng r = rng_seeded(0x0DE7);
	unsigned long long byte_order_disagrees = 0;

	/*
	 * Key order = (ts, seq, generator, cluster) order.  Fully random pairs
	 * nearly always differ in ts, so most kinds tie the leading fields.
	 */
	harness_ctx = "revts8 key order";
	for (long i = 0; i < RTS8_ORDER_PAIRS; i++)
	{
		revts8_fields a;
		revts8_fields b;
		uint64_t	la;
		uint64_t	lb;
		int			kind = (int) (i % 8);
		int			want;

		harness_iter = (unsigned long long) i;
		rts8_random_fields(&r, &a);
		rts8_random_fields(&r, &b);
		switch (kind)
		{
			case 0:				/* fully random */
				break;
			case 1:				/* same ts */
				b.ts = a.ts;
				break;
			case 2:				/* same ts and seq */
				b.ts = a.ts;
				b.seq = a.seq;
				break;
			case 3:				/* same ts, seq and generator */
				b.ts = a.ts;
				b.seq = a.seq;
				b.generator = a.generator;
				break;
			case 4:				/* neighbouring ts, the rest random */
				b.ts = a.ts < REVTS8_TS_MAX ? a.ts + 1 : a.ts - 1;
				break;
			case 5:				/* ts one bit apart */
				b.ts = a.ts ^ (UINT64_C(1) << rng_below(&r, 42));
				break;
			case 6:				/* tiny ranges: many ties everywhere */
				a.ts = rng_below(&r, 3);
				b.ts = rng_below(&r, 3);
				a.seq = (unsigned) rng_below(&r, 2);
				b.seq = (unsigned) rng_below(&r, 2);
				a.generator = (unsigned) rng_below(&r, 2);
				b.generator = (unsigned) rng_below(&r, 2);
				a.cluster = (unsigned) rng_below(&r, 2);
				b.cluster = (unsigned) rng_below(&r, 2);
				break;
			default:			/* equal */
				b = a;
				break;
		}
		la = revts8_pack(&a);
		lb = revts8_pack(&b);
		want = rts8_fields_cmp(&a, &b);
		CHECK_EQ_U64(harness_cmp_u64(revts8_key(la), revts8_key(lb)) + 1, want + 1);
		/* the key of the fields is the spec's key */
		CHECK_EQ_U64(harness_cmp_u64(rts8_ref_key(&a), rts8_ref_key(&b)) + 1, want + 1);
		if (harness_cmp_u64(la, lb) != want)
			byte_order_disagrees++;
	}
	/* byte order of L is not time order, which is why the key exists */
	CHECK(byte_order_disagrees > RTS8_ORDER_PAIRS / 10);

	/*
	 * Consecutive timestamps, everything else equal: ts + 1 flips bit 0 of
	 * ts, which is bit 63 of L, and clears it exactly when ts is odd.  So L
	 * goes down from every odd ts to the next, while the key always goes up.
	 */
	harness_ctx = "revts8 consecutive timestamps";
	{
		unsigned long long down = 0;
		unsigned long long odd = 0;
		uint64_t	base = rng_next(&r) & REVTS8_TS_MAX & ~UINT64_C(0xFFFFF);

		for (uint64_t t = base; t < base + 100000; t++)
		{
			revts8_fields a = {t, 7, 9, 3};
			revts8_fields b = {t + 1, 7, 9, 3};
			uint64_t	la = revts8_pack(&a);
			uint64_t	lb = revts8_pack(&b);
			char		ta[REVTS8_TEXT_LEN + 1];
			char		tb[REVTS8_TEXT_LEN + 1];

			harness_iter = (unsigned long long) (t - base);
			CHECK(revts8_key(la) < revts8_key(lb));
			odd += t & 1;
			if (lb < la)
				down++;
			/* text order (and big-endian byte order) is the order of L */
			revts8_encode(la, ta);
			revts8_encode(lb, tb);
			ta[REVTS8_TEXT_LEN] = tb[REVTS8_TEXT_LEN] = '\0';
			CHECK_EQ_U64((strcmp(ta, tb) > 0) - (strcmp(ta, tb) < 0) + 1,
						 harness_cmp_u64(la, lb) + 1);
		}
		CHECK(down > 0);
		CHECK_EQ_U64(down, odd);
	}
	/* the smallest example: ts 1 is L 8000..., ts 2 is L 4000... */
	{
		revts8_fields f1 = {1, 0, 0, 0};
		revts8_fields f2 = {2, 0, 0, 0};

		CHECK_EQ_U64(revts8_pack(&f1), UINT64_C(0x8000000000000000));
		CHECK_EQ_U64(revts8_pack(&f2), UINT64_C(0x4000000000000000));
		CHECK(revts8_pack(&f2) < revts8_pack(&f1));
		CHECK(revts8_key(revts8_pack(&f1)) < revts8_key(revts8_pack(&f2)));
	}

	/* a walk through consecutive IDs in time order: keys strictly increase */
	harness_ctx = "revts8 ordered walk";
	{
		revts8_fields f = {rng_next(&r) & REVTS8_TS_MAX >> 1, 0, 0, 0};
		uint64_t	prev = revts8_key(revts8_pack(&f));

		for (long i = 0; i < 100000; i++)
		{
			uint64_t	k;

			harness_iter = (unsigned long long) i;
			/* advance the lowest field, carrying into the next */
			if (++f.cluster > REVTS8_CLUSTER_MAX)
			{
				f.cluster = 0;
				if (++f.generator > REVTS8_GENERATOR_MAX)
				{
					f.generator = 0;
					if (++f.seq > REVTS8_SEQ_MAX)
					{
						f.seq = 0;
						f.ts++;
					}
				}
			}
			/* now and then skip ahead in a higher field */
			if (rng_below(&r, 64) == 0)
				f.ts += rng_below(&r, 1000);
			k = revts8_key(revts8_pack(&f));
			CHECK(k > prev);
			prev = k;
		}
	}
	harness_ctx = NULL;
}

/* ---- (d) decode: rejections and case ---- */

static void
test_rts8_reject(void)
{
	harness_rng r = rng_seeded(0xBAD8);
	static char longbuf[4096];
	const char *good = "cb54ecf284000000";
	uint64_t	out;
	size_t		bad;

	/* wrong lengths, with otherwise valid characters */
	harness_ctx = "revts8 bad length";
	memset(longbuf, 'a', sizeof longbuf);
	for (size_t len = 0; len <= 40; len++)
	{
		uid_status	st;

		harness_iter = len;
		bad = 999;
		out = 0x5A5A;
		st = revts8_decode(longbuf, len, &out, &bad);
		if (len == REVTS8_TEXT_LEN)
		{
			/* aaaaaaaaaaaaaaaa has bits 15..10 set */
			CHECK_EQ_U64(st, UID_BAD_RESERVED);
			CHECK_EQ_U64(revts8_decode("0000000000000000xyz", len, &out, &bad),
						 UID_OK);
			CHECK_EQ_U64(out, 0);
		}
		else
		{
			CHECK_EQ_U64(st, UID_BAD_LENGTH);
			CHECK_EQ_U64(revts8_decode("0000000000000000000000000000000000000000",
									   len, &out, &bad), UID_BAD_LENGTH);
		}
		CHECK_EQ_U64(bad, 999);
	}
	CHECK_EQ_U64(revts8_decode(longbuf, sizeof longbuf, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(revts8_decode(good, 15, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(revts8_decode("cb54ecf2840000000", 17, &out, &bad), UID_BAD_LENGTH);
	/* a huge length is rejected before anything is read */
	CHECK_EQ_U64(revts8_decode(good, SIZE_MAX, &out, &bad), UID_BAD_LENGTH);
	/* length is checked before characters and reserved bits */
	CHECK_EQ_U64(revts8_decode("!!!!!!!!!!!!!!!", 15, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(revts8_decode("ffffffffffffffff", 15, &out, &bad), UID_BAD_LENGTH);
	CHECK_EQ_U64(bad, 999);

	/* a named set of bad characters at every position */
	harness_ctx = "revts8 bad char at each position";
	{
		const unsigned char bads[] = {
			'g', 'G', 'x', 'X', 'z', ' ', '-', '\0', 0x80, 0xFF,
			'/', ':', '@', '`', '[', '{', '\n', '\t', 0x7F, 0xC3,
		};

		for (int pos = 0; pos < REVTS8_TEXT_LEN; pos++)
			for (size_t j = 0; j < sizeof bads; j++)
			{
				char		t[REVTS8_TEXT_LEN];

				harness_iter = (unsigned long long) (pos * 256 + bads[j]);
				memcpy(t, good, REVTS8_TEXT_LEN);
				t[pos] = (char) bads[j];
				bad = 999;
				CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad), UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
				/* bad_pos may be NULL */
				CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, NULL), UID_BAD_CHAR);
				/* a bad character wins over reserved bits set elsewhere */
				memcpy(t, "ffffffffffffffff", REVTS8_TEXT_LEN);
				t[pos] = (char) bads[j];
				bad = 999;
				CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad), UID_BAD_CHAR);
				CHECK_EQ_U64(bad, pos);
			}
	}

	/* with two bad characters, bad_pos names the first */
	harness_ctx = "revts8 first of two bad chars";
	for (int i = 0; i < REVTS8_TEXT_LEN; i++)
		for (int j = i + 1; j < REVTS8_TEXT_LEN; j++)
		{
			char		t[REVTS8_TEXT_LEN];

			harness_iter = (unsigned long long) (i * 16 + j);
			memcpy(t, good, REVTS8_TEXT_LEN);
			t[i] = 'g';
			t[j] = '-';
			bad = 999;
			CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad), UID_BAD_CHAR);
			CHECK_EQ_U64(bad, i);
		}

	/*
	 * Exhaustive over one position: of the 256 byte values exactly the 22
	 * hex digits pass the character check.  Text positions 12 and 13 hold
	 * bits 15..12 and 11..8, so there a digit can set reserved bits: at 12
	 * only '0' is valid, at 13 only '0'..'3'.  Done at every position on a
	 * random valid background, against the reference decoder.
	 */
	harness_ctx = "revts8 all 256 bytes at each position";
	for (int pos = 0; pos < REVTS8_TEXT_LEN; pos++)
	{
		char		base[REVTS8_TEXT_LEN + 1];
		uint64_t	bg = rng_next(&r) & ~RTS8_RESERVED;
		uint64_t	digit_mask = UINT64_C(0xF) << (60 - 4 * pos);
		int			hex = 0;
		int			ok = 0;

		rts8_ref_encode(bg, base);
		for (int c = 0; c < 256; c++)
		{
			char		t[REVTS8_TEXT_LEN];
			uint64_t	want = 0;
			size_t		refbad = 0;
			int			is_hex = (c >= '0' && c <= '9') ||
				(c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
			int			d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
			uid_status	expect;
			uid_status	st;

			harness_iter = (unsigned long long) (pos * 256 + c);
			memcpy(t, base, REVTS8_TEXT_LEN);
			t[pos] = (char) c;
			if (!is_hex)
				expect = UID_BAD_CHAR;
			else if ((pos == 12 && d != 0) || (pos == 13 && d > 3))
				expect = UID_BAD_RESERVED;
			else
				expect = UID_OK;
			CHECK_EQ_U64(rts8_ref_decode(t, REVTS8_TEXT_LEN, &want, &refbad), expect);
			bad = 999;
			out = 0x5A5A;
			st = revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad);
			CHECK_EQ_U64(st, expect);
			hex += st != UID_BAD_CHAR;
			ok += st == UID_OK;
			if (expect == UID_OK)
			{
				CHECK_EQ_U64(out, want);
				/* the digit lands in its nibble, the rest is the background */
				CHECK_EQ_U64(out & ~digit_mask, bg & ~digit_mask);
				CHECK_EQ_U64((out & digit_mask) >> (60 - 4 * pos), (uint64_t) d);
				CHECK_EQ_U64(bad, 999);
			}
			else if (expect == UID_BAD_CHAR)
			{
				CHECK_EQ_U64(bad, pos);
				CHECK_EQ_U64(refbad, pos);
			}
			else
				CHECK_EQ_U64(bad, 999);
		}
		harness_iter = (unsigned long long) pos;
		CHECK_EQ_U64(hex, 22);
		CHECK_EQ_U64(ok, pos == 12 ? 1 : pos == 13 ? 4 : 22);
	}

	/* every single bit of L: the six reserved ones are rejected */
	harness_ctx = "revts8 single bits";
	for (int b = 0; b < 64; b++)
	{
		for (int bg = 0; bg < 3; bg++)
		{
			uint64_t	base = bg == 0 ? 0 : bg == 1 ? ~RTS8_RESERVED :
				rng_next(&r) & ~RTS8_RESERVED;
			uint64_t	l = base | UINT64_C(1) << b;
			char		t[REVTS8_TEXT_LEN + 1];
			char		u[REVTS8_TEXT_LEN];

			harness_iter = (unsigned long long) (b * 4 + bg);
			rts8_ref_encode(l, t);
			rts8_upper(t, u, REVTS8_TEXT_LEN);
			bad = 999;
			out = 0x5A5A;
			if (b >= 10 && b <= 15)
			{
				CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad),
							 UID_BAD_RESERVED);
				CHECK_EQ_U64(revts8_decode(u, REVTS8_TEXT_LEN, &out, &bad),
							 UID_BAD_RESERVED);
				CHECK_EQ_U64(bad, 999);
			}
			else
			{
				CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad), UID_OK);
				CHECK_EQ_U64(out, l);
				out = 0x5A5A;
				CHECK_EQ_U64(revts8_decode(u, REVTS8_TEXT_LEN, &out, &bad), UID_OK);
				CHECK_EQ_U64(out, l);
			}
		}
	}
	/* every non-empty combination of reserved bits */
	harness_ctx = "revts8 reserved combinations";
	for (uint64_t m = 1; m < 64; m++)
	{
		char		t[REVTS8_TEXT_LEN + 1];

		harness_iter = m;
		rts8_ref_encode((rng_next(&r) & ~RTS8_RESERVED) | m << 10, t);
		CHECK_EQ_U64(revts8_decode(t, REVTS8_TEXT_LEN, &out, NULL), UID_BAD_RESERVED);
	}
	CHECK_EQ_U64(revts8_decode("ffffffffffff03ff", 16, &out, NULL), UID_OK);
	CHECK_EQ_U64(out, UINT64_C(0xffffffffffff03ff));
	CHECK_EQ_U64(revts8_decode("ffffffffffff07ff", 16, &out, NULL), UID_BAD_RESERVED);
	CHECK_EQ_U64(revts8_decode("ffffffffffff83ff", 16, &out, NULL), UID_BAD_RESERVED);
	CHECK_EQ_U64(revts8_decode("FFFFFFFFFFFF0400", 16, &out, NULL), UID_BAD_RESERVED);
	CHECK_EQ_U64(revts8_decode("ffffffffffffffff", 16, &out, NULL), UID_BAD_RESERVED);

	/* upper and mixed case accepted; encode always writes lower case */
	harness_ctx = "revts8 case";
	for (long i = 0; i < 100000; i++)
	{
		uint64_t	l = rng_next(&r) & ~RTS8_RESERVED;
		uint64_t	coin = rng_next(&r);
		char		text[REVTS8_TEXT_LEN];
		char		upper[REVTS8_TEXT_LEN];
		char		mixed[REVTS8_TEXT_LEN];
		char		again[REVTS8_TEXT_LEN];

		harness_iter = (unsigned long long) i;
		revts8_encode(l, text);
		for (int k = 0; k < REVTS8_TEXT_LEN; k++)
			if (!((text[k] >= '0' && text[k] <= '9') || (text[k] >= 'a' && text[k] <= 'f')))
			{
				CHECK(0 && "encode wrote a character outside 0-9a-f");
				break;
			}
		rts8_upper(text, upper, REVTS8_TEXT_LEN);
		for (int k = 0; k < REVTS8_TEXT_LEN; k++)
			mixed[k] = (coin >> k) & 1 ? upper[k] : text[k];
		out = ~l;
		CHECK_EQ_U64(revts8_decode(upper, REVTS8_TEXT_LEN, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, l);
		out = ~l;
		CHECK_EQ_U64(revts8_decode(mixed, REVTS8_TEXT_LEN, &out, NULL), UID_OK);
		CHECK_EQ_U64(out, l);
		revts8_encode(out, again);
		CHECK_MEM(again, text, REVTS8_TEXT_LEN);
	}
	CHECK_EQ_U64(revts8_decode("CB54ECF284000000", 16, &out, NULL), UID_OK);
	{
		char		text[REVTS8_TEXT_LEN];

		revts8_encode(out, text);
		CHECK_MEM(text, "cb54ecf284000000", REVTS8_TEXT_LEN);
	}

	/* random garbage over the hex digits: decode agrees with the reference */
	harness_ctx = "revts8 random garbage";
	{
		const char	hexd[] = "0123456789abcdefABCDEF";
		unsigned long long seen[UID_OUT_OF_RANGE + 1] = {0};

		for (long i = 0; i < 200000; i++)
		{
			char		t[REVTS8_TEXT_LEN];
			uint64_t	want = 0;
			size_t		refbad = 0;
			uid_status	refst;
			uid_status	st;

			harness_iter = (unsigned long long) i;
			for (int k = 0; k < REVTS8_TEXT_LEN; k++)
				t[k] = rng_below(&r, 32) == 0 ? (char) rng_below(&r, 256)
					: hexd[rng_below(&r, 22)];
			/* half the time, clear the reserved digits' reserved bits */
			if (i % 2)
			{
				t[12] = '0';
				t[13] = "0123"[rng_below(&r, 4)];
			}
			refst = rts8_ref_decode(t, REVTS8_TEXT_LEN, &want, &refbad);
			bad = 999;
			out = 0x5A5A;
			st = revts8_decode(t, REVTS8_TEXT_LEN, &out, &bad);
			seen[refst]++;
			if (!CHECK_EQ_U64(st, refst))
				continue;
			if (st == UID_OK)
				CHECK_EQ_U64(out, want);
			else if (st == UID_BAD_CHAR)
				CHECK_EQ_U64(bad, refbad);
			else
				CHECK_EQ_U64(bad, 999);
		}
		CHECK(seen[UID_OK] > 1000);
		CHECK(seen[UID_BAD_CHAR] > 1000);
		CHECK(seen[UID_BAD_RESERVED] > 1000);
	}
	harness_ctx = NULL;
}

/* ---- (e) pack masks out-of-range fields ---- */

static void
test_rts8_mask(void)
{
	harness_rng r = rng_seeded(0x3A5C);

	/* "in range; excess bits are masked" (revts8_codec.h) */
	harness_ctx = "revts8 pack masks excess bits";
	harness_iter = 0;
	{
		revts8_fields ones = {UINT64_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
		revts8_fields just_over = {REVTS8_TS_MAX + 1, 64, 64, 16};
		revts8_fields f;

		CHECK_EQ_U64(revts8_pack(&ones), UINT64_C(0xffffffffffff03ff));
		CHECK_EQ_U64(revts8_pack(&just_over), 0);
		/* one oversized field does not spill into its neighbours */
		f = (revts8_fields) {REVTS8_TS_MAX + 1, 0, 0, 0};	/* would be bit 21 (seq) */
		CHECK_EQ_U64(revts8_pack(&f), 0);
		f = (revts8_fields) {0, 64, 0, 0};	/* would be bit 22 (ts) */
		CHECK_EQ_U64(revts8_pack(&f), 0);
		f = (revts8_fields) {0, 0, 64, 0};	/* would be bit 10 (reserved) */
		CHECK_EQ_U64(revts8_pack(&f), 0);
		f = (revts8_fields) {0, 0, 0, 16};	/* would be bit 4 (generator) */
		CHECK_EQ_U64(revts8_pack(&f), 0);
		f = (revts8_fields) {UINT64_MAX, 0, 0, 0};
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(0xffffffffffc00000));
		f = (revts8_fields) {0, UINT32_MAX, 0, 0};
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(0x3f0000));
		f = (revts8_fields) {0, 0, UINT32_MAX, 0};
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(0x3f0));
		f = (revts8_fields) {0, 0, 0, UINT32_MAX};
		CHECK_EQ_U64(revts8_pack(&f), UINT64_C(0xf));
		f = (revts8_fields) {REVTS8_TS_MAX + 1 + 5, 64 + 3, 128 + 7, 32 + 9};
		CHECK_EQ_U64(revts8_pack(&f), rts8_ref_pack(5, 3, 7, 9));
	}
	for (long i = 0; i < 100000; i++)
	{
		revts8_fields big;
		revts8_fields in_range;
		uint64_t	l;

		harness_iter = (unsigned long long) i;
		big.ts = rng_next(&r);
		big.seq = (unsigned) rng_next(&r);
		big.generator = (unsigned) rng_next(&r);
		big.cluster = (unsigned) rng_next(&r);
		in_range.ts = big.ts & REVTS8_TS_MAX;
		in_range.seq = big.seq & 63;
		in_range.generator = big.generator & 63;
		in_range.cluster = big.cluster & 15;
		l = revts8_pack(&big);
		CHECK_EQ_U64(l, revts8_pack(&in_range));
		CHECK_EQ_U64(l, rts8_ref_pack(big.ts, big.seq, big.generator, big.cluster));
		CHECK_EQ_U64(l & RTS8_RESERVED, 0);
	}

	/* unpack ignores the reserved bits (the fields have no room for them) */
	harness_ctx = "revts8 unpack ignores reserved bits";
	for (long i = 0; i < 10000; i++)
	{
		uint64_t	l = rng_next(&r);
		revts8_fields g;
		revts8_fields h;

		harness_iter = (unsigned long long) i;
		revts8_unpack(l, &g);
		revts8_unpack(l & ~RTS8_RESERVED, &h);
		CHECK(rts8_fields_eq(&g, &h));
		CHECK_EQ_U64(revts8_pack(&g), l & ~RTS8_RESERVED);
	}
	harness_ctx = NULL;
}

void		test_revts8(void);

void
test_revts8(void)
{
	test_rts8_vectors();
	test_rts8_random();
	test_rts8_order();
	test_rts8_reject();
	test_rts8_mask();
}
