package pgkuid.test;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

import pgkuid.Muid;
import pgkuid.Revts8;
import pgkuid.SnowflakeSi;
import pgkuid.Sno;
import pgkuid.UidException;
import pgkuid.Uid60;
import pgkuid.UidValue;
import pgkuid.pgjdbc.PgId;
import pgkuid.pgjdbc.PgSno;
import pgkuid.pgjdbc.PgUid;

/** The value classes against the shared vectors, offline; the server's messages, order, and the adapter objects. */
final class OfflineTests {
    private final Check check;

    OfflineTests(Check check) { this.check = check; }

    void run() throws Exception {
        Map<String, Object> vectors = Kinds.vectors();
        ids(Kinds.list(vectors, "ids"));
        refused(Kinds.list(vectors, "refused"));
        messages();
        Locale saved = Locale.getDefault();
        try {
            // digits of other scripts by default: the messages stay ASCII
            for (String tag : List.of("th-TH-u-nu-thai", "ar-SA")) {
                Locale.setDefault(Locale.forLanguageTag(tag));
                messages();
                check.eq(Muid.parse("5D5EAC793E61F-1BFC71B112D-0000000B").toString(), "5D5EAC793E61F-1BFC71B112D-0000000B",
                        "muid text under the locale " + tag);
            }
        } finally {
            Locale.setDefault(saved);
        }
        layouts();
        rounding();
        order();
        adapter();
    }

    /**
     * Every ID reads from its input to the vector's text, bytes, fields,
     * time and bigint; its text and bytes read back to it; fromParts of its
     * fields and time gives it back (a muid with the all-ones sentinel
     * time excepted, as the server refuses that time).
     */
    private void ids(List<Map<String, Object>> ids) {
        Map<String, Integer> types = new TreeMap<>();
        for (Map<String, Object> v : ids) {
            String type = (String) v.get("type"), name = type + " " + v.get("input");
            types.merge(type, 1, Integer::sum);
            UidValue x;
            try {
                x = Kinds.read(v);
            } catch (UidException e) {
                check.that(false, name + ": refused: " + e.getMessage());
                continue;
            }
            check.eq(x.sqlType(), type, name + ": sqlType");
            check.eq(x.toString(), v.get("text"), name + ": text");
            check.eq(Kinds.hex(x.toBytes()), v.get("bytes"), name + ": bytes");
            check.eq(x.unixMicros(), v.get("unix_us"), name + ": unix_us");
            check.eq(x.toInstant(), Instant.parse((String) v.get("timestamp")), name + ": time");
            Map<String, Long> fields = Kinds.fields(x);
            check.eq(fields.keySet(), Kinds.ACCESSORS.get(type).stream().collect(java.util.stream.Collectors.toSet()),
                    name + ": field names");
            for (String f : Kinds.ACCESSORS.get(type)) {
                check.eq(fields.get(f), v.get(f), name + ": " + f);
            }
            check.eq(Kinds.bigint(x), v.get("bigint"), name + ": bigint");
            check.eq(Kinds.parse(type, x.toString(), Kinds.layout(v)), x, name + ": its text read back");
            check.eq(Kinds.fromBytes(type, x.toBytes(), Kinds.layout(v)), x, name + ": its bytes read back");
            if (x instanceof Muid m) {
                UUID u = m.toUUID();
                check.eq(u.toString(), v.get("uuid"), name + ": uuid");
                check.eq(Muid.fromUUID(u), m, name + ": from its uuid");
                if (m.unixMicros() == (1L << 52) - 1) {
                    continue; // Gink's sentinel time: muid_from_parts() refuses it
                }
            }
            if (x instanceof Revts8 r) {
                check.eq(Revts8.fromLong(r.toLong()), r, name + ": fromLong");
            } else if (x instanceof Uid60 u) {
                check.eq(Uid60.fromLong(u.toLong()), u, name + ": fromLong");
            } else if (x instanceof SnowflakeSi f) {
                check.eq(f.layout().fromLong(f.toLong()), f, name + ": fromLong");
            }
            try {
                check.eq(Kinds.fromParts(x), x, name + ": from its parts");
            } catch (UidException e) {
                check.that(false, name + ": from its parts: " + e.getMessage());
            }
        }
        check.eq(types.keySet(), new java.util.TreeSet<>(Kinds.TYPES), "the vectors' types " + types);
    }

