package pgkuid.pgjdbc;

import pgkuid.Revts8;

/**
 * A revts8 as pgJDBC holds it (see {@link PgId}).
 */
public final class PgRevts8 extends PgId<Revts8> {
    private static final long serialVersionUID = 1L;

    public PgRevts8() { super("revts8"); }

    @Override
    Revts8 parse(String text) { return Revts8.parse(text); }

    @Override
    Revts8 fromBytes(byte[] data) { return Revts8.fromBytes(data); }

    /** The value, to send with {@code setObject}. */
    public static PgRevts8 of(Revts8 x) {
        PgRevts8 p = new PgRevts8();
        p.set(x);
        return p;
    }
}
