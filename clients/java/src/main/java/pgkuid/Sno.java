package pgkuid;

import java.time.Instant;

/**
 * A sno (muyo/sno): 10 bytes; time in 4 ms units since 2010, the tick-tock
 * bit, meta, partition and sequence. Ordered by its bytes, as the server's
 * default btree. Immutable.
 */
public final class Sno implements UidValue, Comparable<Sno> {
    private static final String ALPHABET = "23456789abcdefghijklmnopqrstuvwx";
    private static final String EXPECTED = "16 characters of 2-9 and a-x";
    private static final Codec.Clock CLOCK = new Codec.Clock("sno", 1262304000000000L, 4000, (1L << 39) - 1);
    private static final int[] DIGITS = new int[256];

    static {
        java.util.Arrays.fill(DIGITS, -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            char c = ALPHABET.charAt(i);
            DIGITS[c] = i;
            if (c >= 'a') {
                DIGITS[c - 'a' + 'A'] = i;
            }
        }
    }

    private final long hi, lo; // the 80 bits: hi holds the top 16

    private Sno(long hi, long lo) {
        this.hi = hi;
        this.lo = lo;
    }

    /** Reads text as sno's input function does (upper case accepted). */
    public static Sno parse(String text) {
        byte[] b = Codec.utf8(text);
        if (b.length != 16) {
            throw Codec.textError("sno", text, Codec.BAD_LENGTH, 0, EXPECTED);
        }
        long hi = 0, lo = 0;
        for (int i = 0; i < 16; i++) {
            int d = DIGITS[b[i] & 0xFF];
            if (d < 0) {
                throw Codec.textError("sno", text, Codec.BAD_CHAR, i, EXPECTED);
            }
            hi = hi << 5 | lo >>> 59;
            lo = lo << 5 | d;
        }
        return new Sno(hi, lo);
    }

    @Override
    public String sqlType() { return "sno"; }

    /** The text form, as sno's output function writes it. */
    @Override
    public String toString() {
        char[] out = new char[16];
        long h = hi, l = lo;
        for (int i = 15; i >= 0; i--) {
            out[i] = ALPHABET.charAt((int) (l & 31));
            l = l >>> 5 | h << 59;
            h >>>= 5;
        }
        return new String(out);
    }

    /** Reads the 10-byte binary form (send/recv). */
    public static Sno fromBytes(byte[] data) {
        Codec.checkLength(data, "sno", 10);
        return new Sno((data[0] & 0xFF) << 8 | (data[1] & 0xFF), Codec.int64(data, 2));
    }

    /** The binary form. */
    public byte[] toBytes() {
        byte[] out = new byte[10];
        out[0] = (byte) (hi >>> 8);
        out[1] = (byte) hi;
        Codec.putInt64(out, 2, lo);
        return out;
    }

    private long units() { return hi << 23 | lo >>> 41; }

    /** sno_timestamp() in microseconds since 1970: the start of its 4 ms unit. */
    public long unixMicros() { return CLOCK.unixMicros(units()); }

    /** sno_timestamp(). */
    public Instant toInstant() { return Codec.instant(unixMicros()); }

    /** sno_tick(): the tick-tock bit. */
    public int tick() { return (int) (lo >>> 40) & 1; }

    /** sno_meta(): the metabyte. */
    public int meta() { return (int) (lo >>> 32) & 0xFF; }

    /** sno_partition(). */
    public int partition() { return (int) (lo >>> 16) & 0xFFFF; }

    /** sno_sequence(). */
    public int sequence() { return (int) lo & 0xFFFF; }

    /** The server's order: the bytes'. */
    @Override
    public int compareTo(Sno o) {
        return Codec.compareWords(hi, lo, o.hi, o.lo);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sno && ((Sno) o).hi == hi && ((Sno) o).lo == lo;
    }

    @Override
    public int hashCode() { return Long.hashCode(hi * 31 + lo); }

    private static Sno of(long units, int tick, int meta, int partition, int sequence) {
        return new Sno(units >>> 23, units << 41 | (long) tick << 40 | (long) meta << 32 | (long) partition << 16 | sequence);
    }

    /** sno_from_parts(): t floored to 4 ms; the same checks and errors. */
    public static Sno fromParts(Instant t, int meta, int partition, int sequence, int tick) {
        Codec.checkField("sno", "meta", meta, 0, 255);
        Codec.checkField("sno", "partition", partition, 0, 0xFFFF);
        Codec.checkField("sno", "sequence", sequence, 0, 0xFFFF);
        Codec.checkField("sno", "tick", tick, 0, 1);
        return of(CLOCK.tick(t, false), tick, meta, partition, sequence);
    }

    /** sno_boundary(): the smallest sno at or after t. */
    public static Sno boundary(Instant t) { return of(CLOCK.tick(t, true), 0, 0, 0, 0); }
}
