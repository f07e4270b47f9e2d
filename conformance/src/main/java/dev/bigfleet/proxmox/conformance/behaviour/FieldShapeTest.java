package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static dev.bigfleet.proxmox.conformance.support.States.UNSPECIFIED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityType;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Field shape and cost behaviours B801–B807, checked over the whole inventory and along a lifecycle. */
class FieldShapeTest extends CoreConformance {

    /** The full inventory, after making sure IDLE and CONFIGURED machines exist in it. */
    private List<Machine> inventoryWithEveryStableState() {
        Steps.idleMachine(client);
        Steps.configuredMachine(client, "field-shape", Map.of("k", "v"));
        return client.listAll().getMachinesList();
    }

    /** Collects one message per violating machine, so a failure names every offender (up to a few). */
    private static void assertNone(List<String> violations, String rule) {
        assertThat(violations.size() > 10 ? violations.subList(0, 10) : violations)
                .as(rule + " (" + violations.size() + " violations)")
                .isEmpty();
    }

    @Test
    @DisplayName(
            "B801 every machine has a real state and a top-level instance_type; no instance-type, zone or capacity-type label")
    void stateTypeAndNoHiddenLabels() {
        List<String> violations = new ArrayList<>();
        for (Machine m : inventoryWithEveryStableState()) {
            if (m.getState() == UNSPECIFIED || m.getState() == MachineState.UNRECOGNIZED) {
                violations.add(m.getId() + ": state " + m.getState());
            }
            if (m.getInstanceType().isEmpty()) {
                violations.add(m.getId() + ": empty instance_type");
            }
            for (String key : m.getLabelsMap().keySet()) {
                String flat = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
                if (flat.contains("instancetype") || flat.contains("zone") || flat.contains("capacitytype")) {
                    violations.add(m.getId() + ": label " + key + " hides a top-level field");
                }
            }
        }
        assertNone(violations, "state, instance_type and labels");
    }

    @Test
    @DisplayName("B802 price_per_hour is finite and >= 0; interruption_probability is in [0,1] (> 0 for SPOT)")
    void priceAndInterruption() {
        List<String> violations = new ArrayList<>();
        for (Machine m : inventoryWithEveryStableState()) {
            double price = m.getPricePerHour();
            double p = m.getInterruptionProbability();
            if (!Double.isFinite(price) || price < 0) {
                violations.add(m.getId() + ": price_per_hour " + price);
            }
            if (Double.isNaN(p) || p < 0 || p > 1) {
                violations.add(m.getId() + ": interruption_probability " + p);
            }
            if (m.getCapacityType() == CapacityType.CAPACITY_TYPE_SPOT && !(p > 0)) {
                violations.add(m.getId() + ": SPOT with interruption_probability " + p);
            }
        }
        assertNone(violations, "price and interruption probability");
    }

    @Test
    @DisplayName(
            "B803 host empty for SPECULATIVE and set for IDLE/CONFIGURED; cluster empty for SPECULATIVE/IDLE and set for CONFIGURED")
    void hostAndClusterByState() {
        List<String> violations = new ArrayList<>();
        Set<MachineState> seen = new HashSet<>();
        for (Machine m : inventoryWithEveryStableState()) {
            seen.add(m.getState());
            MachineState s = m.getState();
            if (s == SPECULATIVE && !States.hostEmpty(m)) {
                violations.add("host set on " + States.describe(m));
            }
            if ((s == IDLE || s == CONFIGURED) && !States.hostSet(m)) {
                violations.add("host missing on " + States.describe(m));
            }
            if ((s == SPECULATIVE || s == IDLE) && !m.getCluster().isEmpty()) {
                violations.add("cluster set on " + States.describe(m));
            }
            if (s == CONFIGURED && m.getCluster().isEmpty()) {
                violations.add("cluster missing on " + States.describe(m));
            }
        }
        assertThat(seen).as("states in the inventory").contains(SPECULATIVE, IDLE, CONFIGURED);
        assertNone(violations, "host and cluster by state");
    }

