package dev.bigfleet.proxmox.conformance.support;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.function.Supplier;

/**
 * The result of one RPC: either a response (code OK) or a status code with its description.
 * Behaviours are phrased as codes ("rejected", "fenced"), so tests match on these.
 */
public final class Outcome<T> {
    private final Status.Code code;
    private final T response;
    private final String description;

    private Outcome(Status.Code code, T response, String description) {
        this.code = code;
        this.response = response;
        this.description = description;
    }

    public static <T> Outcome<T> of(Supplier<T> call) {
        try {
            return new Outcome<>(Status.Code.OK, call.get(), "");
        } catch (StatusRuntimeException e) {
            Status status = e.getStatus();
            return new Outcome<>(status.getCode(), null, String.valueOf(status.getDescription()));
        }
    }

    public Status.Code code() {
        return code;
    }

    public boolean ok() {
        return code == Status.Code.OK;
    }

    /** FAILED_PRECONDITION: on this service it means "fenced" and nothing else. */
    public boolean fenced() {
        return code == Status.Code.FAILED_PRECONDITION;
    }

    /** The conformance meaning of "rejected": any error except FAILED_PRECONDITION. */
    public boolean rejected() {
        return !ok() && !fenced();
    }

    /** The response; an AssertionError naming the code when the call did not succeed. */
    public T response() {
        if (!ok()) {
            throw new AssertionError("expected OK but got " + this);
        }
        return response;
    }

    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return ok() ? "OK" : code + " (" + description + ")";
    }
}