    /** Every refused input is the server's 22P02 or 22003 with its message. */
    private void refused(List<Map<String, Object>> refused) {
        check.that(!refused.isEmpty(), "the vectors have refused inputs");
        for (Map<String, Object> v : refused) {
            String type = (String) v.get("type"), input = (String) v.get("input");
            String name = type + " \"" + input + "\"";
            try {
                UidValue x = Kinds.read(v);
                check.that(false, name + ": read as " + x + ", want the server's error");
            } catch (UidException e) {
                String want = e.getSQLState().equals("22P02") ? "invalid input syntax for type " + type + ": \"" + input + "\""
                        : "value \"" + input + "\" is out of range for type " + type;
                check.that(e.getSQLState().equals("22P02") || e.getSQLState().equals("22003"),
                        name + ": SQLSTATE " + e.getSQLState() + ", want 22P02 or 22003");
                check.eq(e.getMessage(), want, name + ": message");
                check.that(e.getHint().startsWith("Expected "), name + ": hint " + e.getHint());
            }
        }
    }

    /** what's result, or its refusal's message (so that a check fails rather than the tests). */
    private static Object got(Supplier<?> what) {
        try {
            return what.get();
        } catch (UidException e) {
            return "refused: " + e.getMessage();
        }
    }

    /** The refusal of what, in full. */
    private void refusal(Supplier<?> what, String code, String message, String detail, String hint) {
        try {
            Object x = what.get();
            check.that(false, "made " + x + ", want " + code + " " + message);
        } catch (UidException e) {
            check.eq(List.of(e.getSQLState(), e.getMessage(), e.getDetail(), e.getHint()),
                    List.of(code, message, detail, hint), "the refusal " + message);
        } catch (RuntimeException e) {
            check.that(false, "threw " + e + ", want " + code + " " + message);
        }
    }

    /** The server's SQLSTATE, message, DETAIL and HINT (as server_test.go and regress expect them). */
    private void messages() {
        Instant now = Instant.now();
        refusal(() -> Sno.parse("brpk4q72xwf2m63"), "22P02", "invalid input syntax for type sno: \"brpk4q72xwf2m63\"",
                "The input is 15 characters long.", "Expected 16 characters of 2-9 and a-x.");
        refusal(() -> Muid.parse("5D5EAC793E61F1-BFC71B112D-0000000B"), "22P02",
                "invalid input syntax for type muid: \"5D5EAC793E61F1-BFC71B112D-0000000B\"",
                "Character 14 is out of place: a group has the wrong number of digits.",
                "Expected hex digits in groups of 13, 11 and 8 joined by dashes (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO),"
                        + " or the first one or two groups.");
        refusal(() -> SnowflakeSi.parse("9007199254740992"), "22003",
                "value \"9007199254740992\" is out of range for type snowflake_si", "",
                "Expected a decimal integer from 0 to 9007199254740991.");
        refusal(() -> Uid60.fromLong(1L << 60), "22003", "value 1152921504606846976 is out of range for type uid60",
                "A uid60 is between 0 and 1152921504606846975.", "");
        refusal(() -> Revts8.fromBytes(new byte[] {0, 0, 0, 0, 0, 0, 4, 0}), "22P03",
                "invalid binary value for type revts8: reserved bits are set",
                "Bits 15 to 10 of a revts8 must be zero; the value is 0000000000000400.", "");
        refusal(() -> Sno.fromBytes(new byte[9]), "22P03", "invalid binary length for type sno: 9 bytes",
                "A sno is 10 bytes.", "");
        refusal(() -> Sno.fromParts(Instant.parse("2009-12-31T23:59:59Z"), 0, 0, 0, 0), "22008",
                "timestamp out of range for type sno: \"2009-12-31 23:59:59+00\"",
                "The range is 2010-01-01 00:00:00+00 to 2079-09-07 15:47:35.548+00.", "");
        refusal(() -> Uid60.fromParts(now, 512, 0, 0), "22003", "value 512 is out of range for argument \"worker\"",
                "Type uid60 takes \"worker\" from 0 to 511.", "");
        refusal(() -> new SnowflakeSi.Layout(SnowflakeSi.Layout.DEFAULT.epochUnixMs(), 14), "22003",
                "value 14 is out of range for argument \"index_bits\"", "Type snowflake_si takes \"index_bits\" from 1 to 13.", "");
        refusal(() -> SnowflakeSi.Layout.of(Instant.parse("2024-01-01T00:00:00.0005Z"), 8), "22023",
                "invalid snowflake_si base clock: \"2024-01-01 00:00:00.0005+00\"",
                "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.", "");
    }

