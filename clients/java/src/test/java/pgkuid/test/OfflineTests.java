package pgkuid.test;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
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

    /** The refusal of what, in full. */
    private void refusal(Supplier<?> what, String code, String message, String detail, String hint) {
        try {
            Object x = what.get();
            check.that(false, "made " + x + ", want " + code + " " + message);
        } catch (UidException e) {
            check.eq(List.of(e.getSQLState(), e.getMessage(), e.getDetail(), e.getHint()),
                    List.of(code, message, detail, hint), "the refusal " + message);
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
                "The base clock must be a whole number of milliseconds, not before 2003-03-18 07:20:19.225+00.", "");
    }

    /** revts8's time order is not its bytes'; a boundary is after every ID of an earlier tick. */
    private void order() {
        Instant at = Instant.parse("2026-11-01T00:00:00Z");
        Revts8 early = Revts8.fromParts(at, 63, 0, 0), late = Revts8.fromParts(at.plusMillis(1), 0, 0, 0);
        check.that(early.compareTo(late) < 0, "revts8: time order");
        check.eq(Integer.signum(early.compareBytes(late)),
                Integer.signum(java.util.Arrays.compareUnsigned(early.toBytes(), late.toBytes())), "revts8: byte order");
        Sno b = Sno.boundary(at.plusNanos(1000)), x = Sno.fromParts(at, 255, 65535, 65535, 1);
        check.that(x.compareTo(b) < 0, "sno: " + x + " is before the boundary " + b);
        check.eq(b.unixMicros(), at.toEpochMilli() * 1000 + 4000, "sno: the boundary's time");
        check.eq(Sno.boundary(at.plusNanos(999)), Sno.boundary(at), "sno: a time counts to its microsecond");
        SnowflakeSi f = SnowflakeSi.fromLong(8192), g = f.withLayout(new SnowflakeSi.Layout(1072915200000L, 4));
        check.that(f.compareTo(g) == 0 && !f.equals(g), "snowflake_si: compareTo ignores the layout, equals does not");
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
    }
}
