package dev.bigfleet.proxmox.ctl;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code list}: one List call, or with {@code --watch} the full list and then every change as it comes. */
@Command(
        name = "list",
        description = {
            "Lists machines (List). With --watch, prints the list and then each change, following the",
            "provider's delta Lists, until interrupted."
        })
final class ListCommand extends ProviderCall {
    @Option(
            names = "--state",
            split = ",",
            paramLabel = "STATE",
            converter = StateConverter.class,
            description = "Only machines in these states (comma-separated or repeated), e.g. IDLE,FAILED.")
    List<MachineState> states = List.of();

    @Option(
            names = "--since",
            paramLabel = "CURSOR",
            converter = Cursor.class,
            description = "Only machines changed since this cursor (printed by an earlier list).")
    ByteString since;

    @Option(names = "--max-results", paramLabel = "N", description = "At most N machines per page (0: no cap).")
    int maxResults;

    @Option(names = "--watch", description = "Follow changes: poll with the last cursor and print each change.")
    boolean watch;

    @Option(
            names = "--interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            converter = DurationConverter.class,
            description = "With --watch, the pause between polls (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Override
    int call(Calls calls, Printer printer) throws Exception {
        if (maxResults < 0) {
            throw new IllegalArgumentException("--max-results must be >= 0");
        }
        ListFilter.Builder filter = ListFilter.newBuilder().addAllStates(states).setMaxResults(maxResults);
        if (since != null) {
            filter.setSinceRevision(since);
        }
        if (!watch) {
            MachineList list = calls.next().list(filter.build());
            printer.machines(list);
            return 0;
        }
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("--interval must be > 0");
        }
        new Watch(calls, printer, filter.build(), interval).run();
        return 0;
    }
}