    /**
     * A base clock is refused below the server's least and above the last
     * whose clock fits a microsecond count in a long, in the server's words
     * (22023), with the time written right at both ends; the largest taken
     * works to the end of its clock.
     */
    private void layouts() {
        String detail = "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.";
        refusal(() -> new SnowflakeSi.Layout(1047972019224L, 8), "22023",
                "invalid snowflake_si base clock: \"2003-03-18 07:20:19.224+00\"", detail, "");
        check.eq(got(() -> new SnowflakeSi.Layout(1047972019225L, 8).epoch()), Instant.parse("2003-03-18T07:20:19.225Z"),
                "the least base clock");
        refusal(() -> new SnowflakeSi.Layout(Long.MIN_VALUE, 8), "22023",
                "invalid snowflake_si base clock: \"292275056-05-16 16:47:04.192+00 BC\"", detail, "");
        refusal(() -> SnowflakeSi.Layout.of(Instant.parse("-3999-01-01T00:00:00Z"), 8), "22023",
                "invalid snowflake_si base clock: \"4000-01-01 00:00:00+00 BC\"", detail, "");
        long max = Long.MAX_VALUE / 1000 - ((1L << 40) - 1);
        refusal(() -> new SnowflakeSi.Layout(max + 1, 8), "22023",
                "invalid snowflake_si base clock: \"294212-03-08 08:07:07.001+00\"", detail, "");
        refusal(() -> new SnowflakeSi.Layout(18_448_448_000_000_000L, 8).fromParts(Instant.parse("2026-01-01T00:00:00Z"), 0, 0),
                "22023", "invalid snowflake_si base clock: \"586578-01-16 16:53:20+00\"", detail, "");
        refusal(() -> new SnowflakeSi.Layout(Long.MAX_VALUE, 8), "22023",
                "invalid snowflake_si base clock: \"292278994-08-17 07:12:55.807+00\"", detail, "");
        SnowflakeSi.Layout last = new SnowflakeSi.Layout(max, 8);
        SnowflakeSi end = last.fromParts(Instant.ofEpochMilli(max + ((1L << 40) - 1)), 31, 255);
        check.eq(got(() -> end.toLong()), (1L << 53) - 1, "the last base clock: its clock's end");
        check.eq(got(() -> end.toInstant()), Instant.ofEpochMilli(max + ((1L << 40) - 1)), "the last base clock: the end's time");
        refusal(() -> last.fromParts(Instant.parse("2026-01-01T00:00:00Z"), 0, 0), "22008",
                "timestamp out of range for type snowflake_si: \"2026-01-01 00:00:00+00\"",
                "The range is 294212-03-08 08:07:07+00 to 294247-01-10 04:00:54.775+00.", "");
        check.eq(got(() -> last.boundary(Instant.ofEpochMilli(max + ((1L << 40) - 1))).toLong()), ((1L << 40) - 1) << 13,
                "the last base clock: the boundary at its clock's end");
    }

