package pgkuid.test;

/**
 * The tests: offline over the shared vectors, then against the server of
 * the libpq environment (skipped without one, a failure with
 * UID_TEST_REQUIRE_SERVER=1). Exits 1 if a check fails.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        System.out.println("pgkuid tests: Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vm.name") + "), pgJDBC " + org.postgresql.util.DriverInfo.DRIVER_VERSION);
        Check offline = new Check();
        new OfflineTests(offline).run();
        System.out.println("offline (vectors, messages, order, adapter): " + offline.checks + " checks, "
                + offline.failures + " failed");
        Check server = new Check();
        String skipped = new ServerTests(server).run();
        if (skipped != null) {
            System.out.println("server: SKIPPED (" + skipped + ")");
        } else {
            System.out.println("server: " + server.checks + " checks, " + server.failures + " failed");
        }
        int failures = offline.failures + server.failures;
        System.out.println(failures == 0 ? "OK" : "FAILED: " + failures + " of " + (offline.checks + server.checks) + " checks");
        System.exit(failures == 0 ? 0 : 1);
    }
}
