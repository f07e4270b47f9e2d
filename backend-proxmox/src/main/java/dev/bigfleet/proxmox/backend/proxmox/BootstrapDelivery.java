package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ExecStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configure's guest side: writes the blob to {@code --bootstrap-path} (mode 0600, in chunks the
 * agent accepts), runs {@code --bootstrap-exec} on it, and deletes it whatever happened. Creating
 * the empty file is sent again when its outcome is unknown (it cannot harm, run twice); the hook
 * is never sent twice. A hook
 * that exits non-zero fails the Configure with its exit code and at most 2 KiB of its stderr,
 * scrubbed of the blob. The blob itself is never logged or put in a message.
 */
final class BootstrapDelivery {
    /** Raw bytes per file-write: base64 of 46080 bytes is exactly the agent's 61440-character limit. */
    static final int CHUNK_BYTES = 46080;

    private static final Duration HELPER_LIMIT = Duration.ofSeconds(60);
    private static final Polling WRITE_POLLING = new Polling(Duration.ofMillis(250), Duration.ofSeconds(2));
    private static final Logger log = LoggerFactory.getLogger(BootstrapDelivery.class);

    private final PveClient api;
    private final GuestExec exec;
    private final String path;
    private final List<String> hookArgv;

    BootstrapDelivery(PveClient api, GuestExec exec, String path, List<String> bootstrapExec) {
        this.api = api;
        this.exec = exec;
        this.path = path;
        this.hookArgv = GuestScripts.hook(bootstrapExec, path);
    }

    void deliver(OwnedVm vm, byte[] blob, Redactor redactor, OperationContext context) throws BackendException {
        Redactor scrub = redactor.withBlob(blob);
        List<byte[]> chunks = chunks(blob);
        List<String> parts = new ArrayList<>();
        if (chunks.size() > 1) {
            for (int i = 0; i < chunks.size(); i++) {
                parts.add(path + ".part-" + i);
            }
        }
        List<String> files = parts.isEmpty() ? List.of(path) : parts;
        List<String> created = new ArrayList<>(files);
        if (!parts.isEmpty()) {
            created.add(path);
        }
        String what = "bootstrap VM " + vm.ref();
        try {
            prepare(vm, files, what + ": create " + path, scrub, context);
            for (int i = 0; i < chunks.size(); i++) {
                if (chunks.get(i).length == 0) {
                    continue;
                }
                write(
                        vm,
                        files.get(i),
                        Base64.getEncoder().encodeToString(chunks.get(i)),
                        context,
                        what + ": write " + files.get(i) + " (" + (i + 1) + "/" + chunks.size() + ")",
                        scrub);
            }
            if (!parts.isEmpty()) {
                helper(vm, GuestScripts.assemble(path, parts), what + ": assemble " + path, scrub, context);
            }
            String hook = String.join(" ", hookArgv);
            ExecStatus status;
            try {
                status = exec.run(vm.node(), vm.vmid(), hookArgv, context.remaining(), what + ": run " + hook, context);
            } catch (BackendException e) {
                if (ApiFailures.isTransient(e)) {
                    throw e; // the hook was certainly not started: the whole delivery may run again
                }
                if (e instanceof GuestExec.NotStarted) {
                    // refused (e.g. the agent cannot execute it): definite, and the hook never ran
                    throw new BackendException(scrub.scrub(String.valueOf(e.getMessage())), e.getCause());
                }
                // the hook may have run (or still run): the node may be joining its cluster
                throw BackendException.afterBootstrapStarted(scrub.scrub(String.valueOf(e.getMessage())), e.getCause());
            }
            if (!status.succeeded()) {
                throw BackendException.afterBootstrapStarted(
                        "bootstrap hook \"" + hook + "\" on VM " + vm.ref() + " " + GuestExec.failure(status, scrub),
                        null);
            }
        } finally {
            removeQuietly(vm, created, scrub, context);
        }
    }

