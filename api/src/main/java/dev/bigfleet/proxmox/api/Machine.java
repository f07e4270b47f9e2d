package dev.bigfleet.proxmox.api;

import java.util.Map;
import java.util.Objects;

/**
 * An immutable snapshot of one machine as the provider reports it. Every change produces a new
 * snapshot, so a snapshot handed to a reader or a backend never changes under it.
 */
public record Machine(
        String id,
        MachineState state,
        HostRef host,
        String instanceType,
        String zone,
        CapacityType capacityType,
        double pricePerHour,
        double interruptionProbability,
        Map<String, String> resources,
        Map<String, String> labels,
        String lastError,
        Map<String, String> allocatable,
        String cluster,
        Map<String, String> shardMetadata) {

    public Machine {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(capacityType, "capacityType");
        Objects.requireNonNull(lastError, "lastError");
        Objects.requireNonNull(cluster, "cluster");
        resources = Map.copyOf(resources);
        labels = Map.copyOf(labels);
        allocatable = Map.copyOf(allocatable);
        shardMetadata = Map.copyOf(shardMetadata);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    public Machine withState(MachineState newState) {
        return toBuilder().state(newState).build();
    }

    /** Fluent copy-with-changes. */
    public static final class Builder {
        private String id;
        private MachineState state = MachineState.SPECULATIVE;
        private HostRef host = HostRef.NONE;
        private String instanceType = "";
        private String zone = "";
        private CapacityType capacityType = CapacityType.ON_DEMAND;
        private double pricePerHour;
        private double interruptionProbability;
        private Map<String, String> resources = Map.of();
        private Map<String, String> labels = Map.of();
        private String lastError = "";
        private Map<String, String> allocatable = Map.of();
        private String cluster = "";
        private Map<String, String> shardMetadata = Map.of();

        private Builder(String id) {
            this.id = id;
        }

        private Builder(Machine m) {
            id = m.id;
            state = m.state;
            host = m.host;
            instanceType = m.instanceType;
            zone = m.zone;
            capacityType = m.capacityType;
            pricePerHour = m.pricePerHour;
            interruptionProbability = m.interruptionProbability;
            resources = m.resources;
            labels = m.labels;
            lastError = m.lastError;
            allocatable = m.allocatable;
            cluster = m.cluster;
            shardMetadata = m.shardMetadata;
        }

        public Builder id(String v) {
            id = v;
            return this;
        }

        public Builder state(MachineState v) {
            state = v;
            return this;
        }

        public Builder host(HostRef v) {
            host = v;
            return this;
        }

        public Builder instanceType(String v) {
            instanceType = v;
            return this;
        }

        public Builder zone(String v) {
            zone = v;
            return this;
        }

        public Builder capacityType(CapacityType v) {
            capacityType = v;
            return this;
        }

        public Builder pricePerHour(double v) {
            pricePerHour = v;
            return this;
        }

        public Builder interruptionProbability(double v) {
            interruptionProbability = v;
            return this;
        }

        public Builder resources(Map<String, String> v) {
            resources = v;
            return this;
        }

        public Builder labels(Map<String, String> v) {
            labels = v;
            return this;
        }

        public Builder lastError(String v) {
            lastError = v;
            return this;
        }

        public Builder allocatable(Map<String, String> v) {
            allocatable = v;
            return this;
        }

        public Builder cluster(String v) {
            cluster = v;
            return this;
        }

        public Builder shardMetadata(Map<String, String> v) {
            shardMetadata = v;
            return this;
        }

        public Machine build() {
            return new Machine(
                    id,
                    state,
                    host,
                    instanceType,
                    zone,
                    capacityType,
                    pricePerHour,
                    interruptionProbability,
                    resources,
                    labels,
                    lastError,
                    allocatable,
                    cluster,
                    shardMetadata);
        }
    }
}
