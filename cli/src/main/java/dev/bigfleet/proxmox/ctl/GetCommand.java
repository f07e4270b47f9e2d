package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code get ID}: one machine (Get). */
@Command(name = "get", description = "Shows one machine (Get).")
final class GetCommand extends ProviderCall {
    @Parameters(paramLabel = "MACHINE_ID", description = "The machine's id.")
    String id;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        printer.machine(calls.next().get(MachineRef.newBuilder().setId(id).build()));
        return 0;
    }
}
