package pgkuid;

import java.time.Instant;

/**
 * A snowflake_si (Snowflake-SI): a 53-bit integer, milliseconds after a
 * base clock, machine id and index. Ordered as the integer, as the server's
 * default btree. Immutable.
 *
 * <p>A value carries the {@link Layout} it was read with, for its time,
 * machine and index. {@link #equals} compares the layout too, and so,
 * consistently with it, does {@link #compareTo}: first the integer (the
 * server's order), then, for the same integer, the layout's base clock and
 * then its index width (as the Rust crate orders them). Values of one
 * layout are thus ordered exactly as the server orders them; a TreeSet and
 * a HashSet keep the same values apart.
 */
public final class SnowflakeSi implements UidValue, Comparable<SnowflakeSi> {
    private static final long MAX = (1L << 53) - 1, MAB_MAX = (1L << 40) - 1;
    private static final long EPOCH_MIN_MS = 1047972019225L; // 2003-03-18 07:20:19.225+00
    /**
     * The last base clock whose clock, to its 40-bit end, has its
     * microseconds in a long: 294212-03-08 08:07:07+00, the server's last
     * too (SNOWFLAKE_SI_EPOCH_MAX_MS), which refuses later ones with its
     * 22023 for a base clock.
     */
    private static final long EPOCH_MAX_MS = Long.MAX_VALUE / 1000 - MAB_MAX;
    private static final String EXPECTED = "a decimal integer from 0 to 9007199254740991";

    /**
     * What the server reads from {@code uid.snowflake_si_epoch} and
     * {@code uid.snowflake_si_index_bits} to take a snowflake_si apart: the
     * base clock in milliseconds since 1970 and the index width. A client
     * cannot read them by itself; {@link #DEFAULT} is the settings' defaults
     * (2024-01-01 and 8). Making one the server refuses throws its error
     * (22023 for the base clock, 22003 for the width): a base clock from
     * 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00 (the last
     * whose clock fits a 64-bit microsecond count) is taken.
     */
    public record Layout(long epochUnixMs, int indexBits) {
        /** The settings' defaults: 2024-01-01T00:00:00Z and 8. */
        public static final Layout DEFAULT = new Layout(1704067200000L, 8);

        public Layout {
            if (epochUnixMs < EPOCH_MIN_MS || epochUnixMs > EPOCH_MAX_MS) {
                throw badEpoch(Codec.timestampTextMs(epochUnixMs));
            }
            Codec.checkField("snowflake_si", "index_bits", indexBits, 1, 13);
        }

        /**
         * The layout of a base clock given as a time, as the server receives
         * it from pgJDBC 42.5: rounded to the nearest microsecond (a half
         * up), which must then be a whole number of milliseconds (so
         * 2024-01-01T00:00:00.0009995Z is 2024-01-01 00:00:00.001).
         */
        public static Layout of(Instant epoch, int indexBits) {
            long us = Codec.micros(epoch);
            if (us % 1000 != 0) {
                throw badEpoch(Codec.timestampText(us));
            }
            return new Layout(us / 1000, indexBits);
        }

        private static UidException badEpoch(String text) {
            return new UidException(UidException.INVALID_PARAMETER_VALUE,
                    "invalid snowflake_si base clock: \"" + text + "\"",
                    "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.", "");
        }

        /** The base clock as a time. */
        public Instant epoch() { return Instant.ofEpochMilli(epochUnixMs); }

        /** Reads decimal text under this layout (white space around it and leading zeros allowed, as for bigint). */
        public SnowflakeSi parse(String text) {
            byte[] b = Codec.utf8(text);
            int start = 0, end = b.length;
            while (start < end && isSpace(b[start])) {
                start++;
            }
            while (end > start && isSpace(b[end - 1])) {
                end--;
            }
            if (start == end) {
                throw Codec.textError("snowflake_si", text, Codec.BAD_CHAR, b.length, EXPECTED);
            }
            for (int i = start; i < end; i++) {
                if (b[i] < '0' || b[i] > '9') {
                    throw Codec.textError("snowflake_si", text, Codec.BAD_CHAR, i, EXPECTED);
                }
            }
            while (start < end - 1 && b[start] == '0') {
                start++;
            }
            long value = end - start > 16 ? -1 : Long.parseLong(new String(b, start, end - start, java.nio.charset.StandardCharsets.US_ASCII));
            if (value < 0 || value > MAX) {
                throw Codec.textError("snowflake_si", text, Codec.OUT_OF_RANGE, 0, EXPECTED);
            }
            return new SnowflakeSi(value, this);
        }

