package dev.bigfleet.proxmox.spi.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.bigfleet.proxmox.spi.BackendException;

/**
 * Checks of what a failed backend call leaves an operator: a {@link BackendException} (anything else
 * is reported as an internal error) whose message, the machine's {@code last_error}, is one line
 * and quotes no secret.
 */
public final class BackendFailures {
    /** A backend call expected to fail. */
    @FunctionalInterface
    public interface Call {
        void run() throws Exception;
    }

    private BackendFailures() {}

    /**
     * Runs {@code call}, which must throw a {@link BackendException} with an operator-readable
     * message (see {@link #assertReadable}).
     *
     * @return the exception, for further assertions
     */
    public static BackendException expectFailure(Call call) {
        try {
            call.run();
        } catch (BackendException e) {
            assertReadable(e);
            return e;
        } catch (Exception | LinkageError e) {
            throw new AssertionError("expected a BackendException, got " + e, e);
        }
        return fail("expected a BackendException, but the call succeeded");
    }

    /** The message is present, on one line, and quotes neither the blob nor anything of it. */
    public static void assertReadable(BackendException e) {
        assertThat(e.getMessage())
                .as("last_error of a failed call")
                .isNotBlank()
                .doesNotContain("\n")
                .doesNotContain("\r");
        TestBlob.assertNotQuoted(e);
    }
}
