package pgkuid;

import java.time.Instant;

/** What the five ID types have in common: one of uid's values. */
public sealed interface UidValue permits Sno, Muid, SnowflakeSi, Revts8, Uid60 {
    /** The SQL type's name: sno, muid, snowflake_si, revts8 or uid60. */
    String sqlType();

    /** The text form, as the type's output function writes it. */
    @Override
    String toString();

    /** The binary form, as the type's send function writes it. */
    byte[] toBytes();

    /** {@code <type>_timestamp()} in microseconds since 1970. */
    long unixMicros();

    /** {@code <type>_timestamp()}. */
    Instant toInstant();
}
