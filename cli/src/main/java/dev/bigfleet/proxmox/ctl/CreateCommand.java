package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code create ID}: SPECULATIVE to IDLE (Create). */
@Command(name = "create", description = "Creates the machine's VM: SPECULATIVE -> CREATING -> IDLE (Create).")
final class CreateCommand extends ProviderCall {
    @Parameters(paramLabel = "MACHINE_ID", description = "The machine's id.")
    String id;

    @ArgGroup(exclusive = false, heading = "Fence token (all three or none):%n")
    FenceToken fence;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        FenceToken token = FenceToken.orNone(fence);
        printer.ack(calls.next()
                .create(CreateRequest.newBuilder()
                        .setMachineId(id)
                        .setShardId(token.shardId())
                        .setShardEpoch(token.epoch)
                        .setSequenceNumber(token.sequence)
                        .build()));
        return 0;
    }
}
