package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.engine.InventoryPlan;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.ListQuery;
import dev.bigfleet.proxmox.engine.ListResult;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.metrics.StateClock;
import dev.bigfleet.proxmox.server.serving.ServingState;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The read-only views of the admin API, computed from the engine's snapshots on each request:
 * reads never wait on a mutation, and nothing here can change the inventory. One per process: it
 * keeps the id order and the node list between requests.
 */
@Singleton
public final class InventoryView {
    /** The cap of one delta answer; a caller that gets {@code more} asks again. */
    static final int MAX_DELTA = 2_000;

    static final int MAX_DELTA_IDS = 50;

    private final LifecycleEngine engine;
    private final InventoryPlan plan;
    private final String backendName;
    private final StateClock clock;
    private final ProxmoxBackend backend;
    private final NodesView nodes;
    private final DensityCache densities = new DensityCache();
    private final IdOrder idOrder = new IdOrder();
    private final ServingState serving;

    @Inject
    public InventoryView(
            LifecycleEngine engine,
            InventoryPlan plan,
            BackendConfig backendConfig,
            StateClock clock,
            ProxmoxBackend backend,
            ServingState serving) {
        this.serving = serving;
        this.engine = engine;
        this.plan = plan;
        this.backendName = backendConfig.name();
        this.clock = clock;
        this.backend = backend;
        this.nodes = new NodesView(backend, plan.catalog());
    }

    private List<Machine> all() {
        return engine.list(new ListQuery(Set.of(), 0, null)).machines();
    }

    public Summary summary() {
        ServingState.Leadership leadership = serving.leadership();
        long revision = engine.revision();
        String cursor = encode(engine.currentCursor());
        Map<String, Map<MachineState, Integer>> byZone = new TreeMap<>();
        Map<MachineState, Integer> totals = new EnumMap<>(MachineState.class);
        Set<String> types = new TreeSet<>(plan.catalog().names());
        int holding = 0;
        double cost = 0;
        List<Machine> machines = all();
        for (Machine m : machines) {
            byZone.computeIfAbsent(m.zone(), z -> new EnumMap<>(MachineState.class))
                    .merge(m.state(), 1, Integer::sum);
            totals.merge(m.state(), 1, Integer::sum);
            types.add(m.instanceType());
            if (!m.host().isEmpty()) {
                holding++;
                cost += m.pricePerHour();
            }
        }
        List<ZoneStates> zones = new ArrayList<>();
        byZone.forEach((zone, counts) -> {
            Map<String, Integer> states = withAllStates(counts);
            zones.add(new ZoneStates(
                    zone, states.values().stream().mapToInt(Integer::intValue).sum(), states));
        });
        return new Summary(
                plan.providerLabel(),
                backendName,
                revision,
                cursor,
                machines.size(),
                holding,
                Math.round(cost * 1e6) / 1e6,
                withAllStates(totals),
                zones,
                List.copyOf(types),
                stateOrder(),
                leadership.leads() ? "leader" : "standby",
                leadership.epoch(),
                leadership.leader().orElse(""));
    }