        private static boolean isSpace(byte c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

        /** Reads the binary form (a big-endian int64) under this layout. */
        public SnowflakeSi fromBytes(byte[] data) {
            Codec.checkLength(data, "snowflake_si", 8);
            return new SnowflakeSi(Codec.checkRange("snowflake_si", Codec.int64(data, 0), MAX, true), this);
        }

        /** bigint::snowflake_si under this layout: 0 .. 2^53 - 1, else 22003. */
        public SnowflakeSi fromLong(long value) {
            return new SnowflakeSi(Codec.checkRange("snowflake_si", value, MAX, false), this);
        }

        private Codec.Clock clock() {
            return new Codec.Clock("snowflake_si", Math.multiplyExact(epochUnixMs, 1000L), 1000, MAB_MAX);
        }

        /** snowflake_si_from_parts(t, machine, index, epoch, index_bits): t floored to the millisecond. */
        public SnowflakeSi fromParts(Instant t, int machine, int index) {
            Codec.checkField("snowflake_si", "machine", machine, 0, (1 << (13 - indexBits)) - 1);
            Codec.checkField("snowflake_si", "index", index, 0, (1 << indexBits) - 1);
            long mab = clock().tick(t, false);
            return new SnowflakeSi(mab << 13 | (long) machine << indexBits | index, this);
        }

        /** snowflake_si_boundary() on a server whose base clock is this layout's (the width only goes with the result). */
        public SnowflakeSi boundary(Instant t) { return new SnowflakeSi(clock().tick(t, true) << 13, this); }
    }

    private final long value;
    private final Layout layout;

    private SnowflakeSi(long value, Layout layout) {
        this.value = value;
        this.layout = layout;
    }

    /** Reads decimal text with the default layout. */
    public static SnowflakeSi parse(String text) { return Layout.DEFAULT.parse(text); }

    @Override
    public String sqlType() { return "snowflake_si"; }

    /** The text form: the decimal integer. */
    @Override
    public String toString() { return Long.toString(value); }

    /** Reads the binary form (a big-endian int64) with the default layout. */
    public static SnowflakeSi fromBytes(byte[] data) { return Layout.DEFAULT.fromBytes(data); }

    /** The binary form. */
    public byte[] toBytes() { return Codec.int64Bytes(value); }

    /** bigint::snowflake_si with the default layout: 0 .. 2^53 - 1, else 22003. */
    public static SnowflakeSi fromLong(long value) { return Layout.DEFAULT.fromLong(value); }

    /** id::bigint. */
    public long toLong() { return value; }

    /** The layout the value was read with. */
    public Layout layout() { return layout; }

    /** The same ID under another layout. */
    public SnowflakeSi withLayout(Layout l) { return new SnowflakeSi(value, java.util.Objects.requireNonNull(l)); }

    /** snowflake_si_timestamp(id, epoch) in microseconds since 1970: the start of its millisecond. */
    public long unixMicros() { return (layout.epochUnixMs() + (value >>> 13)) * 1000; }

    /** snowflake_si_timestamp(id, epoch). */
    public Instant toInstant() { return Codec.instant(unixMicros()); }

    /** snowflake_si_machine(id, index_bits). */
    public int machine() { return (int) (value >>> layout.indexBits()) & ((1 << (13 - layout.indexBits())) - 1); }

    /** snowflake_si_index(id, index_bits). */
    public int index() { return (int) value & ((1 << layout.indexBits()) - 1); }

    /**
     * The server's order, the integer's; for the same integer under other
     * layouts, the earlier base clock and then the narrower index first
     * (consistent with {@link #equals}).
     */
    @Override
    public int compareTo(SnowflakeSi o) {
        int c = Long.compare(value, o.value);
        if (c == 0) {
            c = Long.compare(layout.epochUnixMs(), o.layout.epochUnixMs());
        }
        return c != 0 ? c : Integer.compare(layout.indexBits(), o.layout.indexBits());
    }

    /** The same integer under the same layout. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SnowflakeSi && ((SnowflakeSi) o).value == value && ((SnowflakeSi) o).layout.equals(layout);
    }

    @Override
    public int hashCode() { return Long.hashCode(value); }

    /** snowflake_si_from_parts() with the default layout. */
    public static SnowflakeSi fromParts(Instant t, int machine, int index) { return Layout.DEFAULT.fromParts(t, machine, index); }

    /** snowflake_si_boundary() on a server with the default layout. */
    public static SnowflakeSi boundary(Instant t) { return Layout.DEFAULT.boundary(t); }
}