    /**
     * Times count as pgJDBC 42.5.5 sends them, rounded to the nearest
     * microsecond, a half up (nanoseconds modulo 1000 above 499), before
     * 1970 too.
     */
    private void rounding() {
        Instant at = Instant.parse("2026-11-01T00:00:00Z");
        check.eq(got(() -> Muid.fromParts(at.plusNanos(499), 0, 0).unixMicros()), at.toEpochMilli() * 1000, "muid: 499 ns round down");
        check.eq(got(() -> Muid.fromParts(at.plusNanos(500), 0, 0).unixMicros()), at.toEpochMilli() * 1000 + 1, "muid: 500 ns round up");
        check.eq(got(() -> Muid.fromParts(at.plusNanos(1999), 0, 0).unixMicros()), at.toEpochMilli() * 1000 + 2, "muid: 1999 ns round up");
        check.eq(got(() -> Muid.fromParts(Instant.ofEpochSecond(-1, 999_999_500), 0, 0).unixMicros()), 0L,
                "muid: 1969-12-31T23:59:59.9999995Z rounds up to 1970");
        check.eq(got(() -> Sno.boundary(at.minusNanos(500))), Sno.boundary(at), "sno: a boundary 500 ns before a tick is at it");
        check.eq(got(() -> Sno.boundary(at.minusNanos(501))), Sno.boundary(at), "sno: 501 ns before a tick");
        check.eq(got(() -> Sno.fromParts(at.minusNanos(500), 0, 0, 0, 0).unixMicros()), at.toEpochMilli() * 1000,
                "sno: from_parts 500 ns before a tick is in it");
        check.that(Sno.fromParts(at.minusNanos(501), 0, 0, 0, 0).unixMicros() < at.toEpochMilli() * 1000,
                "sno: from_parts 501 ns before a tick is in the one before");
        check.eq(got(() -> SnowflakeSi.Layout.of(Instant.parse("2024-01-01T00:00:00.0009995Z"), 8).epochUnixMs()), 1704067200001L,
                "snowflake_si: a base clock that rounds to a whole millisecond");
        refusal(() -> SnowflakeSi.Layout.of(Instant.parse("2024-01-01T00:00:00.0004995Z"), 8), "22023",
                "invalid snowflake_si base clock: \"2024-01-01 00:00:00.0005+00\"",
                "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.", "");
    }

    /**
     * revts8's time order is not its bytes'; a boundary is after every ID
     * of an earlier tick; snowflake_si orders by the integer, then the
     * layout.
     */
    private void order() {
        Instant at = Instant.parse("2026-11-01T00:00:00Z");
        Revts8 early = Revts8.fromParts(at, 63, 0, 0), late = Revts8.fromParts(at.plusMillis(1), 0, 0, 0);
        check.that(early.compareTo(late) < 0, "revts8: time order");
        Revts8 one = Revts8.fromParts(Instant.ofEpochMilli(1), 0, 0, 0), two = Revts8.fromParts(Instant.ofEpochMilli(2), 0, 0, 0);
        check.that(one.compareTo(two) < 0 && one.compareBytes(two) > 0
                && java.util.Arrays.compareUnsigned(one.toBytes(), two.toBytes()) > 0,
                "revts8: 1 ms and 2 ms: before in time, after in bytes (" + one + ", " + two + ")");
        check.that(one.compareBytes(one) == 0 && two.compareBytes(one) < 0, "revts8: compareBytes of 2 ms and 1 ms");
        // sno and muid: two words each, the first (high) word decides before the second
        Sno snoLow = Sno.fromBytes(Kinds.unhex("0000ffffffffffffffff")), snoHigh = Sno.fromBytes(Kinds.unhex("00010000000000000000"));
        check.that(snoLow.compareTo(snoHigh) < 0 && snoHigh.compareTo(snoLow) > 0,
                "sno: the first bytes decide (" + snoLow + " before " + snoHigh + ")");
        Muid muidLow = Muid.fromBytes(Kinds.unhex("00000000000000007fffffffffffffff")),
                muidHigh = Muid.fromBytes(Kinds.unhex("00000000000000018000000000000000"));
        check.that(muidLow.compareTo(muidHigh) < 0 && muidHigh.compareTo(muidLow) > 0,
                "muid: the first bytes decide (" + muidLow + " before " + muidHigh + ")");
        Sno b = Sno.boundary(at.plusNanos(1000)), x = Sno.fromParts(at, 255, 65535, 65535, 1);
        check.that(x.compareTo(b) < 0, "sno: " + x + " is before the boundary " + b);
        check.eq(b.unixMicros(), at.toEpochMilli() * 1000 + 4000, "sno: the boundary's time");
        check.eq(Sno.boundary(at.plusNanos(499)), Sno.boundary(at), "sno: 499 ns round down to the microsecond");
        check.eq(Sno.boundary(at.plusNanos(500)), b, "sno: 500 ns round up to the microsecond");
        SnowflakeSi f = SnowflakeSi.fromLong(8192), g = f.withLayout(new SnowflakeSi.Layout(1072915200000L, 4));
        SnowflakeSi h = f.withLayout(new SnowflakeSi.Layout(1072915200000L, 8));
        check.that(g.compareTo(f) < 0 && f.compareTo(g) > 0 && g.compareTo(h) < 0 && !f.equals(g),
                "snowflake_si: the same integer orders by the base clock, then the index width");
        check.that(f.compareTo(SnowflakeSi.fromLong(8191).withLayout(g.layout())) > 0
                && f.compareTo(f.withLayout(SnowflakeSi.Layout.DEFAULT)) == 0, "snowflake_si: the integer first");
        check.eq(new java.util.TreeSet<>(List.of(f, g, h)).size(), new java.util.HashSet<>(List.of(f, g, h)).size(),
                "snowflake_si: a TreeSet keeps apart what a HashSet does");
        check.eq(g.toInstant(), Instant.parse("2004-01-01T00:00:00.001Z"), "snowflake_si: the time under its layout");
        check.that(Uid60.parse("AAAAAQAAAA").compareTo(Uid60.parse("AAAAAgAAAA")) > 0,
                "uid60: ordered as the integer, not the text");
    }

