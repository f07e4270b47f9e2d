package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.HostRef;
import dev.bigfleet.proxmox.proto.v1alpha1.Resources;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Converts between domain snapshots and the wire messages. */
final class ProtoMapper {
    private ProtoMapper() {}

    static dev.bigfleet.proxmox.proto.v1alpha1.Machine toProto(Machine m) {
        var b = dev.bigfleet.proxmox.proto.v1alpha1.Machine.newBuilder()
                .setId(m.id())
                .setState(toProto(m.state()))
                .setInstanceType(m.instanceType())
                .setZone(m.zone())
                .setCapacityType(toProto(m.capacityType()))
                .setPricePerHour(m.pricePerHour())
                .setInterruptionProbability(m.interruptionProbability())
                .putAllLabels(m.labels())
                .setLastError(m.lastError())
                .setCluster(m.cluster())
                .putAllShardMetadata(m.shardMetadata());
        if (!m.host().isEmpty()) {
            b.setHost(HostRef.newBuilder()
                    .setProvider(m.host().provider())
                    .setRef(m.host().ref()));
        }
        if (!m.resources().isEmpty()) {
            b.setResources(resources(m.resources()));
        }
        if (!m.allocatable().isEmpty()) {
            b.setAllocatable(resources(m.allocatable()));
        }
        return b.build();
    }

    private static Resources resources(Map<String, String> map) {
        return Resources.newBuilder().putAllResources(map).build();
    }

    static dev.bigfleet.proxmox.proto.v1alpha1.MachineState toProto(MachineState state) {
        return dev.bigfleet.proxmox.proto.v1alpha1.MachineState.valueOf("MACHINE_STATE_" + state.name());
    }

    static dev.bigfleet.proxmox.proto.v1alpha1.CapacityType toProto(CapacityType type) {
        return dev.bigfleet.proxmox.proto.v1alpha1.CapacityType.valueOf("CAPACITY_TYPE_" + type.name());
    }

    /** The domain states a List filter names; UNSPECIFIED and unknown numbers match nothing. */
    static Set<MachineState> states(List<dev.bigfleet.proxmox.proto.v1alpha1.MachineState> wire) {
        Set<MachineState> states = EnumSet.noneOf(MachineState.class);
        for (var s : wire) {
            if (s == dev.bigfleet.proxmox.proto.v1alpha1.MachineState.MACHINE_STATE_UNSPECIFIED
                    || s == dev.bigfleet.proxmox.proto.v1alpha1.MachineState.UNRECOGNIZED) {
                continue;
            }
            states.add(MachineState.valueOf(s.name().substring("MACHINE_STATE_".length())));
        }
        return states;
    }
}
