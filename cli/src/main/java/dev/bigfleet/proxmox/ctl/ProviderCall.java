package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import io.grpc.ManagedChannel;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** A command that makes calls to the provider: one channel for its life, each call under the deadline. */
abstract class ProviderCall implements Callable<Integer> {
    @ParentCommand
    Bigfleetctl root;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        CallOptions options = root.options;
        ManagedChannel channel = options.openChannel();
        try {
            Printer printer = new Printer(spec.commandLine().getOut(), options.output);
            return call(new Calls(CapacityProviderGrpc.newBlockingStub(channel), options.timeout), printer);
        } finally {
            channel.shutdownNow();
            if (!Thread.currentThread().isInterrupted()) { // an interrupted watch just stops
                channel.awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    abstract int call(Calls calls, Printer printer) throws Exception;

    /** A fresh deadline for each call. */
    record Calls(CapacityProviderBlockingStub stub, java.time.Duration timeout) {
        CapacityProviderBlockingStub next() {
            return stub.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
