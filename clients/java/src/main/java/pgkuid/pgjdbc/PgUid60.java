package pgkuid.pgjdbc;

import pgkuid.Uid60;

/**
 * A uid60 as pgJDBC holds it (see {@link PgId}).
 */
public final class PgUid60 extends PgId<Uid60> {
    private static final long serialVersionUID = 1L;

    public PgUid60() { super("uid60"); }

    @Override
    Uid60 parse(String text) { return Uid60.parse(text); }

    @Override
    Uid60 fromBytes(byte[] data) { return Uid60.fromBytes(data); }

    /** The value, to send with {@code setObject}. */
    public static PgUid60 of(Uid60 x) {
        PgUid60 p = new PgUid60();
        p.set(x);
        return p;
    }
}
