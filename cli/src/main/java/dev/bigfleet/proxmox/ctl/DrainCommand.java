package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import java.time.Duration;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drain ID [--grace D]}: CONFIGURED to IDLE (Drain). */
@Command(name = "drain", description = "Drains the machine's node: CONFIGURED -> DRAINING -> IDLE (Drain).")
final class DrainCommand extends ProviderCall {
    @Parameters(paramLabel = "MACHINE_ID", description = "The machine's id.")
    String id;

    @Option(
            names = "--grace",
            paramLabel = "DURATION",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "Grace period for the pods to leave, e.g. 90s or 5m (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @ArgGroup(exclusive = false, heading = "Fence token (all three or none):%n")
    FenceToken fence;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        FenceToken token = FenceToken.orNone(fence);
        printer.ack(calls.next()
                .drain(DrainRequest.newBuilder()
                        .setMachineId(id)
                        .setGracePeriodSeconds(grace.toSeconds())
                        .setShardId(token.shardId())
                        .setShardEpoch(token.epoch)
                        .setSequenceNumber(token.sequence)
                        .build()));
        return 0;
    }
}
