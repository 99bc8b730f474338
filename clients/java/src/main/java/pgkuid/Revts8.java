package pgkuid;

import java.time.Instant;
import java.util.Locale;

/**
 * A revts8 (LableOrg/java-uniqueid): 8 bytes, the millisecond timestamp
 * bit-reversed, then sequence, generator and cluster. Ordered by time
 * (timestamp, sequence, generator, cluster) as the server's default
 * revts8_ops, not by its bytes ({@link #compareBytes} gives that order).
 * Immutable.
 */
public final class Revts8 implements UidValue, Comparable<Revts8> {
    private static final long RESERVED = 0xFC00, LOW_MASK = (1L << 22) - 1, TS_MAX = (1L << 42) - 1;
    private static final String EXPECTED = "16 hexadecimal digits with bits 15 to 10 clear";
    private static final Codec.Clock CLOCK = new Codec.Clock("revts8", 0, 1000, TS_MAX);

    private final long key; // time-ordered, unsigned: timestamp << 22 | the low 22 bits

    private Revts8(long key) { this.key = key; }

    /** The ID of the canonical 64 bits, or the error for reserved bits set in a value from source ("binary", "bigint"). */
    private static Revts8 of(long canonical, String source) {
        if ((canonical & RESERVED) != 0) {
            throw new UidException(source.equals("binary") ? UidException.INVALID_BINARY_REPRESENTATION
                    : UidException.NUMERIC_VALUE_OUT_OF_RANGE,
                    "invalid " + source + " value for type revts8: reserved bits are set",
                    String.format(Locale.ROOT, "Bits 15 to 10 of a revts8 must be zero; the value is %016x.", canonical), "");
        }
        return new Revts8((Long.reverse(canonical) & TS_MAX) << 22 | canonical & LOW_MASK);
    }

    /** Reads text as revts8's input function does (either case). */
    public static Revts8 parse(String text) {
        byte[] b = Codec.utf8(text);
        if (b.length != 16) {
            throw Codec.textError("revts8", text, Codec.BAD_LENGTH, 0, EXPECTED);
        }
        long canonical = 0;
        for (int i = 0; i < 16; i++) {
            int d = Codec.hexval(b[i]);
            if (d < 0) {
                throw Codec.textError("revts8", text, Codec.BAD_CHAR, i, EXPECTED);
            }
            canonical = canonical << 4 | d;
        }
        if ((canonical & RESERVED) != 0) {
            throw Codec.textError("revts8", text, Codec.BAD_RESERVED, 0, EXPECTED);
        }
        return of(canonical, "");
    }

    private long canonical() { return Long.reverse(key >>> 22) | key & LOW_MASK; }

    @Override
    public String sqlType() { return "revts8"; }

    /** The text form: the 8 bytes in lower-case hex. */
    @Override
    public String toString() { return String.format(Locale.ROOT, "%016x", canonical()); }

    /** Reads the 8-byte binary form. */
    public static Revts8 fromBytes(byte[] data) {
        Codec.checkLength(data, "revts8", 8);
        return of(Codec.int64(data, 0), "binary");
    }

    /** bigint::revts8: the bytes as a signed big-endian integer. */
    public static Revts8 fromLong(long value) { return of(value, "bigint"); }

    /** The binary form. */
    public byte[] toBytes() { return Codec.int64Bytes(canonical()); }

    /** id::bigint: the bytes as a signed big-endian integer. */
    public long toLong() { return canonical(); }

    /** revts8_timestamp() in microseconds since 1970: its millisecond. */
    public long unixMicros() { return CLOCK.unixMicros(key >>> 22); }

    /** revts8_timestamp(). */
    public Instant toInstant() { return Codec.instant(unixMicros()); }

    /** revts8_sequence(): 0 .. 63. */
    public int sequence() { return (int) (key >>> 16) & 63; }

    /** revts8_generator(): 0 .. 63. */
    public int generator() { return (int) (key >>> 4) & 63; }

    /** revts8_cluster(): 0 .. 15. */
    public int cluster() { return (int) key & 15; }

    /** The server's default order: time (timestamp, sequence, generator, cluster). */
    @Override
    public int compareTo(Revts8 o) { return Long.compareUnsigned(key, o.key); }

    /** The order of revts8_bytes_ops: the bytes'. */
    public int compareBytes(Revts8 o) { return Long.compareUnsigned(canonical(), o.canonical()); }

    @Override
    public boolean equals(Object o) { return o instanceof Revts8 && ((Revts8) o).key == key; }

    @Override
    public int hashCode() { return Long.hashCode(key); }

    /** revts8_from_parts(): t floored to the millisecond. */
    public static Revts8 fromParts(Instant t, int sequence, int generator, int cluster) {
        Codec.checkField("revts8", "sequence", sequence, 0, 63);
        Codec.checkField("revts8", "generator", generator, 0, 63);
        Codec.checkField("revts8", "cluster", cluster, 0, 15);
        return new Revts8(CLOCK.tick(t, false) << 22 | (long) sequence << 16 | (long) generator << 4 | cluster);
    }

    /** revts8_boundary(): the smallest ID in time order at or after t. */
    public static Revts8 boundary(Instant t) { return new Revts8(CLOCK.tick(t, true) << 22); }
}
