package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.spi.BackendException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Static addresses are never held by two machines at once, whatever happens between their
 * Creates: two replicas picking at the same moment, a process restarting in the middle of a Create
 * (its successor takes the half-made VM over), Deletes freeing addresses for later Creates, a pool
 * running dry. The cluster is modelled as what {@link AddressAllocator} reads of it, the address
 * tags of each VM; each step of a Create (pick, write, confirm) is one action, so the actions of
 * different Creates interleave in every order.
 */
class AddressAllocationProperties {
    private static final NetworkSpec NIC = nic();

    private static NetworkSpec nic() {
        try {
            return NetworkSpec.parseList(
                            new ObjectMapper()
                                    .readTree("[{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.0/24\","
                                            + " \"range\": \"10.20.0.10-10.20.0.15\", \"gateway\": \"10.20.0.1\"}}]"),
                            "test")
                    .get(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    enum Kind {
        CREATE,
        STEP,
        DELETE,
        RESTART
    }

    record Action(Kind kind, int replica, int pick) {}

    /** One Create in flight: its machine, VM, the replica running it, and the addresses it holds. */
    private static final class Create {
        final String machine;
        final long vmid;
        int replica;
        List<StaticAddress> addresses = List.of();
        /** What its VM carries (its description and tags), written in one config update. */
        List<StaticAddress> carried = List.of();

        boolean picked;
        boolean written;
        int confirmations;

        Create(String machine, long vmid, int replica) {
            this.machine = machine;
            this.vmid = vmid;
            this.replica = replica;
        }
    }

    /** The cluster as the allocator sees it, the replicas, and the machines whose Create finished. */
    private static final class World {
        final Map<Long, Set<String>> tags = new HashMap<>();
        final AddressAllocator[] replicas = {new AddressAllocator(), new AddressAllocator()};
        final List<Create> inFlight = new ArrayList<>();
        final Map<Long, Create> done = new HashMap<>();
        long nextVmid = 100;

        Map<Long, Set<String>> taken() {
            Map<Long, Set<String>> copy = new HashMap<>();
            tags.forEach((k, v) -> copy.put(k, new HashSet<>(v)));
            return copy;
        }

        void write(Create c) {
            Set<String> t = new HashSet<>();
            c.addresses.forEach(a -> t.add(a.address()));
            tags.put(c.vmid, t);
            c.carried = c.addresses;
            c.written = true;
        }

        void fail(Create c) {
            inFlight.remove(c);
            tags.remove(c.vmid); // the failed machine is deleted, its VM with it
            replicas[c.replica].release(c.machine);
        }

        /**
         * The next step of a Create: pick, write, then confirm (on a clash picking and writing anew),
         * each its own step, so another Create's steps may come between.
         */
        void step(Create c) {
            try {
                if (!c.picked) {
                    c.addresses = replicas[c.replica].pick(c.machine, c.vmid, List.of(NIC), taken());
                    c.picked = true;
                    return;
                }
                if (!c.written) {
                    write(c);
                    return;
                }
                Set<String> clash = AddressAllocator.conflicts(c.addresses, c.vmid, taken());
                if (clash.isEmpty()) {
                    inFlight.remove(c);
                    done.put(c.vmid, c);
                    return;
                }
                if (++c.confirmations > 3) {
                    fail(c);
                    return;
                }
                c.addresses = replicas[c.replica].pick(c.machine, c.vmid, List.of(NIC), taken());
                c.written = false;
            } catch (BackendException e) {
                assertThat(e.getMessage()).contains("networks[0]: addresses: every one of the 6 addresses");
                fail(c);
            }
        }

        /** No two machines whose Create finished hold one address, and each holds one of the range. */
        void check() {
            Map<String, Long> holder = new HashMap<>();
            for (Create c : done.values()) {
                for (StaticAddress a : c.addresses) {
                    assertThat(a.address()).matches("10\\.20\\.0\\.1[0-5]");
                    Long other = holder.put(a.address(), c.vmid);
                    assertThat(other)
                            .as("address %s held by VM %s and VM %s", a.address(), other, c.vmid)
                            .isNull();
                }
            }
        }
    }

    @Provide
    Arbitrary<Action> actions() {
        return Combinators.combine(
                        Arbitraries.of(Kind.class),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(0, 50))
                .as(Action::new);
    }

    @Property(tries = 300)
    void noAddressIsHeldTwiceAcrossReplicasRestartsAndDeletes(
            @ForAll @Size(min = 1, max = 80) List<@net.jqwik.api.From("actions") Action> actions) {
        World w = new World();
        int machines = 0;
        for (Action a : actions) {
            switch (a.kind()) {
                case CREATE -> w.inFlight.add(new Create("m" + machines++, w.nextVmid++, a.replica()));
                case STEP -> {
                    if (!w.inFlight.isEmpty()) {
                        w.step(w.inFlight.get(a.pick() % w.inFlight.size()));
                    }
                }
                case DELETE -> {
                    if (!w.done.isEmpty()) {
                        List<Long> vms = new ArrayList<>(w.done.keySet());
                        Create gone = w.done.remove(vms.get(a.pick() % vms.size()));
                        w.tags.remove(gone.vmid);
                        w.replicas[gone.replica].release(gone.machine);
                    }
                }
                case RESTART -> {
                    // the process restarts: what it had handed out is forgotten; its Creates in flight
                    // are retried by it, taking their half-made VMs over with the addresses they carry
                    AddressAllocator fresh = new AddressAllocator();
                    w.replicas[a.replica()] = fresh;
                    for (Create c : w.inFlight) {
                        if (c.replica != a.replica()) {
                            continue;
                        }
                        if (c.carried.isEmpty()) {
                            c.picked = false; // nothing reached the VM: the retry picks again
                        } else {
                            fresh.keep(c.machine, c.carried); // the retry keeps what the VM carries
                            c.addresses = c.carried;
                            c.picked = true;
                            c.written = true;
                        }
                    }
                }
            }
            w.check();
        }
        while (!w.inFlight.isEmpty()) {
            w.step(w.inFlight.get(0));
            w.check();
        }
        assertThat(w.done.size()).isLessThanOrEqualTo(6);
    }
}
