package dev.bigfleet.proxmox.ctl;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Prints results as aligned tables or as JSON: protobuf's JSON mapping with the proto field names
 * and every field, so scripts see the same names as the wire contract.
 */
final class Printer {
    private static final JsonFormat.Printer JSON =
            JsonFormat.printer().preservingProtoFieldNames().alwaysPrintFieldsWithNoPresence();
    private static final JsonFormat.Printer JSON_LINE = JSON.omittingInsignificantWhitespace();

    private final PrintWriter out;
    private final OutputFormat format;

    Printer(PrintWriter out, OutputFormat format) {
        this.out = out;
        this.format = format;
    }

    OutputFormat format() {
        return format;
    }

    /** A List page: one row per machine, then the cursor to pass to {@code --since}. */
    void machines(MachineList list) throws InvalidProtocolBufferException {
        if (format == OutputFormat.JSON) {
            out.println(JSON.print(list));
            return;
        }
        Table table = new Table("ID", "STATE", "TYPE", "ZONE", "HOST", "CLUSTER", "PRICE/H", "LAST ERROR");
        for (Machine m : list.getMachinesList()) {
            table.row(
                    m.getId(),
                    StateConverter.shortName(m.getState()),
                    m.getInstanceType(),
                    m.getZone(),
                    m.getHost().getRef(),
                    m.getCluster(),
                    price(m.getPricePerHour()),
                    m.getLastError());
        }
        table.print(out);
        out.println(list.getMachinesCount() + (list.getMachinesCount() == 1 ? " machine" : " machines") + "; cursor "
                + Cursor.text(list.getRevision()));
    }

    /** One machine, a field per line. */
    void machine(Machine m) throws InvalidProtocolBufferException {
        if (format == OutputFormat.JSON) {
            out.println(JSON.print(m));
            return;
        }
        new Table("FIELD", "VALUE")
                .row("id", m.getId())
                .row("state", StateConverter.shortName(m.getState()))
                .row(
                        "host",
                        m.hasHost()
                                ? m.getHost().getProvider() + "/" + m.getHost().getRef()
                                : "")
                .row("instance_type", m.getInstanceType())
                .row("zone", m.getZone())
                .row("capacity_type", m.getCapacityType().name().replace("CAPACITY_TYPE_", ""))
                .row("price_per_hour", price(m.getPricePerHour()))
                .row("resources", pairs(m.getResources().getResourcesMap()))
                .row("allocatable", pairs(m.getAllocatable().getResourcesMap()))
                .row("labels", pairs(m.getLabelsMap()))
                .row("cluster", m.getCluster())
                .row("shard_metadata", pairs(m.getShardMetadataMap()))
                .row("last_error", m.getLastError())
                .print(out);
    }

    /** A lifecycle call's answer: the operation id and the machine in its transitional state. */
    void ack(TransitionAck ack) throws InvalidProtocolBufferException {
        if (format == OutputFormat.JSON) {
            out.println(JSON.print(ack));
            return;
        }
        new Table("OPERATION", "MACHINE", "STATE")
                .row(
                        ack.getOperationId(),
                        ack.getMachine().getId(),
                        StateConverter.shortName(ack.getMachine().getState()))
                .print(out);
    }

    /** One change seen by {@code list --watch}: a line each, so it can be followed as it comes. */
    void change(Instant at, Machine m, MachineState before) throws InvalidProtocolBufferException {
        String time = at.truncatedTo(ChronoUnit.SECONDS).toString();
        if (format == OutputFormat.JSON) {
            out.println("{\"time\":\"" + time + "\",\"machine\":" + JSON_LINE.print(m) + "}");
        } else {
            StringBuilder line =
                    new StringBuilder(time).append("  ").append(m.getId()).append("  ");
            if (before != null && before != m.getState()) {
                line.append(StateConverter.shortName(before)).append(" -> ");
            }
            line.append(StateConverter.shortName(m.getState()));
            if (!m.getHost().getRef().isEmpty()) {
                line.append("  host=").append(m.getHost().getRef());
            }
            if (!m.getCluster().isEmpty()) {
                line.append("  cluster=").append(m.getCluster());
            }
            if (!m.getLastError().isEmpty()) {
                line.append("  error=\"").append(m.getLastError()).append('"');
            }
            out.println(line);
        }
        out.flush();
    }

    private static String price(double perHour) {
        return String.format(Locale.ROOT, "%.4f", perHour);
    }

    private static String pairs(Map<String, String> map) {
        return new TreeMap<>(map)
                .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
