package pgkuid.test;

import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.postgresql.PGResultSetMetaData;
import org.postgresql.core.BaseConnection;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import pgkuid.UidException;
import pgkuid.UidValue;
import pgkuid.pgjdbc.PgId;
import pgkuid.pgjdbc.PgUid;

/**
 * The value classes and the pgJDBC objects against a server with uid (the
 * libpq environment: PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD), in a
 * schema of their own, dropped at the end. Two connections: "binary"
 * (prepareThreshold=-1: server-prepared from the first execution, so
 * results of the registered types come in binary) and "text"
 * (preferQueryMode=simple: text both ways).
 */
final class ServerTests {
    private final Check check;
    private Connection bin, txt;
    private Map<String, Integer> oids;

    ServerTests(Check check) { this.check = check; }

    private static String env(String name, String otherwise) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? otherwise : v;
    }

    /**
     * A connection as libpq would make it from the environment: PGHOST a
     * directory is the Unix-domain socket DIR/.s.PGSQL.PORT there (through
     * UnixSocketFactory: pgJDBC has none of its own), else a TCP host
     * (default localhost).
     */
    static Connection connect(Map<String, String> options) throws SQLException {
        String host = env("PGHOST", "localhost"), port = env("PGPORT", "5432");
        String user = env("PGUSER", System.getProperty("user.name"));
        Properties p = new Properties();
        p.setProperty("user", user);
        if (System.getenv("PGPASSWORD") != null) {
            p.setProperty("password", System.getenv("PGPASSWORD"));
        }
        String tcpHost = host;
        if (host.startsWith("/")) {
            p.setProperty("socketFactory", UnixSocketFactory.class.getName());
            p.setProperty("socketFactoryArg", new File(host, ".s.PGSQL." + port).getPath());
            tcpHost = "localhost";
        }
        p.putAll(options);
        return DriverManager.getConnection("jdbc:postgresql://" + tcpHost + ":" + port + "/" + env("PGDATABASE", user), p);
    }

    /** Runs the tests; the reason they were skipped, or null. */
    String run() throws Exception {
        try {
            bin = connect(Map.of("prepareThreshold", "-1"));
            txt = connect(Map.of("preferQueryMode", "simple"));
            exec(bin, "CREATE EXTENSION IF NOT EXISTS uid");
        } catch (SQLException e) {
            String why = "no server with uid through the libpq environment (PGHOST=" + System.getenv("PGHOST")
                    + " PGPORT=" + System.getenv("PGPORT") + "): " + e.getMessage()
                    + (e.getCause() == null ? "" : " (" + e.getCause() + ")");
            if ("1".equals(System.getenv("UID_TEST_REQUIRE_SERVER"))) {
                check.that(false, "UID_TEST_REQUIRE_SERVER=1 and " + why);
                return null;
            }
            return why;
        }
        System.out.println("server: " + bin.getMetaData().getDatabaseProductVersion() + " at "
                + env("PGHOST", "localhost") + ":" + env("PGPORT", "5432"));
        String schema = "uid_java_tests_" + ProcessHandle.current().pid();
        try {
            exec(bin, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            exec(bin, "CREATE SCHEMA " + schema);
            for (Connection c : List.of(bin, txt)) {
                exec(c, "SELECT set_config('search_path', '" + schema + ", ' || current_setting('search_path'), false)");
                exec(c, "SET TimeZone = 'UTC'");
            }
            oids = PgUid.register(bin).oids();
            PgUid.register(txt);
            binaryTransfer();
            whichForm();
            Map<String, Object> vectors = Kinds.vectors();
            refused(Kinds.list(vectors, "refused"));
            ids(Kinds.list(vectors, "ids"));
            order(Kinds.list(vectors, "ids"));
            offPath(schema, Kinds.list(vectors, "ids"));
            boundaries();
            fromParts();
            moreInputs();
            for (String type : Kinds.TYPES) {
                roundTrip(type);
            }
            shadowed(schema, Kinds.list(vectors, "ids"), true);
            shadowed(schema, Kinds.list(vectors, "ids"), false);
        } finally {
            exec(bin, "DROP SCHEMA " + schema + " CASCADE");
            bin.close();
            txt.close();
        }
        return null;
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i] instanceof UidValue x ? PgUid.of(x)
                    : args[i] instanceof Instant t ? OffsetDateTime.ofInstant(t, ZoneOffset.UTC) : args[i]);
        }
        return ps;
    }

    /** The first column of every row. */
    private static List<Object> column(Connection c, String sql, Object... args) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, sql, args); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Object o = rs.getObject(1);
                out.add(o instanceof PgId<?> p ? p.get() : o);
            }
        }
        return out;
    }

    /** A server error's SQLSTATE, message, DETAIL and HINT ("" where it has none). */
    private static List<String> fields(SQLException e) {
        ServerErrorMessage m = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        if (m == null) {
            return List.of(String.valueOf(e.getSQLState()), String.valueOf(e.getMessage()), "", "");
        }
        return List.of(m.getSQLState(), m.getMessage(), m.getDetail() == null ? "" : m.getDetail(),
                m.getHint() == null ? "" : m.getHint());
    }

    private static List<String> fields(UidException e) {
        return List.of(e.getSQLState(), e.getMessage(), e.getDetail(), e.getHint());
    }

    /** register() enables binary sending for the types' OIDs on the binary connection, not with simple queries. */
    private void binaryTransfer() throws SQLException {
        check.eq(oids.keySet(), new java.util.HashSet<>(Kinds.TYPES), "register: the types found");
        for (Map.Entry<String, Integer> e : oids.entrySet()) {
            check.that(bin.unwrap(BaseConnection.class).binaryTransferSend(e.getValue()),
                    e.getKey() + ": pgJDBC sends it in binary on the binary connection");
            check.that(!txt.unwrap(BaseConnection.class).binaryTransferSend(e.getValue()),
                    e.getKey() + ": pgJDBC sends it as text with preferQueryMode=simple");
        }
    }

    /**
     * Which form goes when, with the default prepareThreshold (5): a
     * parameter whose text and bytes disagree shows which one the server
     * read. The parameter goes in binary from the first execution; the
     * result comes in text until the statement is server-prepared and
     * described (the 5th execution prepares it), in binary from the 6th;
     * with preferQueryMode=simple, text both ways.
     */
    private void whichForm() throws Exception {
        pgkuid.Sno inBytes = pgkuid.Sno.parse("brpk4q72xwf2m63l"), inText = pgkuid.Sno.parse("2222222222222222");
        pgkuid.pgjdbc.PgSno p = pgkuid.pgjdbc.PgSno.of(inBytes);
        java.lang.reflect.Field value = org.postgresql.util.PGobject.class.getDeclaredField("value");
        value.setAccessible(true);
        value.set(p, inText.toString()); // getValue() the text, toBytes() the bytes
        try (Connection c = connect(Map.of())) {
            PgUid.register(c);
            try (PreparedStatement ps = c.prepareStatement("SELECT (?)::text, ?::sno")) {
                for (int run = 1; run <= 8; run++) {
                    ps.setObject(1, p);
                    ps.setObject(2, p);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        check.eq(List.of(rs.getString(1), rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(2)),
                                List.of(inBytes.toString(), run < 6 ? 0 : 1),
                                "prepareThreshold=5, execution " + run + ": the parameter in binary, the result in "
                                        + (run < 6 ? "text" : "binary"));
                    }
                }
            }
        }
        try (PreparedStatement ps = txt.prepareStatement("SELECT (?)::text, ?::sno")) {
            ps.setObject(1, p);
            ps.setObject(2, p);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                check.eq(List.of(rs.getString(1), rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(2)),
                        List.of(inText.toString(), 0), "preferQueryMode=simple: text both ways");
            }
        }
    }

    /** Every refused input's error equals the server's, in full. */
    private void refused(List<Map<String, Object>> refused) throws SQLException {
        for (Map<String, Object> v : refused) {
            String type = (String) v.get("type"), input = (String) v.get("input");
            String name = type + " \"" + input + "\"";
            List<String> server = null, mine = null;
            try {
                column(bin, "SELECT ?::" + type + "::text", input);
            } catch (SQLException e) {
                server = fields(e);
            }
            try {
                Kinds.read(v);
            } catch (UidException e) {
                mine = fields(e);
            }
            check.that(server != null, name + ": the server took it");
            check.eq(mine, server, name + ": the refusal");
        }
    }

    /** A select list of id's text, binary form (hex), timestamp and accessors (as bigint). */
    private static String accessors(String type) {
        StringBuilder s = new StringBuilder("id::text, encode(" + type + "_send(id), 'hex'), " + type + "_timestamp(id)");
        for (String a : Kinds.ACCESSORS.get(type)) {
            s.append(", ").append(type).append('_').append(a).append("(id)::bigint");
        }
        return s.toString();
    }

    /** The server's text, binary form, timestamp and fields of the row are x's. */
    private void sameAsServer(ResultSet rs, UidValue x, String name) throws SQLException {
        check.eq(rs.getString(2), x.toString(), name + ": the server's text");
        check.eq(rs.getString(3), Kinds.hex(x.toBytes()), name + ": the server's binary form");
        check.eq(rs.getObject(4, OffsetDateTime.class).toInstant(), x.toInstant(), name + ": the server's timestamp");
        List<Long> fields = new ArrayList<>();
        for (int i = 0; i < Kinds.ACCESSORS.get(x.sqlType()).size(); i++) {
            fields.add(rs.getLong(5 + i));
        }
        check.eq(fields, new ArrayList<>(Kinds.fields(x).values()), name + ": the server's accessors");
    }

    /**
     * Every vector's text, binary form, accessors and time equal the
     * server's; the value goes as a parameter (setObject) and comes back
     * through getObject, in binary on the binary connection and in text on
     * the other (the result's format checked), also as getObject(i, PgX.class).
     */
    private void ids(List<Map<String, Object>> ids) throws SQLException {
        for (Map<String, Object> v : ids) {
            String type = (String) v.get("type"), text = (String) v.get("text");
            if (type.equals("snowflake_si") && !((Map<?, ?>) v.get("options")).isEmpty()) {
                continue; // other layouts: the offline tests; the server has its settings' defaults here
            }
            String name = type + " " + text;
            UidValue x = Kinds.parse(type, text);
            try (PreparedStatement ps = prepare(bin, "SELECT id, " + accessors(type) + " FROM (SELECT ?::" + type + " AS id) s", text);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                sameAsServer(rs, x, name);
            }
            for (Connection c : List.of(bin, txt)) {
                String how = name + (c == bin ? " in binary" : " in text");
                PgId<?> sent = PgUid.of(x);
                try (PreparedStatement ps = prepare(c, "SELECT ?::" + type + ", ?::" + type, x, x); ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Object got = rs.getObject(1);
                    check.eq(got instanceof PgId<?> p ? p.get() : got, x, how + ": getObject");
                    check.eq(rs.getObject(2, sent.getClass()).get(), x, how + ": getObject(2, " + sent.getClass().getSimpleName() + ")");
                    check.eq(rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1), c == bin ? 1 : 0,
                            how + ": the result's format");
                }
            }
        }
    }

    /**
     * With the extension's schema off the search_path, register() finds the
     * types still and pgJDBC gives their objects, in binary, named as the
     * bare or the qualified name; parameters made with of() (named bare)
     * still go.
     */
    private void offPath(String schema, List<Map<String, Object>> ids) throws SQLException {
        String nsp = (String) column(bin, "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'uid'").get(0);
        try (Connection c = connect(Map.of("prepareThreshold", "-1", "currentSchema", schema))) {
            check.eq(PgUid.register(c).oids(), oids, "off the search_path (" + column(c, "SHOW search_path") + "): register");
            for (String type : Kinds.TYPES) {
                UidValue x = Kinds.parse(type, (String) ids.stream().filter(v -> v.get("type").equals(type)).findFirst().get().get("text"));
                try (PreparedStatement ps = prepare(c, "SELECT ?::" + nsp + "." + type, x); ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    PgId<?> got = (PgId<?>) rs.getObject(1);
                    check.eq(List.of(got.get(), rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1)),
                            List.of(x, 1), type + " off the search_path: the value, in binary");
                    check.that(List.of(type, "\"" + nsp + "\".\"" + type + "\"").contains(got.getType()),
                            type + " off the search_path: named " + got.getType());
                }
            }
        }
    }

    /**
     * With a table named as each type (its row type) first on the
     * search_path, and the extension's schema on the path after it (onPath)
     * or off it, the values that register()'s PgUidTypes makes still go as
     * the extension's types, in binary and in text (the extended protocol
     * with binaryTransferDisable), and come back.
     */
    private void shadowed(String schema, List<Map<String, Object>> ids, boolean onPath) throws SQLException {
        String nsp = (String) column(bin, "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'uid'").get(0);
        String where = onPath ? "on the search_path after tables named so" : "off the search_path, tables named so on it";
        String decoys = schema + "_decoys";
        exec(bin, "CREATE SCHEMA " + decoys);
        try {
            for (String type : Kinds.TYPES) {
                exec(bin, "CREATE TABLE " + decoys + "." + type + " (a int, b int)");
            }
            String path = onPath ? decoys + "," + nsp : decoys;
            // text: the extended protocol with binary off for the types (with
            // preferQueryMode=simple pgJDBC sends no parameter types at all)
            String disable = String.join(",", oids.values().stream().map(String::valueOf).toList());
            for (Map<String, String> how : List.of(Map.of("prepareThreshold", "-1"),
                    Map.of("prepareThreshold", "-1", "binaryTransferDisable", disable))) {
                boolean binary = !how.containsKey("binaryTransferDisable");
                Map<String, String> options = new java.util.HashMap<>(how);
                options.put("currentSchema", path);
                try (Connection c = connect(options)) {
                    pgkuid.pgjdbc.PgUidTypes types = PgUid.register(c);
                    check.eq(types.oids(), oids, where + ": register");
                    for (int oid : oids.values()) {
                        check.eq(c.unwrap(BaseConnection.class).binaryTransferSend(oid), binary, where + ": binary sending of " + oid);
                    }
                    for (String type : Kinds.TYPES) {
                        String name = type + " " + where + (binary ? " in binary" : " in text");
                        UidValue x = Kinds.parse(type, (String) ids.stream().filter(v -> v.get("type").equals(type))
                                .findFirst().get().get("text"));
                        check.eq(types.typeName(type), "\"" + nsp + "\".\"" + type + "\"", name + ": the name sent");
                        try (PreparedStatement ps = c.prepareStatement("SELECT pg_typeof(?)::oid::bigint, (?)::text, ?")) {
                            for (int i = 1; i <= 3; i++) {
                                ps.setObject(i, types.of(x));
                            }
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                Object got = rs.getObject(3);
                                check.eq(List.of(rs.getLong(1), rs.getString(2), got instanceof PgId<?> p ? p.get() : got),
                                        List.of((long) oids.get(type), x.toString(), x), name + ": the parameter's type, text, value");
                            }
                        } catch (SQLException e) {
                            check.that(false, name + ": " + e.getMessage());
                        }
                    }
                }
            }
        } finally {
            exec(bin, "DROP SCHEMA " + decoys + " CASCADE");
        }
    }

    /** ORDER BY of each type's vectors equals sorting them with compareTo. */
    private void order(List<Map<String, Object>> ids) throws SQLException {
        for (String type : Kinds.TYPES) {
            List<String> texts = new ArrayList<>();
            for (Map<String, Object> v : ids) {
                if (v.get("type").equals(type)) {
                    texts.add((String) v.get("text"));
                }
            }
            List<UidValue> mine = new ArrayList<>();
            for (String t : texts) {
                mine.add(Kinds.parse(type, t));
            }
            mine.sort(ServerTests::compare);
            List<Object> server;
            try (PreparedStatement ps = bin.prepareStatement("SELECT array_agg(t ORDER BY t::" + type + ", t) FROM unnest(?::text[]) t")) {
                ps.setArray(1, bin.createArrayOf("text", texts.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    server = Arrays.asList((Object[]) rs.getArray(1).getArray());
                }
            }
            boolean same = server.size() == mine.size();
            for (int i = 0; same && i < mine.size(); i++) {
                same = compare(mine.get(i), Kinds.parse(type, (String) server.get(i))) == 0;
            }
            check.that(same, type + ": ORDER BY gives " + server + ", compareTo " + mine);
            List<Object> back = column(bin, "SELECT t::" + type + " FROM unnest(?::text[]) t ORDER BY 1", bin.createArrayOf("text", texts.toArray()));
            check.eq(back, mine, type + ": ORDER BY of the values through getObject");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(UidValue a, UidValue b) { return ((Comparable) a).compareTo(b); }

    /** The server's result of sql (its text) or error equals mine's value (its text) or refusal. */
    private void sameOutcome(String name, String sql, List<Object> args, java.util.function.Supplier<UidValue> mine) {
        Object server, ours;
        try {
            server = column(bin, sql, args.toArray()).get(0);
        } catch (SQLException e) {
            server = fields(e);
        }
        try {
            ours = mine.get().toString();
        } catch (UidException e) {
            ours = fields(e);
        }
        check.eq(ours, server, name);
    }

    /** boundary() equals <type>_boundary(), its errors included. */
    private void boundaries() throws SQLException {
        for (String at : List.of("1960-01-01T00:00:00Z", "2026-11-01T12:00:00.000001Z", "2031-05-08T23:03:34.976001Z",
                "2112-09-17T23:53:47.370495Z", "2200-01-01T00:00:00Z",
                // below the microsecond: pgJDBC rounds to the nearest, a half up
                "2026-11-01T12:00:00.0000005Z", "2026-11-01T12:00:00.000000499Z", "2026-11-01T11:59:59.9999995Z",
                "2026-11-01T11:59:59.999999499Z", "2031-05-08T23:03:34.9759995Z", "2031-05-08T23:03:34.975999499Z",
                "2026-11-01T12:00:00.123456789Z", "1969-12-31T23:59:59.9999995Z", "1969-12-31T23:59:59.999999499Z")) {
            Instant t = Instant.parse(at);
            for (String type : Kinds.TYPES) {
                sameOutcome(type + "_boundary(" + at + ")", "SELECT " + type + "_boundary(?)::text", List.of(t),
                        () -> Kinds.boundary(type, t));
            }
        }
    }

    private static final Instant EPOCH_2004 = Instant.parse("2004-01-01T00:00:00Z");

    /** Arguments of <type>_from_parts() after the time: in range, at the ends, and just outside. */
    private static final List<List<Object>> PARTS = List.of(
            List.of("sno", 0, 0, 0, 0), List.of("sno", 255, 65535, 65535, 1), List.of("sno", 256, 0, 0, 0),
            List.of("sno", 0, -1, 0, 0), List.of("sno", 0, 0, 65536, 0), List.of("sno", 0, 0, 0, 2),
            List.of("muid", 0L, 0), List.of("muid", (1L << 44) - 1, -1), List.of("muid", 1L << 44, 0), List.of("muid", -1L, 0),
            List.of("snowflake_si", 0, 0), List.of("snowflake_si", 31, 255), List.of("snowflake_si", 32, 0),
            List.of("snowflake_si", 0, 256), List.of("snowflake_si", -1, 0),
            List.of("snowflake_si", 1, 0, EPOCH_2004, 8), List.of("snowflake_si", 511, 15, EPOCH_2004, 4),
            List.of("snowflake_si", 512, 0, EPOCH_2004, 4), List.of("snowflake_si", 0, 0, EPOCH_2004, 14),
            List.of("snowflake_si", 0, 0, Instant.parse("2003-01-01T00:00:00Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2004-01-01T00:00:00.0005Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2004-01-01T00:00:00.0009995Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2004-01-01T00:00:00.000999499Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2004-01-01T00:00:00.0004995Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2003-03-18T07:20:19.224Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("2003-03-18T07:20:19.2249995Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("-3999-01-01T00:00:00Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("+294212-03-08T08:07:07Z"), 8),
            List.of("snowflake_si", 0, 0, Instant.parse("+294212-03-08T08:07:07.001Z"), 8),
            List.of("revts8", 0, 0, 0), List.of("revts8", 63, 63, 15), List.of("revts8", 64, 0, 0),
            List.of("revts8", 0, 64, 0), List.of("revts8", 0, 0, 16),
            List.of("uid60", 0, 0, 0), List.of("uid60", 511, 1023, 511), List.of("uid60", 512, 0, 0),
            List.of("uid60", 0, 1024, 0), List.of("uid60", 0, 0, 512));

    private static int i(Object o) { return (Integer) o; }

    /** fromParts() of the arguments of PARTS. */
    private static UidValue fromParts(Instant t, List<Object> a) {
        switch ((String) a.get(0)) {
            case "sno": return pgkuid.Sno.fromParts(t, i(a.get(1)), i(a.get(2)), i(a.get(3)), i(a.get(4)));
            case "muid": return pgkuid.Muid.fromParts(t, (Long) a.get(1), i(a.get(2)));
            case "snowflake_si":
                return a.size() == 3 ? pgkuid.SnowflakeSi.fromParts(t, i(a.get(1)), i(a.get(2)))
                        : pgkuid.SnowflakeSi.Layout.of((Instant) a.get(3), i(a.get(4))).fromParts(t, i(a.get(1)), i(a.get(2)));
            case "revts8": return pgkuid.Revts8.fromParts(t, i(a.get(1)), i(a.get(2)), i(a.get(3)));
            default: return pgkuid.Uid60.fromParts(t, i(a.get(1)), i(a.get(2)), i(a.get(3)));
        }
    }

    /** fromParts() equals <type>_from_parts(), its errors (and their order) included. */
    private void fromParts() throws SQLException {
        for (String at : List.of("2026-11-01T12:00:00.123456Z", "1960-01-01T00:00:00Z", "2200-01-01T00:00:00Z",
                "2026-11-01T12:00:00.1234565Z", "2026-11-01T12:00:00.123456499Z", "2026-11-01T11:59:59.9999995Z",
                "2026-11-01T11:59:59.999999499Z", "1969-12-31T23:59:59.9999995Z", "1969-12-31T23:59:59.999999499Z")) {
            Instant t = Instant.parse(at);
            for (List<Object> a : PARTS) {
                List<Object> args = new ArrayList<>(a.subList(1, a.size()));
                args.add(0, t);
                sameOutcome(a.get(0) + "_from_parts(" + args + ")", "SELECT " + a.get(0) + "_from_parts("
                        + String.join(", ", java.util.Collections.nCopies(args.size(), "?")) + ")::text", args, () -> fromParts(t, a));
            }
        }
    }

    /**
     * Inputs beyond the vectors read as the server reads them, or are
     * refused in its words: the accepted alternatives, white space,
     * characters of several bytes (positions and lengths count bytes).
     */
    private void moreInputs() throws SQLException {
        for (List<String> c : List.of(List.of("sno", "BRPK4Q72XWF2M63L"), List.of("sno", "brpk4q72xwf2m6\u00e9"),
                List.of("sno", "brpk4q72xwf2m6\u00e9l"), List.of("muid", "5d5eac793e61f-1bfc71b112d-0000000b"),
                List.of("muid", "5D5EAC793E61F-1BFC71B112D"), List.of("muid", "5D5EAC793E61F"),
                List.of("muid", "5D5EAC793E61F-1BFC71B112D-000000\u00e9"), List.of("muid", "5D5EAC793E61F-1BFC71B112D0000000B0"),
                List.of("snowflake_si", " \t00042\n"), List.of("snowflake_si", "   "), List.of("snowflake_si", "0000000000000000000000001"),
                List.of("snowflake_si", "+1"), List.of("snowflake_si", "4 2"), List.of("snowflake_si", "\u0661"),
                List.of("revts8", "CB54ECF284000000"), List.of("revts8", "cb54ecf28400000\u00e9"), List.of("revts8", "ffffffffffff07ff"),
                List.of("uid60", "__________"), List.of("uid60", "AAAAAQAAA\u00e9"), List.of("uid60", "aaaaaqaaaa"))) {
            String type = c.get(0), input = c.get(1);
            sameOutcome(type + " \"" + input + "\"", "SELECT ?::" + type + "::text", List.of(input), () -> Kinds.parse(type, input));
        }
    }

    /**
     * A table keyed with the type and its DEFAULT: rows inserted through
     * both connections read back with the server's text and accessors and
     * in compareTo's order; each one found by setObject on both; a boundary
     * made here between the two batches, as a parameter, selects through
     * the primary key the rows the server's own boundary selects.
     */
    private void roundTrip(String type) throws Exception {
        String table = "java_" + type;
        exec(bin, "CREATE TABLE " + table + " (id " + type + " PRIMARY KEY DEFAULT " + type + "_new(), n int)");
        long pause = Math.max(10, Kinds.TICK_MS.get(type) * 12 / 10);
        List<UidValue> made = new ArrayList<>();
        String insert = "INSERT INTO " + table + " (n) VALUES (?) RETURNING id";
        for (int i = 0; i < 3; i++) {
            made.add((UidValue) column(bin, insert, i).get(0));
        }
        Thread.sleep(pause);
        // nanoseconds below the microsecond, for pgJDBC to round
        Instant split = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS).plusNanos(700);
        Thread.sleep(pause);
        for (int i = 3; i < 6; i++) {
            made.add((UidValue) column(txt, insert, i).get(0));
        }
        List<UidValue> server = new ArrayList<>();
        try (PreparedStatement ps = bin.prepareStatement("SELECT id, " + accessors(type) + " FROM " + table + " t ORDER BY t.id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                UidValue x = ((PgId<?>) rs.getObject(1)).get();
                sameAsServer(rs, x, table + " " + x);
                server.add(x);
            }
        }
        made.sort(ServerTests::compare);
        check.eq(server, made, type + ": the server's ORDER BY, the rows made sorted with compareTo");
        for (UidValue x : made) {
            for (Connection c : List.of(bin, txt)) {
                check.eq(column(c, "SELECT count(*) FROM " + table + " WHERE id = ?", x), List.of(1L),
                        type + " " + x + ": found by setObject " + (c == bin ? "in binary" : "in text"));
            }
        }
        UidValue b = Kinds.boundary(type, split);
        check.eq(List.of(b.toString()), column(bin, "SELECT " + type + "_boundary(?)::text", split),
                type + ": the boundary of " + split + " (" + b + ") is the server's");
        bin.setAutoCommit(false);
        try {
            exec(bin, "SET LOCAL enable_seqscan = off");
            String plan = String.join("\n", column(bin, "EXPLAIN SELECT id FROM " + table + " WHERE id >= ?", b)
                    .stream().map(String::valueOf).toList());
            check.that(plan.contains(table + "_pkey") && !plan.contains("Seq Scan"), type + ": the boundary's plan:\n" + plan);
        } finally {
            bin.rollback();
            bin.setAutoCommit(true);
        }
        List<Object> mine = column(bin, "SELECT id FROM " + table + " WHERE id >= ? ORDER BY id", b);
        List<Object> theirs = column(bin, "SELECT id FROM " + table + " WHERE id >= " + type + "_boundary(?) ORDER BY id", split);
        check.that(theirs.size() == 3, type + ": the server's boundary selects " + theirs + ", not the second batch");
        check.eq(mine, theirs, type + ": the rows the boundary " + b + " selects");
    }
}
