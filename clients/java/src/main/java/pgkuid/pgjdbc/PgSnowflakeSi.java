package pgkuid.pgjdbc;

import pgkuid.SnowflakeSi;

/**
 * A snowflake_si as pgJDBC holds it (see {@link PgId}).
 * Values read by pgJDBC have the default {@link SnowflakeSi.Layout} (the
 * server's settings' defaults); {@code get().withLayout(l)} reads one under
 * another. A {@code PgSnowflakeSi} serializes as its text only, so one
 * deserialized has the default layout again whatever its value's was:
 * {@code withLayout(l)} it anew.
 */
public final class PgSnowflakeSi extends PgId<SnowflakeSi> {
    private static final long serialVersionUID = 1L;

    public PgSnowflakeSi() { super("snowflake_si"); }

    @Override
    SnowflakeSi parse(String text) { return SnowflakeSi.parse(text); }

    @Override
    SnowflakeSi fromBytes(byte[] data) { return SnowflakeSi.fromBytes(data); }

    /** The value, to send with {@code setObject}. */
    public static PgSnowflakeSi of(SnowflakeSi x) {
        PgSnowflakeSi p = new PgSnowflakeSi();
        p.set(x);
        return p;
    }
}