    @Test
    @DisplayName("B804 when allocatable and resources are present both are non-empty maps, so density is computable")
    void densityComputable() {
        List<String> violations = new ArrayList<>();
        int withBoth = 0;
        for (Machine m : inventoryWithEveryStableState()) {
            if (m.hasResources() && m.getResources().getResourcesCount() == 0) {
                violations.add(m.getId() + ": resources present but empty");
            }
            if (m.hasAllocatable() && m.getAllocatable().getResourcesCount() == 0) {
                violations.add(m.getId() + ": allocatable present but empty");
            }
            if (m.hasResources() && m.hasAllocatable()) {
                withBoth++;
                Map<String, String> r = m.getResources().getResourcesMap();
                Map<String, String> a = m.getAllocatable().getResourcesMap();
                if (r.keySet().stream().noneMatch(a::containsKey)) {
                    violations.add(m.getId() + ": resources " + r.keySet() + " and allocatable " + a.keySet()
                            + " share no resource name");
                }
                if (r.values().stream().anyMatch(String::isBlank)
                        || a.values().stream().anyMatch(String::isBlank)) {
                    violations.add(m.getId() + ": blank quantity in " + r + " / " + a);
                }
            }
        }
        assertNone(violations, "resources and allocatable (" + withBoth + " machines with both)");
    }

    @Test
    @DisplayName("B805 host.provider is identical on every Get and List through Idle->Configured->Idle")
    void providerLabelStable() {
        String id = freshMachine();
        Trace trace = new Trace();
        trace.add(Expect.ok(client.tryCreate(Requests.create(id)), "Create").getMachine());
        Await.follow(client, id, trace);
        listInto(trace, id);
        trace.add(Expect.ok(client.tryConfigure(Requests.configure(id, "b805")), "Configure")
                .getMachine());
        Await.follow(client, id, trace);
        listInto(trace, id);
        trace.add(Expect.ok(client.tryDrain(Requests.drain(id)), "Drain").getMachine());
        Await.follow(client, id, trace);
        listInto(trace, id);
        Set<String> providers = new HashSet<>();
        for (Machine m : trace.observed()) {
            if (m.getState() == IDLE || m.getState() == CONFIGURED) {
                assertThat(States.hostSet(m))
                        .as("host on " + States.describe(m))
                        .isTrue();
            }
            if (m.hasHost() && !m.getHost().getRef().isEmpty()) {
                providers.add(m.getHost().getProvider());
            }
        }
        assertThat(providers)
                .as("host.provider values seen through the lifecycle")
                .hasSize(1)
                .doesNotContain("");
    }

    private void listInto(Trace trace, String id) {
        trace.add(client.findInList(id).orElseThrow(() -> new AssertionError(id + " missing from List")));
    }

    @Test
    @DisplayName("B806 wherever a host is set, capacity_type is not UNSPECIFIED and zone is not empty")
    void hostedMachinesHaveZoneAndCapacity() {
        List<String> violations = new ArrayList<>();
        int hosted = 0;
        for (Machine m : inventoryWithEveryStableState()) {
            if (States.hostSet(m)) {
                hosted++;
                if (m.getCapacityType() == CapacityType.CAPACITY_TYPE_UNSPECIFIED
                        || m.getCapacityType() == CapacityType.UNRECOGNIZED) {
                    violations.add(m.getId() + ": capacity_type " + m.getCapacityType());
                }
                if (m.getZone().isEmpty()) {
                    violations.add(m.getId() + ": empty zone");
                }
            }
        }
        assertThat(hosted).as("machines with a host").isPositive();
        assertNone(violations, "zone and capacity_type of hosted machines");
    }

    @Test
    @DisplayName("B807 Delete back to SPECULATIVE clears host, cluster and shard_metadata")
    void deleteClearsEverything() {
        String id = Steps.configuredMachine(client, "b807", Map.of("k", "v"));
        Steps.drain(client, id);
        Outcome<TransitionAck> delete = client.tryDelete(Requests.delete(id));
        assumeFalse(
                delete.code() == Status.Code.UNIMPLEMENTED, "provider does not claim the cloud profile (no Delete)");
        Expect.ok(delete, "Delete");
        Machine m = Await.state(client, id, SPECULATIVE);
        assertThat(States.hostEmpty(m))
                .as("host after Delete: " + States.describe(m))
                .isTrue();
        assertThat(m.getCluster()).as("cluster").isEmpty();
        assertThat(m.getShardMetadataMap()).as("shard_metadata").isEmpty();
        Machine listed =
                client.findInList(id, SPECULATIVE).orElseThrow(() -> new AssertionError(id + " missing from List"));
        assertThat(States.hostEmpty(listed)).as("host in List after Delete").isTrue();
    }
}