    /**
     * One file-write. While the agent does not answer Proxmox's ping (busy with another client,
     * restarting) nothing was written, and writing again is harmless (the file is opened {@code wb}),
     * so it is tried again within the helper limit.
     */
    private void write(OwnedVm vm, String file, String base64, OperationContext context, String what, Redactor scrub)
            throws BackendException {
        PveApiException[] last = {null};
        Optional<Boolean> written = WRITE_POLLING.until(Instant.now().plus(HELPER_LIMIT), context, () -> {
            try {
                api.agentFileWrite(vm.node(), vm.vmid(), file, base64);
                return Optional.of(true);
            } catch (PveApiException e) {
                if (GuestExec.agentNotAnswering(e)) {
                    last[0] = e;
                    return Optional.empty();
                }
                throw new BackendException(what + ": " + scrub.scrub(e.getMessage()), e);
            }
        });
        if (written.isEmpty()) {
            throw new BackendException(
                    what + ": " + (last[0] == null ? "no answer" : scrub.scrub(last[0].getMessage())), last[0]);
        }
    }

    /**
     * Creates the files empty, mode 0600 ({@link GuestScripts#prepare}), sending that again when its
     * outcome is unknown. What is in the way of one (a leftover, a file of another mode) is removed
     * first, by a command sent once: removing is what a late second run must never do.
     */
    private void prepare(OwnedVm vm, List<String> files, String what, Redactor scrub, OperationContext context)
            throws BackendException {
        List<String> argv = GuestScripts.prepare(files);
        ExecStatus status = exec.runAgain(vm.node(), vm.vmid(), argv, HELPER_LIMIT, what, context);
        if (inTheWay(status)) {
            log.info(
                    "{}: replacing what is in the way on VM {} (a leftover, or a file of another mode)",
                    what,
                    vm.ref());
            helper(vm, GuestScripts.remove(files), what + ": remove what is in the way", scrub, context);
            status = exec.runAgain(vm.node(), vm.vmid(), argv, HELPER_LIMIT, what, context);
            if (inTheWay(status)) {
                throw new BackendException(what + ": something is still in the way of " + String.join(", ", files)
                        + " after it was removed");
            }
        }
        if (!status.succeeded()) {
            throw new BackendException(what + ": " + GuestExec.failure(status, scrub));
        }
    }

    private static boolean inTheWay(ExecStatus status) {
        return status.signal().isEmpty() && status.exitCode().equals(OptionalInt.of(GuestScripts.IN_THE_WAY));
    }

    private void helper(OwnedVm vm, List<String> argv, String what, Redactor scrub, OperationContext context)
            throws BackendException {
        ExecStatus status = exec.run(vm.node(), vm.vmid(), argv, HELPER_LIMIT, what, context);
        if (!status.succeeded()) {
            throw new BackendException(what + ": " + GuestExec.failure(status, scrub));
        }
    }

    /** The blob must not stay in the guest; a failure to delete it is logged, not fatal. */
    private void removeQuietly(OwnedVm vm, List<String> files, Redactor scrub, OperationContext context) {
        try {
            ExecStatus status = exec.run(
                    vm.node(),
                    vm.vmid(),
                    GuestScripts.remove(files),
                    HELPER_LIMIT,
                    "delete bootstrap file on VM " + vm.ref(),
                    context);
            if (!status.succeeded()) {
                log.warn(
                        "could not delete the bootstrap file {} on VM {}: {}",
                        path,
                        vm.ref(),
                        GuestExec.failure(status, scrub));
            }
        } catch (BackendException | RuntimeException e) {
            log.warn(
                    "could not delete the bootstrap file {} on VM {}: {}",
                    path,
                    vm.ref(),
                    scrub.scrub(String.valueOf(e.getMessage())));
        }
    }

    static List<byte[]> chunks(byte[] blob) {
        List<byte[]> out = new ArrayList<>();
        for (int from = 0; from < blob.length; from += CHUNK_BYTES) {
            out.add(Arrays.copyOfRange(blob, from, Math.min(blob.length, from + CHUNK_BYTES)));
        }
        if (out.isEmpty()) {
            out.add(new byte[0]);
        }
        return out;
    }
}
