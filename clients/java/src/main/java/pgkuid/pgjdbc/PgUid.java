package pgkuid.pgjdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;

import pgkuid.Muid;
import pgkuid.Revts8;
import pgkuid.SnowflakeSi;
import pgkuid.Sno;
import pgkuid.Uid60;
import pgkuid.UidValue;

/** Registers uid's types with a pgJDBC connection, and wraps values as parameters. */
public final class PgUid {
    private PgUid() {}

    /**
     * The extension's types, found through its membership (pg_depend), not
     * by name on the search_path: a type of the same name elsewhere is never
     * taken, and the extension's schema need not be on the path.
     */
    private static final String TYPES_SQL = "SELECT t.typname::text, t.oid, n.nspname::text"
            + " FROM pg_catalog.pg_extension e"
            + " JOIN pg_catalog.pg_depend d"
            + "   ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.refobjid = e.oid"
            + "  AND d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.deptype = 'e'"
            + " JOIN pg_catalog.pg_type t ON t.oid = d.objid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace"
            + " WHERE e.extname = 'uid' AND t.typtype = 'b' AND t.typcategory <> 'A'";

    private static final Map<String, Class<? extends PgId<?>>> CLASSES = Map.of("sno", PgSno.class,
            "muid", PgMuid.class, "snowflake_si", PgSnowflakeSi.class, "revts8", PgRevts8.class, "uid60", PgUid60.class);

    /**
     * Registers the five types with conn under their OIDs in conn's
     * database ({@link PGConnection#addDataType}): {@code getObject} then
     * gives a {@link PgId} ({@code PgSno} etc.), and pgJDBC sends and
     * receives them in binary (pgJDBC 42.5.5): parameters from the first
     * execution of any prepared statement; results only once the statement
     * is server-prepared, from the first execution with
     * {@code prepareThreshold=-1}, else from the one after the
     * {@code prepareThreshold}-th (the 6th by default); neither with
     * {@code preferQueryMode=simple} or with the OID in
     * {@code binaryTransferDisable}.
     *
     * <p>Each is registered under the names pgJDBC gives its OID in results
     * on this connection: the bare name if the extension's schema is on the
     * search_path now, else the quoted qualified name
     * ({@code "schema"."sno"}), and then the bare name too if that names
     * this type (pgJDBC names the OID by it once a parameter named so is
     * looked up).
     *
     * <p>Parameters: the result's {@link PgUidTypes#of} names the type as
     * found here, schema-qualified and quoted, so that pgJDBC sends it with
     * the extension's OID whatever else is named so ({@link PgUid#of} names
     * it bare, for pgJDBC to look up on the search_path).
     *
     * @return the types' OIDs and qualified names, for this connection
     * @throws SQLException from the server, or if the database lacks the extension
     */
    public static PgUidTypes register(Connection conn) throws SQLException {
        Map<String, Integer> oids = new LinkedHashMap<>();
        Map<String, String> qualified = new LinkedHashMap<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(TYPES_SQL)) {
            while (rs.next()) {
                oids.put(rs.getString(1), (int) rs.getLong(2));
                // as pgJDBC writes a qualified name (TypeInfoCache): each
                // part in double quotes, as it is (pgJDBC undoes no doubling)
                qualified.put(rs.getString(1), "\"" + rs.getString(3) + "\".\"" + rs.getString(1) + "\"");
            }
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        BaseConnection base = conn.unwrap(BaseConnection.class);
        Map<String, Integer> found = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (String name : new String[] {"sno", "muid", "snowflake_si", "revts8", "uid60"}) {
            Integer oid = oids.get(name);
            if (oid == null) {
                throw new SQLException("pgkuid: type " + name + " not found: is the extension uid installed"
                        + " in this database (CREATE EXTENSION uid)?", "42704");
            }
            String shown = base.getTypeInfo().getPGType(oid);
            pg.addDataType(shown, CLASSES.get(name));
            // pgJDBC also names the OID by the bare name once something (a
            // parameter of() made) looks that name up and finds this type
            if (!shown.equals(name) && base.getTypeInfo().getPGType(name) == oid) {
                pg.addDataType(name, CLASSES.get(name));
            }
            // the name parameters go with: pgJDBC looks a qualified name
            // up in its schema only; it must give this OID
            String q = qualified.get(name);
            if (base.getTypeInfo().getPGType(q) != oid) {
                throw new SQLException("pgkuid: pgJDBC finds another type than the extension's under " + q, "42704");
            }
            if (!q.equals(shown)) {
                pg.addDataType(q, CLASSES.get(name)); // should pgJDBC name the OID so in results too
            }
            found.put(name, oid);
            names.put(name, q);
        }
        return new PgUidTypes(found, names);
    }

    /**
     * The value as pgJDBC holds it, to send with {@code setObject} (null
     * stays null), named by the bare type name, which pgJDBC looks up on the
     * search_path: right where nothing else of that name (a type, a table)
     * is on the path before the extension's schema. The {@link PgUidTypes}
     * that {@link #register} returns makes one named unambiguously.
     */
    public static PgId<?> of(UidValue x) {
        if (x == null) {
            return null;
        } else if (x instanceof Sno) {
            return PgSno.of((Sno) x);
        } else if (x instanceof Muid) {
            return PgMuid.of((Muid) x);
        } else if (x instanceof SnowflakeSi) {
            return PgSnowflakeSi.of((SnowflakeSi) x);
        } else if (x instanceof Revts8) {
            return PgRevts8.of((Revts8) x);
        }
        return PgUid60.of((Uid60) x);
    }
}
