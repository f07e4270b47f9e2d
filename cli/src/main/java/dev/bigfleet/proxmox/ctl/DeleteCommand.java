package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code delete ID}: IDLE to SPECULATIVE (Delete). */
@Command(name = "delete", description = "Destroys the machine's VM: IDLE -> DELETING -> SPECULATIVE (Delete).")
final class DeleteCommand extends ProviderCall {
    @Parameters(paramLabel = "MACHINE_ID", description = "The machine's id.")
    String id;

    @ArgGroup(exclusive = false, heading = "Fence token (all three or none):%n")
    FenceToken fence;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        FenceToken token = FenceToken.orNone(fence);
        printer.ack(calls.next()
                .delete(DeleteRequest.newBuilder()
                        .setMachineId(id)
                        .setShardId(token.shardId())
                        .setShardEpoch(token.epoch)
                        .setSequenceNumber(token.sequence)
                        .build()));
        return 0;
    }
}
