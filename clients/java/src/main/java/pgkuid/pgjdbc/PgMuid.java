package pgkuid.pgjdbc;

import pgkuid.Muid;

/**
 * A muid as pgJDBC holds it (see {@link PgId}).
 */
public final class PgMuid extends PgId<Muid> {
    private static final long serialVersionUID = 1L;

    public PgMuid() { super("muid"); }

    @Override
    Muid parse(String text) { return Muid.parse(text); }

    @Override
    Muid fromBytes(byte[] data) { return Muid.fromBytes(data); }

    /** The value, to send with {@code setObject}. */
    public static PgMuid of(Muid x) {
        PgMuid p = new PgMuid();
        p.set(x);
        return p;
    }
}
