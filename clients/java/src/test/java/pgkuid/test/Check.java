package pgkuid.test;

import java.util.Objects;

/** Counts checks and reports each failure on a line of its own. */
final class Check {
    int checks, failures;

    /** A check: ok, else what failed. */
    void that(boolean ok, String what) {
        checks++;
        if (!ok) {
            failures++;
            System.out.println("FAIL: " + what);
        }
    }

    /** got equals want. */
    void eq(Object got, Object want, String what) {
        that(Objects.equals(got, want), what + ": got " + got + ", want " + want);
    }
}
