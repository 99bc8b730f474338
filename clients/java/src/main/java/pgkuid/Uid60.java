package pgkuid;

import java.time.Instant;

/**
 * A uid60 (abyss-club/uexky): a 60-bit integer, seconds since 2018-03-01,
 * worker, sequence and random bits. Ordered as the integer, as the server's
 * default btree (its text, made to look random, is not in that order).
 * Immutable.
 */
public final class Uid60 implements UidValue, Comparable<Uid60> {
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    private static final long MAX = (1L << 60) - 1, LOW_MASK = (1L << 28) - 1;
    private static final String EXPECTED = "10 characters of A-Z, a-z, 0-9, - and _";
    private static final Codec.Clock CLOCK = new Codec.Clock("uid60", 1519862400000000L, 1000000, (1L << 32) - 1);

    private final long value;

    private Uid60(long value) { this.value = value; }

    /** n with its 32-bit timestamp bit-reversed (its own inverse). */
    private static long display(long n) {
        return (Integer.reverse((int) (n >>> 28)) & 0xFFFFFFFFL) << 28 | n & LOW_MASK;
    }

    /** Reads text as uid60's input function does (case-sensitive). */
    public static Uid60 parse(String text) {
        byte[] b = Codec.utf8(text);
        if (b.length != 10) {
            throw Codec.textError("uid60", text, Codec.BAD_LENGTH, 0, EXPECTED);
        }
        long m = 0;
        for (int i = 0; i < 10; i++) {
            int d = b[i] < 0 ? -1 : ALPHABET.indexOf(b[i]);
            if (d < 0) {
                throw Codec.textError("uid60", text, Codec.BAD_CHAR, i, EXPECTED);
            }
            m = m << 6 | d;
        }
        return new Uid60(display(m));
    }

    @Override
    public String sqlType() { return "uid60"; }

    /** The text form, as uid60's output function writes it. */
    @Override
    public String toString() {
        long m = display(value);
        char[] out = new char[10];
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET.charAt((int) (m & 63));
            m >>>= 6;
        }
        return new String(out);
    }

    /** Reads the binary form (a big-endian int64). */
    public static Uid60 fromBytes(byte[] data) {
        Codec.checkLength(data, "uid60", 8);
        return new Uid60(Codec.checkRange("uid60", Codec.int64(data, 0), MAX, true));
    }

    /** bigint::uid60: 0 .. 2^60 - 1, else 22003. */
    public static Uid60 fromLong(long value) { return new Uid60(Codec.checkRange("uid60", value, MAX, false)); }

    /** The binary form. */
    public byte[] toBytes() { return Codec.int64Bytes(value); }

    /** id::bigint. */
    public long toLong() { return value; }

    /** uid60_timestamp() in microseconds since 1970: its second. */
    public long unixMicros() { return CLOCK.unixMicros(value >>> 28); }

    /** uid60_timestamp(). */
    public Instant toInstant() { return Codec.instant(unixMicros()); }

    /** uid60_worker(): 0 .. 511. */
    public int worker() { return (int) (value >>> 19) & 511; }

    /** uid60_sequence(): 0 .. 1023. */
    public int sequence() { return (int) (value >>> 9) & 1023; }

    /** uid60_random(): 0 .. 511. */
    public int random() { return (int) value & 511; }

    /** The server's order: the integer's. */
    @Override
    public int compareTo(Uid60 o) { return Long.compare(value, o.value); }

    @Override
    public boolean equals(Object o) { return o instanceof Uid60 && ((Uid60) o).value == value; }

    @Override
    public int hashCode() { return Long.hashCode(value); }

    /** uid60_from_parts(): t floored to the second. */
    public static Uid60 fromParts(Instant t, int worker, int sequence, int random) {
        Codec.checkField("uid60", "worker", worker, 0, 511);
        Codec.checkField("uid60", "sequence", sequence, 0, 1023);
        Codec.checkField("uid60", "random", random, 0, 511);
        return new Uid60(CLOCK.tick(t, false) << 28 | (long) worker << 19 | (long) sequence << 9 | random);
    }

    /** uid60_boundary(): the smallest ID at or after t. */
    public static Uid60 boundary(Instant t) { return new Uid60(CLOCK.tick(t, true) << 28); }
}
