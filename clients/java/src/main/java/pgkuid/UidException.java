package pgkuid;

import java.util.Objects;

/**
 * A value the server refuses, with its SQLSTATE, message, DETAIL and HINT
 * exactly as the server reports them ({@code ""} where it has none).
 *
 * <p>Unchecked, as {@link java.util.UUID#fromString} and
 * {@link java.time.Instant#parse} are: parsing a value is not I/O, and a
 * caller that handles the server's errors reads the same four fields here as
 * from a {@link java.sql.SQLException} (the pgJDBC adapter turns it into one
 * with the same SQLSTATE where pgJDBC asks for that).
 */
public final class UidException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The SQLSTATEs of the errors the server raises for values it refuses. */
    public static final String INVALID_TEXT_REPRESENTATION = "22P02",
            INVALID_BINARY_REPRESENTATION = "22P03", NUMERIC_VALUE_OUT_OF_RANGE = "22003",
            DATETIME_VALUE_OUT_OF_RANGE = "22008", INVALID_PARAMETER_VALUE = "22023";

    private final String sqlState, detail, hint;

    public UidException(String sqlState, String message, String detail, String hint) {
        super(message);
        this.sqlState = Objects.requireNonNull(sqlState);
        this.detail = Objects.requireNonNull(detail);
        this.hint = Objects.requireNonNull(hint);
    }

    /** The SQLSTATE, as {@link java.sql.SQLException#getSQLState()}. */
    public String getSQLState() { return sqlState; }

    /** The server's DETAIL, or "". */
    public String getDetail() { return detail; }

    /** The server's HINT, or "". */
    public String getHint() { return hint; }
}
