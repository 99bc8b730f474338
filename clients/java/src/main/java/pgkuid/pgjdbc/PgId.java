package pgkuid.pgjdbc;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.function.Function;

import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

import pgkuid.UidException;
import pgkuid.UidValue;

/**
 * A value of one of uid's types as pgJDBC holds it: a {@link PGobject} that
 * reads and writes both the text and the binary form (a
 * {@link PGBinaryObject}, so that pgJDBC, once the type is registered,
 * receives and sends it in binary). {@link #get()} is the value class.
 * pgJDBC makes these with their no-argument constructors; {@code of(x)}
 * makes one to send as a parameter.
 *
 * @param <T> the value class
 */
public abstract class PgId<T extends UidValue> extends PGobject implements PGBinaryObject {
    private static final long serialVersionUID = 1L;

    private transient T id; // PGobject's value (the text) is what serializes

    PgId(String sqlType) { this.type = sqlType; }

    /** The value class's parse. */
    abstract T parse(String text);

    /** The value class's fromBytes. */
    abstract T fromBytes(byte[] data);

    /**
     * The value, or null for SQL NULL. After deserialization it is read
     * from the text once, lazily and without synchronization: threads that
     * race here each parse the same text to equal immutable values, and
     * whichever one the field keeps is as good as the other (a benign race;
     * {@code T}'s fields are final, so a value seen through the field is
     * complete). Like any PGobject, a PgId is not otherwise meant to be
     * shared between threads while it is changed.
     */
    public T get() {
        T x = id;
        if (x == null && value != null) {
            x = parse(value); // after deserialization: the text is a value's
            id = x;
        }
        return x;
    }

    /** Sets the value (null: SQL NULL). */
    public void set(T value) {
        id = value;
        this.value = value == null ? null : value.toString();
    }

    /** Reads the text form; a refused text is the server's error as a SQLDataException. */
    @Override
    public void setValue(String text) throws SQLException {
        set(text == null ? null : convert(this::parse, text));
    }

    /** Reads the binary form from offset to the end of bytes. */
    @Override
    public void setByteValue(byte[] bytes, int offset) throws SQLException {
        set(convert(this::fromBytes, Arrays.copyOfRange(bytes, offset, bytes.length)));
    }

    @Override
    public int lengthInBytes() {
        T x = get();
        return x == null ? 0 : x.toBytes().length;
    }

    @Override
    public void toBytes(byte[] bytes, int offset) {
        byte[] b = get().toBytes();
        System.arraycopy(b, 0, bytes, offset, b.length);
    }

    private static <A, T> T convert(Function<A, T> f, A input) throws SQLDataException {
        try {
            return f.apply(input);
        } catch (UidException e) {
            throw new SQLDataException(e.getMessage(), e.getSQLState(), e);
        }
    }
}
