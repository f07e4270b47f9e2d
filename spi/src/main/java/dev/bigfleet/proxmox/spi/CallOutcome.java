package dev.bigfleet.proxmox.spi;

/** How one call to the substrate ended, as {@link ApiCallRecorder} counts it. */
public enum CallOutcome {
    /** The call did what it was asked. */
    SUCCESS,
    /**
     * An expected "not yet": a poll of a task still running, a ping of a guest agent that is still
     * booting. Counted apart from errors, so an error-ratio alert stays quiet on healthy Creates.
     */
    WAITING,
    /** The call failed: refused, unreachable, timed out. */
    ERROR;

    /** The metric label: {@code success}, {@code waiting} or {@code error}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
