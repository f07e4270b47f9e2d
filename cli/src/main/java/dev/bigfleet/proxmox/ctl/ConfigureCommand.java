package dev.bigfleet.proxmox.ctl;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code configure ID --cluster-id C [--blob-file FILE]}: IDLE to CONFIGURED (Configure). The
 * bootstrap blob is a credential, so it is read from a file (or standard input with {@code -}),
 * never taken from the command line where the process list would show it, and never printed.
 */
@Command(
        name = "configure",
        description = "Joins the machine to a cluster: IDLE -> CONFIGURING -> CONFIGURED (Configure).")
final class ConfigureCommand extends ProviderCall {
    @Parameters(paramLabel = "MACHINE_ID", description = "The machine's id.")
    String id;

    @Option(names = "--cluster-id", required = true, paramLabel = "ID", description = "The cluster to join.")
    String clusterId;

    @Option(
            names = "--metadata",
            paramLabel = "KEY=VALUE",
            description = "Shard metadata stored with the machine (repeatable).")
    Map<String, String> metadata = new LinkedHashMap<>();

    @Option(
            names = "--blob-file",
            paramLabel = "FILE",
            description = "The bootstrap blob, read from FILE ('-': standard input); empty when not given.")
    Path blobFile;

    @ArgGroup(exclusive = false, heading = "Fence token (all three or none):%n")
    FenceToken fence;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        byte[] blob = blobFile == null ? new byte[0] : InputFiles.read(blobFile, "--blob-file", System.in);
        FenceToken token = FenceToken.orNone(fence);
        printer.ack(calls.next()
                .configure(ConfigureRequest.newBuilder()
                        .setMachineId(id)
                        .setClusterId(clusterId)
                        .setBootstrapBlob(ByteString.copyFrom(blob))
                        .putAllShardMetadata(metadata)
                        .setShardId(token.shardId())
                        .setShardEpoch(token.epoch)
                        .setSequenceNumber(token.sequence)
                        .build()));
        return 0;
    }
}
