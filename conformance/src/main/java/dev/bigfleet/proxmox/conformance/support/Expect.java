package dev.bigfleet.proxmox.conformance.support;

import io.grpc.Status;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Assertions over status codes, worded as the conformance text words them. "Rejected" means any
 * error except FAILED_PRECONDITION, which the contract reserves for fencing.
 */
public final class Expect {
    private Expect() {}

    public static <T> T ok(Outcome<T> outcome, String what) {
        if (!outcome.ok()) {
            throw new AssertionError(what + ": expected OK but got " + outcome);
        }
        return outcome.response();
    }

    public static void rejected(Outcome<?> outcome, String what) {
        if (!outcome.rejected()) {
            throw new AssertionError(
                    what + ": expected a rejection (an error other than FAILED_PRECONDITION)" + " but got " + outcome);
        }
    }

    public static void fenced(Outcome<?> outcome, String what) {
        if (!outcome.fenced()) {
            throw new AssertionError(what + ": expected FAILED_PRECONDITION (fenced) but got " + outcome);
        }
    }

    public static void notFenced(Outcome<?> outcome, String what) {
        if (outcome.fenced()) {
            throw new AssertionError(what + ": expected the token to pass the fence but got " + outcome);
        }
    }

    public static void code(Outcome<?> outcome, String what, Status.Code... allowed) {
        Set<Status.Code> set = EnumSet.copyOf(Arrays.asList(allowed));
        if (!set.contains(outcome.code())) {
            throw new AssertionError(what + ": expected " + set + " but got " + outcome);
        }
    }
}
