package pgkuid;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/** What the five codecs share: the server's errors, clocks and digits. */
final class Codec {
    private Codec() {}

    // What the input functions found wrong (the codecs' uid_status).
    static final int BAD_LENGTH = 0, BAD_CHAR = 1, BAD_SHAPE = 2, BAD_RESERVED = 3, OUT_OF_RANGE = 4;

    /** The text as the server sees it: positions and lengths count UTF-8 bytes. */
    /** Two values of two big-endian words each, in the order of their bytes (unsigned). */
    static int compareWords(long hi, long lo, long otherHi, long otherLo) {
        int c = Long.compareUnsigned(hi, otherHi);
        return c != 0 ? c : Long.compareUnsigned(lo, otherLo);
    }

    static byte[] utf8(String text) { return text.getBytes(StandardCharsets.UTF_8); }

    /** The error the server's T_in raises for text it refuses (badPos counts bytes from 0). */
    static UidException textError(String type, String text, int status, int badPos, String expected) {
        String hint = "Expected " + expected + ".";
        if (status == OUT_OF_RANGE) {
            return new UidException(UidException.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value \"" + text + "\" is out of range for type " + type, "", hint);
        }
        String detail;
        switch (status) {
            case BAD_CHAR: detail = "Character " + (badPos + 1) + " is not allowed here."; break;
            case BAD_LENGTH: detail = "The input is " + utf8(text).length + " characters long."; break;
            case BAD_SHAPE:
                detail = "Character " + (badPos + 1) + " is out of place: a group has the wrong number of digits.";
                break;
            default: detail = "Reserved bits are set.";
        }
        return new UidException(UidException.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + type + ": \"" + text + "\"", detail, hint);
    }

    /** The server's error for a binary value of another length. */
    static void checkLength(byte[] data, String type, int length) {
        if (data.length != length) {
            throw new UidException(UidException.INVALID_BINARY_REPRESENTATION,
                    "invalid binary length for type " + type + ": " + data.length + " bytes",
                    "A " + type + " is " + length + " bytes.", "");
        }
    }

    /** The server's 22003 for an argument outside lo..hi. */
    static void checkField(String type, String arg, long value, long lo, long hi) {
        if (value < lo || value > hi) {
            throw new UidException(UidException.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value " + value + " is out of range for argument \"" + arg + "\"",
                    "Type " + type + " takes \"" + arg + "\" from " + lo + " to " + hi + ".", "");
        }
    }

    /** The error for a value of a type whose values are 0..hi: 22P03 from binary input, 22003 from a bigint. */
    static long checkRange(String type, long value, long hi, boolean binary) {
        if (value >= 0 && value <= hi) {
            return value;
        }
        throw new UidException(binary ? UidException.INVALID_BINARY_REPRESENTATION : UidException.NUMERIC_VALUE_OUT_OF_RANGE,
                (binary ? "binary value " : "value ") + value + " is out of range for type " + type,
                "A " + type + " is between 0 and " + hi + ".", "");
    }

    /** A big-endian 64-bit integer of 8 bytes. */
    static long int64(byte[] data, int from) {
        long n = 0;
        for (int i = 0; i < 8; i++) {
            n = n << 8 | (data[from + i] & 0xFF);
        }
        return n;
    }

    /** Writes n big-endian into 8 bytes. */
    static void putInt64(byte[] out, int from, long n) {
        for (int i = 0; i < 8; i++) {
            out[from + i] = (byte) (n >>> (56 - 8 * i));
        }
    }

    static byte[] int64Bytes(long n) {
        byte[] out = new byte[8];
        putInt64(out, 0, n);
        return out;
    }

    /** The value of an ASCII hex digit of either case, or -1. */
    static int hexval(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int lower = c | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /**
     * An Instant's microseconds since 1970 as pgJDBC sends it for a
     * timestamptz parameter: rounded to the nearest microsecond, a half up
     * (pgJDBC 42.5.5's TimestampUtils.toString(OffsetDateTime) adds 1 µs when
     * the nanosecond of the second modulo 1000 exceeds 499, then drops the
     * nanoseconds). The nanosecond of the second counts forward from the
     * second's start before 1970 too, so a half rounds towards the future
     * there as well: 1969-12-31T23:59:59.9999995Z is 0.
     */
    static long micros(Instant t) {
        long seconds = t.getEpochSecond();
        int nanos = t.getNano();
        try {
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1000 + (nanos % 1000 > 499 ? 1 : 0));
        } catch (ArithmeticException e) {
            return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE; // far outside every type's range (and timestamptz's)
        }
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }

    /** A time (microseconds since 1970) as the server writes it in messages (ISO, UTC). */
    static String timestampText(long us) {
        return timestampText(Math.floorDiv(us, 1_000_000L), Math.floorMod(us, 1_000_000L));
    }

    /** A time (milliseconds since 1970, any long) as the server writes it in messages. */
    static String timestampTextMs(long ms) {
        return timestampText(Math.floorDiv(ms, 1000L), Math.floorMod(ms, 1000L) * 1000);
    }

    /**
     * seconds since 1970 and microseconds as the server writes a timestamptz
     * (UTC, DateStyle ISO): years before 1 as "BC" after the zone; ASCII
     * digits whatever the default locale.
     */
    private static String timestampText(long seconds, long frac) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        int year = t.getYear();
        boolean bc = year <= 0;
        String text = String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d", bc ? 1 - year : year, t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
        if (frac != 0) {
            String digits = String.format(Locale.ROOT, "%06d", frac).replaceAll("0+$", "");
            text += "." + digits;
        }
        return text + "+00" + (bc ? " BC" : "");
    }

    /**
     * A format's clock: ticks of tickUs microseconds from epochUs (Unix),
     * 0..tickMax (the server's UidClockSpec).
     */
    static final class Clock {
        final String type;
        final long epochUs, tickUs, tickMax;

        Clock(String type, long epochUs, long tickUs, long tickMax) {
            this.type = type;
            this.epochUs = epochUs;
            this.tickUs = tickUs;
            this.tickMax = tickMax;
        }

        /**
         * The tick that holds t (roundUp false: from_parts), or the first at
         * or after it (true: boundary; earlier times give 0); 22008 outside
         * the range.
         */
        long tick(Instant t, boolean roundUp) {
            long us = micros(t);
            if (us < epochUs) {
                if (roundUp) {
                    return 0;
                }
                throw outOfRange(us);
            }
            long rel = us - epochUs;
            long tick = rel / tickUs;
            if (roundUp && rel % tickUs != 0) {
                tick++;
            }
            if (tick > tickMax) {
                throw outOfRange(us);
            }
            return tick;
        }

        /** The start of a tick, in microseconds since 1970. */
        long unixMicros(long tick) { return epochUs + tick * tickUs; }

        UidException outOfRange(long us) {
            return new UidException(UidException.DATETIME_VALUE_OUT_OF_RANGE,
                    "timestamp out of range for type " + type + ": \"" + timestampText(us) + "\"",
                    "The range is " + timestampText(epochUs) + " to " + timestampText(epochUs + tickMax * tickUs) + ".", "");
        }
    }
}
