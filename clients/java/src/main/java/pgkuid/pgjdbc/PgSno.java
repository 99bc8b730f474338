package pgkuid.pgjdbc;

import pgkuid.Sno;

/**
 * A sno as pgJDBC holds it (see {@link PgId}).
 */
public final class PgSno extends PgId<Sno> {
    private static final long serialVersionUID = 1L;

    public PgSno() { super("sno"); }

    @Override
    Sno parse(String text) { return Sno.parse(text); }

    @Override
    Sno fromBytes(byte[] data) { return Sno.fromBytes(data); }

    /** The value, to send with {@code setObject}. */
    public static PgSno of(Sno x) {
        PgSno p = new PgSno();
        p.set(x);
        return p;
    }
}
