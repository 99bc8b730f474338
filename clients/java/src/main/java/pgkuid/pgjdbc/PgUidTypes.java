package pgkuid.pgjdbc;

import java.util.Collections;
import java.util.Map;

import pgkuid.UidValue;

/**
 * uid's types as {@link PgUid#register} found them on one connection: their
 * OIDs, and the names that make pgJDBC send a parameter with exactly those
 * OIDs. Use its {@link #of} for parameters on that connection.
 *
 * <p>pgJDBC sends a {@code PGobject} parameter with the OID it finds for
 * the object's type name: a bare name such as {@code sno} is looked up
 * through the search_path (or, off it, the highest OID of that name in any
 * schema), so a table named {@code sno} (its row type) or another type
 * {@code sno} earlier on the path would take the parameter. The names here
 * are quoted and schema-qualified ({@code "schema"."sno"}), which pgJDBC
 * looks up in that schema only, where the extension's type is the one of
 * that name. {@link PgUid#of} (the bare name) is fine where no other type
 * or table of the name is on the search_path or elsewhere.
 */
public final class PgUidTypes {
    private final Map<String, Integer> oids;
    private final Map<String, String> names;

    PgUidTypes(Map<String, Integer> oids, Map<String, String> names) {
        this.oids = Collections.unmodifiableMap(oids);
        this.names = Collections.unmodifiableMap(names);
    }

    /** The types' OIDs in the connection's database, by bare name ({@code sno}, ...). */
    public Map<String, Integer> oids() { return oids; }

    /** The quoted, schema-qualified name of a type ({@code sqlType} its bare name), as parameters are sent with it. */
    public String typeName(String sqlType) {
        String name = names.get(sqlType);
        if (name == null) {
            throw new IllegalArgumentException("pgkuid: no type " + sqlType);
        }
        return name;
    }

    /**
     * The value as pgJDBC holds it, to send with {@code setObject} on the
     * connection these were found on, named by the type's qualified name
     * (null stays null).
     */
    public PgId<?> of(UidValue x) {
        PgId<?> p = PgUid.of(x);
        if (p != null) {
            p.setType(typeName(x.sqlType()));
        }
        return p;
    }

    @Override
    public String toString() { return "PgUidTypes" + names; }
}
