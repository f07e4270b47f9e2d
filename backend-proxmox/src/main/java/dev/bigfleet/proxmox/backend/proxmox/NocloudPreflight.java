package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.seed.NoCloudSeed;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.PreflightStep;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The steps of {@code preflight --live} that a nocloud type's clone takes instead of the guest
 * commands: a test seed uploaded and attached ({@link SeedDelivery#stage}), the clone started, and
 * the proof that its guest read the seed: cloud-init's result naming the NoCloud datasource (read
 * through the guest agent's {@code file-read}, which works where {@code guest-exec} is refused), or
 * the guest taking the seed's host name (Talos with its agent extension). A guest without an agent
 * cannot say; its first Configure will. Whether the agent refuses {@code guest-exec} is reported,
 * since a nocloud type needs none.
 */
final class NocloudPreflight {
    static final List<String> STEPS = List.of("clone", "seed", "start", "guest", "cluster", "destroy");

    /** How long a booting guest is given to read its seed: software-emulated guests boot slowly. */
    static final Duration GUEST_LIMIT = Duration.ofMinutes(3);

    private static final String RESULT = "/run/cloud-init/result.json";
    private static final Polling POLLING = new Polling(Duration.ofMillis(500), Duration.ofSeconds(3));

    private final PveClient api;
    private final SeedDelivery seeds;

    NocloudPreflight(PveClient api, SeedDelivery seeds) {
        this.api = api;
        this.seeds = seeds;
    }

    /** A test seed for {@code vm}: its user-data joins nothing. */
    static NoCloudSeed testSeed(OwnedVm vm, String hostname, String operationId) {
        return new NoCloudSeed(
                "bigfleet-preflight-" + vm.vmid() + "-" + operationId,
                hostname,
                LivePreflight.TEST_BLOB,
                Optional.empty());
    }

    /** Whether the guest read its seed, and what its agent allows. */
    PreflightStep guest(OwnedVm vm, String hostname, PreflightContext context) throws BackendException {
        PveApiException[] lastAgentError = {null};
        Optional<String> read = POLLING.until(Instant.now().plus(GUEST_LIMIT), context, () -> {
            try {
                String result = api.agentFileRead(vm.node(), vm.vmid(), RESULT);
                if (result.contains("NoCloud")) {
                    return Optional.of("cloud-init read the seed (" + RESULT + " names the NoCloud datasource)");
                }
            } catch (PveApiException e) {
                lastAgentError[0] = e;
            }
            try {
                if (api.agentHostName(vm.node(), vm.vmid()).equals(hostname)) {
                    return Optional.of("the guest took the seed's host name " + hostname);
                }
            } catch (PveApiException e) {
                lastAgentError[0] = e;
            }
            return Optional.empty();
        });
        String exec = execAllowed(vm);
        if (read.isPresent()) {
            return PreflightStep.pass("guest", read.get() + exec);
        }
        if (lastAgentError[0] != null && GuestExec.agentNotAnswering(lastAgentError[0])) {
            return PreflightStep.skip(
                    "guest",
                    "no guest agent answered within " + GUEST_LIMIT.toMinutes()
                            + " min, so the guest cannot say whether it read its seed; its first Configure will"
                            + " (its node joins)");
        }
        return PreflightStep.fail(
                "guest",
                "the guest did not show that it read its seed within " + GUEST_LIMIT.toMinutes() + " min: no "
                        + RESULT + " naming NoCloud, and its host name is not " + hostname
                        + (lastAgentError[0] == null
                                ? ""
                                : " (last agent answer: " + lastAgentError[0].getMessage() + ")")
                        + exec);
    }

    /** "; guest-exec is refused ..." when the agent refuses it, else "". */
    private String execAllowed(OwnedVm vm) {
        try {
            api.agentExec(vm.node(), vm.vmid(), List.of("/bin/true"));
            return "";
        } catch (PveApiException e) {
            return e.mentions("has been disabled")
                    ? "; its guest agent refuses guest-exec (" + e.getMessage() + "), which this type never needs"
                    : "";
        }
    }

    SeedDelivery seeds() {
        return seeds;
    }
}
