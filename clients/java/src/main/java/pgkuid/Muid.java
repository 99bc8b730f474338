package pgkuid;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * A muid (Gink): 16 bytes; microseconds since 1970, medallion and the
 * offset within its transaction. Ordered by its bytes, as the server's
 * default btree. Immutable.
 */
public final class Muid implements UidValue, Comparable<Muid> {
    // the all-ones timestamp is Gink's sentinel, not a time from_parts takes
    private static final Codec.Clock CLOCK = new Codec.Clock("muid", 0, 1, (1L << 52) - 2);
    private static final long MEDALLION_MAX = (1L << 44) - 1;
    private static final String EXPECTED = "hex digits in groups of 13, 11 and 8 joined by dashes"
            + " (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups";
    private static final int[] WIDTHS = {13, 11, 8};

    private final long hi, lo;

    private Muid(long hi, long lo) {
        this.hi = hi;
        this.lo = lo;
    }

    private static Muid of(long ts, long medallion, int offset) {
        return new Muid(ts << 12 | medallion >>> 32, medallion << 32 | (offset & 0xFFFFFFFFL));
    }

    /** Reads text as muid's input function does (either case, and the two short forms). */
    public static Muid parse(String text) {
        byte[] b = Codec.utf8(text);
        int groups = b.length == 34 ? 3 : b.length == 25 ? 2 : b.length == 13 ? 1 : 0;
        if (groups == 0) {
            throw Codec.textError("muid", text, Codec.BAD_LENGTH, 0, EXPECTED);
        }
        long[] values = new long[3];
        int pos = 0;
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                if (b[pos] != '-') {
                    int status = Codec.hexval(b[pos]) >= 0 ? Codec.BAD_SHAPE : Codec.BAD_CHAR;
                    throw Codec.textError("muid", text, status, pos, EXPECTED);
                }
                pos++;
            }
            for (int i = 0; i < WIDTHS[g]; i++, pos++) {
                int d = Codec.hexval(b[pos]);
                if (d < 0) {
                    int status = b[pos] == '-' ? Codec.BAD_SHAPE : Codec.BAD_CHAR;
                    throw Codec.textError("muid", text, status, pos, EXPECTED);
                }
                values[g] = values[g] << 4 | d;
            }
        }
        return of(values[0], values[1], (int) values[2]);
    }

    @Override
    public String sqlType() { return "muid"; }

    /** The text form, as muid's output function writes it. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%013X-%011X-%08X", ts(), medallion(), offset());
    }

    /** Reads the 16-byte binary form. */
    public static Muid fromBytes(byte[] data) {
        Codec.checkLength(data, "muid", 16);
        return new Muid(Codec.int64(data, 0), Codec.int64(data, 8));
    }

    /** The binary form (also muid::uuid's 16 bytes). */
    public byte[] toBytes() {
        byte[] out = new byte[16];
        Codec.putInt64(out, 0, hi);
        Codec.putInt64(out, 8, lo);
        return out;
    }

    /** uuid::muid: the same 16 bytes. */
    public static Muid fromUUID(UUID u) { return new Muid(u.getMostSignificantBits(), u.getLeastSignificantBits()); }

    /** muid::uuid: the same 16 bytes. */
    public UUID toUUID() { return new UUID(hi, lo); }

    private long ts() { return hi >>> 12; }

    /** muid_timestamp() in microseconds since 1970. */
    public long unixMicros() { return CLOCK.unixMicros(ts()); }

    /** muid_timestamp(). */
    public Instant toInstant() { return Codec.instant(unixMicros()); }

    /** muid_medallion(): 0 .. 2^44 - 1. */
    public long medallion() { return (hi & 0xFFF) << 32 | lo >>> 32; }

    /** muid_offset(): signed, -1 is FFFFFFFF. */
    public int offset() { return (int) lo; }

    /** The server's order: the bytes'. */
    @Override
    public int compareTo(Muid o) {
        return Codec.compareWords(hi, lo, o.hi, o.lo);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Muid && ((Muid) o).hi == hi && ((Muid) o).lo == lo;
    }

    @Override
    public int hashCode() { return Long.hashCode(hi * 31 + lo); }

    /** muid_from_parts(): t to the nearest microsecond (a half up), as pgJDBC sends it. */
    public static Muid fromParts(Instant t, long medallion, int offset) {
        Codec.checkField("muid", "medallion", medallion, 0, MEDALLION_MAX);
        return of(CLOCK.tick(t, false), medallion, offset);
    }

    /** muid_boundary(): the smallest muid at or after t. */
    public static Muid boundary(Instant t) { return of(CLOCK.tick(t, true), 0, 0); }
}