    private static Map<String, Integer> withAllStates(Map<MachineState, Integer> counts) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (MachineState s : MachineState.values()) {
            out.put(s.name(), counts.getOrDefault(s, 0));
        }
        return out;
    }

    private static List<String> stateOrder() {
        List<String> order = new ArrayList<>();
        for (MachineState s : MachineState.values()) {
            order.add(s.name());
        }
        return order;
    }

    public MachinePage machines(MachineQuery query) {
        long revision = engine.revision();
        List<Machine> all = all();
        int[] ranks = idOrder.ranks(all);
        // slot i of byRank holds the machine whose id is i-th in id order: id order without comparing ids
        Machine[] byRank = new Machine[all.size()];
        for (int i = 0; i < ranks.length; i++) {
            byRank[ranks[i]] = all.get(i);
        }
        Instant now = clock.now();
        if (query.sort() == MachineSort.ID) {
            return idOrderPage(query, byRank, revision, now);
        }
        List<Ranked> matches = new ArrayList<>();
        for (int r = 0; r < byRank.length; r++) {
            Machine m = byRank[r];
            if (m != null && query.matches(m)) {
                matches.add(new Ranked(m, r, numericKey(query.sort(), m, now)));
            }
        }
        if (query.sort() != MachineSort.ID) {
            Comparator<Ranked> order =
                    numeric(query.sort()) ? Comparator.comparingLong(Ranked::key) : byField(query.sort());
            matches.sort((query.descending() ? order.reversed() : order).thenComparingInt(Ranked::rank));
        } else if (query.descending()) {
            Collections.reverse(matches);
        }
        int from = Math.min(query.offset(), matches.size());
        int to = Math.min(from + query.limit(), matches.size());
        List<MachineRow> rows = new ArrayList<>(to - from);
        for (Ranked m : matches.subList(from, to)) {
            rows.add(row(m.machine(), now));
        }
        return new MachinePage(
                matches.size(),
                from,
                query.limit(),
                query.sort().jsonName(),
                query.descending() ? "desc" : "asc",
                revision,
                rows);
    }

    /** Id order needs no sort at all: count the matches, keep only the page's. */
    private MachinePage idOrderPage(MachineQuery query, Machine[] byRank, long revision, Instant now) {
        List<MachineRow> rows = new ArrayList<>(query.limit());
        int total = 0;
        for (int i = 0; i < byRank.length; i++) {
            Machine m = byRank[query.descending() ? byRank.length - 1 - i : i];
            if (m != null && query.matches(m)) {
                if (total >= query.offset() && rows.size() < query.limit()) {
                    rows.add(row(m, now));
                }
                total++;
            }
        }
        return new MachinePage(
                total,
                Math.min(query.offset(), total),
                query.limit(),
                query.sort().jsonName(),
                query.descending() ? "desc" : "asc",
                revision,
                rows);
    }

    /** A machine, its position in id order (the tie-breaker of every sort) and its numeric sort key. */
    private record Ranked(Machine machine, int rank, long key) {}

    private static boolean numeric(MachineSort sort) {
        return sort == MachineSort.PRICE_PER_HOUR || sort == MachineSort.DENSITY || sort == MachineSort.TIME_IN_STATE;
    }

    /** Numeric keys are computed once per machine, not once per comparison. */
    private long numericKey(MachineSort sort, Machine m, Instant now) {
        return switch (sort) {
            // prices are >= 0, where the bit pattern of a double orders like the double
            case PRICE_PER_HOUR -> Double.doubleToLongBits(m.pricePerHour());
            case DENSITY -> densities.of(m).orElse(-1);
            case TIME_IN_STATE ->
                clock.of(m.id())
                        .filter(e -> e.state() == m.state())
                        .map(e -> Duration.between(e.since(), now).toMillis())
                        .orElse(0L);
            default -> 0;
        };
    }

    private static Comparator<Ranked> byField(MachineSort sort) {
        Comparator<Machine> field = switch (sort) {
            case STATE -> Comparator.comparing(Machine::state);
            case ZONE -> Comparator.comparing(Machine::zone);
            case INSTANCE_TYPE -> Comparator.comparing(Machine::instanceType);
            case HOST -> Comparator.comparing((Machine m) -> m.host().ref());
            case CLUSTER -> Comparator.comparing(Machine::cluster);
            case LAST_ERROR -> Comparator.comparing(Machine::lastError);
            default -> Comparator.comparing(Machine::id);
        };
        return (a, b) -> field.compare(a.machine(), b.machine());
    }

    MachineRow row(Machine m, Instant now) {
        OptionalLong density = densities.of(m);
        StateClock.Entry entered =
                clock.of(m.id()).filter(e -> e.state() == m.state()).orElse(null);
        return new MachineRow(
                m.id(),
                m.state().name(),
                m.zone(),
                m.instanceType(),
                m.capacityType().name(),
                m.host().ref(),
                m.host().node(),
                m.cluster(),
                m.pricePerHour(),
                density.isPresent() ? density.getAsLong() : null,
                m.allocatable(),
                m.resources(),
                m.labels(),
                m.lastError(),
                entered == null ? null : entered.since().toString(),
                entered == null
                        ? null
                        : Math.max(0, Duration.between(entered.since(), now).toSeconds()),
                webUiLink(m),
                addresses(m),
                templateDrift(m),
                m.state() == MachineState.FAILED
                        && engine.failure(m.id())
                                .map(FailureRecord::needsAttention)
                                .orElse(false));
    }

    /** Why the machine's VM is out of date with its template, or null. */
    private String templateDrift(Machine m) {
        if (m.host().isEmpty() || m.host().vmid() < 0 || m.host().node().isEmpty()) {
            return null;
        }
        return backend.templateDrift(
                        new VmTarget(m.id(), m.host().node(), m.host().vmid()))
                .orElse(null);
    }

    /** The static addresses of the machine's VM, as the backend last read them; empty without a VM. */
    private List<String> addresses(Machine m) {
        if (m.host().isEmpty() || m.host().vmid() < 0 || m.host().node().isEmpty()) {
            return List.of();
        }
        return backend.vmAddresses(
                new VmTarget(m.id(), m.host().node(), m.host().vmid()));
    }

    /** The VM's page in the backend's web UI, when the machine holds a VM and the backend has a UI. */
    private String webUiLink(Machine m) {
        if (m.host().isEmpty() || m.host().vmid() < 0 || m.host().node().isEmpty()) {
            return null;
        }
        return backend.webUiLink(new VmTarget(m.id(), m.host().node(), m.host().vmid()))
                .map(URI::toString)
                .orElse(null);
    }

    public List<OfferingRow> offerings() {
        Map<String, int[]> counts = new HashMap<>(); // machines, holding, free, failed
        for (Machine m : all()) {
            int[] c = counts.computeIfAbsent(m.instanceType() + "\n" + m.zone(), k -> new int[4]);
            c[0]++;
            if (!m.host().isEmpty()) {
                c[1]++;
            }
            if (m.state() == MachineState.SPECULATIVE) {
                c[2]++;
            }
            if (m.state() == MachineState.FAILED) {
                c[3]++;
            }
        }
        List<OfferingRow> rows = new ArrayList<>();
        for (Offering o : plan.offerings()) {
            int[] c = counts.getOrDefault(o.instanceType() + "\n" + o.zone(), new int[4]);
            rows.add(new OfferingRow(
                    o.instanceType(),
                    o.zone(),
                    o.capacityType().name(),
                    o.count(),
                    c[0],
                    c[1],
                    c[2],
                    c[0] - c[2] - c[3],
                    c[3],
                    plan.prices().priceOf(o.instanceType(), plan.catalog())));
        }
        return rows;
    }

    public List<InstanceTypeRow> instanceTypes() {
        List<InstanceTypeRow> rows = new ArrayList<>();
        for (InstanceType t : plan.catalog().asMap().values()) {
            String source = plan.prices().sourceOf(t.name(), plan.catalog());
            rows.add(new InstanceTypeRow(
                    t.name(),
                    t.vcpu(),
                    t.memoryMib(),
                    t.templateVmid(),
                    plan.prices().priceOf(t.name(), plan.catalog()),
                    source.equals("override") ? "explicit" : source));
        }
        return rows;
    }

    public NodeList nodes() {
        return nodes.of(all());
    }

    /** FAILED machines, the most recently failed first. */
    public List<MachineRow> failures(int limit) {
        Instant now = clock.now();
        List<Machine> failed = new ArrayList<>(
                engine.list(new ListQuery(Set.of(MachineState.FAILED), 0, null)).machines());
        // the engine lists by last change, oldest first; the clock knows when each one failed
        failed.sort(Comparator.comparing((Machine m) ->
                        clock.of(m.id()).map(StateClock.Entry::since).orElse(Instant.EPOCH))
                .reversed());
        List<MachineRow> rows = new ArrayList<>();
        for (Machine m : failed.subList(0, Math.min(limit, failed.size()))) {
            rows.add(row(m, now));
        }
        return rows;
    }

    /** Machines changed since {@code cursor}; without one, just the cursor of now. */
    public Changes changes(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return new Changes(encode(engine.currentCursor()), engine.revision(), 0, false, List.of());
        }
        byte[] since;
        try {
            since = Base64.getUrlDecoder().decode(cursor.trim());
        } catch (IllegalArgumentException e) {
            since = new byte[0]; // the engine treats a garbage cursor as "everything"
        }
        long revision = engine.revision();
        ListResult delta = engine.list(new ListQuery(Set.of(), MAX_DELTA, since));
        List<String> ids = new ArrayList<>();
        for (Machine m : delta.machines()
                .subList(0, Math.min(MAX_DELTA_IDS, delta.machines().size()))) {
            ids.add(m.id());
        }
        return new Changes(
                encode(delta.revision()),
                revision,
                delta.machines().size(),
                delta.machines().size() == MAX_DELTA,
                ids);
    }

    private static String encode(byte[] cursor) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor);
    }
}