    /** The pgJDBC objects read and write both forms, and refuse with the server's SQLSTATE. */
    private void adapter() throws Exception {
        Sno x = Sno.parse("brpk4q72xwf2m63l");
        PgSno p = PgSno.of(x);
        check.eq(List.of(p.getType(), p.getValue(), p.lengthInBytes()), List.of("sno", x.toString(), 10), "PgSno.of");
        byte[] out = new byte[12];
        p.toBytes(out, 2);
        PgSno q = new PgSno();
        q.setByteValue(out, 2);
        check.eq(q.get(), x, "PgSno: its bytes");
        q.setValue("BRPK4Q72XWF2M63L");
        check.eq(q.get(), x, "PgSno: upper-case text");
        q.setValue(null);
        check.that(q.get() == null && q.getValue() == null, "PgSno: NULL");
        PgId<?> r = PgUid.of(Revts8.fromLong(1));
        check.eq(r.getType(), "revts8", "PgUid.of: the type");
        try {
            q.setValue("brpk4q72xwf2m63");
            check.that(false, "PgSno took a short text");
        } catch (SQLDataException e) {
            check.eq(List.of(e.getSQLState(), e.getMessage()),
                    List.of("22P02", "invalid input syntax for type sno: \"brpk4q72xwf2m63\""), "PgSno: refused");
        }
        PgSno copy;
        try {
            copy = (PgSno) p.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        check.eq(copy.get(), x, "PgSno: clone");
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out2 = new java.io.ObjectOutputStream(buf)) {
            out2.writeObject(p);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(buf.toByteArray()))) {
            check.eq(((PgSno) in.readObject()).get(), x, "PgSno: serialized");
        }
        // a PgSnowflakeSi serializes as its text: its layout is not kept
        SnowflakeSi.Layout other = new SnowflakeSi.Layout(1072915200000L, 4);
        buf = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out2 = new java.io.ObjectOutputStream(buf)) {
            out2.writeObject(pgkuid.pgjdbc.PgSnowflakeSi.of(SnowflakeSi.fromLong(8192).withLayout(other)));
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(buf.toByteArray()))) {
            check.eq(((pgkuid.pgjdbc.PgSnowflakeSi) in.readObject()).get(), SnowflakeSi.fromLong(8192),
                    "PgSnowflakeSi: serialized, with the default layout again");
        }
    }
}
