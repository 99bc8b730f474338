package pgkuid.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import pgkuid.Muid;
import pgkuid.Revts8;
import pgkuid.SnowflakeSi;
import pgkuid.Sno;
import pgkuid.Uid60;
import pgkuid.UidValue;

/** What the tests need of each type, and the shared vectors. */
final class Kinds {
    private Kinds() {}

    static final List<String> TYPES = List.of("sno", "muid", "snowflake_si", "revts8", "uid60");

    /** Each type's fields, named as its SQL accessors, in the order of fromParts' arguments. */
    static final Map<String, List<String>> ACCESSORS = Map.of("sno", List.of("meta", "partition", "sequence", "tick"),
            "muid", List.of("medallion", "offset"), "snowflake_si", List.of("machine", "index"),
            "revts8", List.of("sequence", "generator", "cluster"), "uid60", List.of("worker", "sequence", "random"));

    /** The length of each type's tick, in milliseconds (muid's microsecond counts as 1). */
    static final Map<String, Long> TICK_MS = Map.of("sno", 4L, "muid", 1L, "snowflake_si", 1L, "revts8", 1L, "uid60", 1000L);

    /** text read as the type reads it (snowflake_si under layout). */
    static UidValue parse(String type, String text, SnowflakeSi.Layout layout) {
        switch (type) {
            case "sno": return Sno.parse(text);
            case "muid": return Muid.parse(text);
            case "snowflake_si": return layout.parse(text);
            case "revts8": return Revts8.parse(text);
            case "uid60": return Uid60.parse(text);
            default: throw new IllegalArgumentException("no type " + type);
        }
    }

    static UidValue parse(String type, String text) { return parse(type, text, SnowflakeSi.Layout.DEFAULT); }

    /** The binary form read as the type's recv reads it. */
    static UidValue fromBytes(String type, byte[] data, SnowflakeSi.Layout layout) {
        switch (type) {
            case "sno": return Sno.fromBytes(data);
            case "muid": return Muid.fromBytes(data);
            case "snowflake_si": return layout.fromBytes(data);
            case "revts8": return Revts8.fromBytes(data);
            case "uid60": return Uid60.fromBytes(data);
            default: throw new IllegalArgumentException("no type " + type);
        }
    }

    /** <type>_boundary(). */
    static UidValue boundary(String type, Instant t) {
        switch (type) {
            case "sno": return Sno.boundary(t);
            case "muid": return Muid.boundary(t);
            case "snowflake_si": return SnowflakeSi.boundary(t);
            case "revts8": return Revts8.boundary(t);
            case "uid60": return Uid60.boundary(t);
            default: throw new IllegalArgumentException("no type " + type);
        }
    }

    /** A value's fields by accessor name. */
    static Map<String, Long> fields(UidValue x) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (x instanceof Sno s) {
            m.put("meta", (long) s.meta());
            m.put("partition", (long) s.partition());
            m.put("sequence", (long) s.sequence());
            m.put("tick", (long) s.tick());
        } else if (x instanceof Muid u) {
            m.put("medallion", u.medallion());
            m.put("offset", (long) u.offset());
        } else if (x instanceof SnowflakeSi f) {
            m.put("machine", (long) f.machine());
            m.put("index", (long) f.index());
        } else if (x instanceof Revts8 r) {
            m.put("sequence", (long) r.sequence());
            m.put("generator", (long) r.generator());
            m.put("cluster", (long) r.cluster());
        } else if (x instanceof Uid60 u) {
            m.put("worker", (long) u.worker());
            m.put("sequence", (long) u.sequence());
            m.put("random", (long) u.random());
        }
        return m;
    }

    /** id::bigint for the 8-byte types, else null. */
    static Long bigint(UidValue x) {
        if (x instanceof SnowflakeSi f) {
            return f.toLong();
        } else if (x instanceof Revts8 r) {
            return r.toLong();
        } else if (x instanceof Uid60 u) {
            return u.toLong();
        }
        return null;
    }

    /** from_parts() of a value's time and fields. */
    static UidValue fromParts(UidValue x) {
        Instant t = x.toInstant();
        if (x instanceof Sno s) {
            return Sno.fromParts(t, s.meta(), s.partition(), s.sequence(), s.tick());
        } else if (x instanceof Muid u) {
            return Muid.fromParts(t, u.medallion(), u.offset());
        } else if (x instanceof SnowflakeSi f) {
            return f.layout().fromParts(t, f.machine(), f.index());
        } else if (x instanceof Revts8 r) {
            return Revts8.fromParts(t, r.sequence(), r.generator(), r.cluster());
        }
        Uid60 u = (Uid60) x;
        return Uid60.fromParts(t, u.worker(), u.sequence(), u.random());
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }

    static byte[] unhex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    /** The shared vectors: UID_VECTORS, else ../vectors/vectors.json (from clients/java). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> vectors() throws IOException {
        String path = System.getenv("UID_VECTORS");
        if (path == null || path.isEmpty()) {
            path = "../vectors/vectors.json";
        }
        return (Map<String, Object>) Json.parse(Files.readString(Path.of(path)));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> vectors, String key) {
        return (List<Map<String, Object>>) vectors.get(key);
    }

    /** A vector's snowflake_si options as a layout. */
    static SnowflakeSi.Layout layout(Map<String, Object> v) {
        @SuppressWarnings("unchecked")
        Map<String, Object> options = (Map<String, Object>) v.get("options");
        long epoch = SnowflakeSi.Layout.DEFAULT.epochUnixMs();
        int bits = SnowflakeSi.Layout.DEFAULT.indexBits();
        if (options != null && options.get("epoch") instanceof String e) {
            epoch = e.matches("\\d+") ? Long.parseLong(e) : Instant.parse(e).toEpochMilli();
        }
        if (options != null && options.get("index_bits") instanceof Long b) {
            bits = b.intValue();
        }
        return new SnowflakeSi.Layout(epoch, bits);
    }

    /** A vector's input read as the type reads it: 0x... is the binary form. */
    static UidValue read(Map<String, Object> v) {
        String type = (String) v.get("type"), input = (String) v.get("input");
        if (input.startsWith("0x")) {
            return fromBytes(type, unhex(input.substring(2)), layout(v));
        }
        return parse(type, input, layout(v));
    }
}
