package dev.bigfleet.proxmox.pvesim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The whole simulated cluster: nodes, storages, VMs, pools, tasks and pending faults. Every read and
 * write happens under this object's monitor; tasks finish on a scheduler thread that takes it too.
 */
final class Cluster {
    final SimulatorConfig config;
    final Delays delays;
    final Map<String, Node> nodes = new LinkedHashMap<>();
    final Storages storages;
    final TreeMap<Integer, Vm> vms = new TreeMap<>();
    final TreeMap<Integer, Container> containers = new TreeMap<>();
    final TreeMap<String, Pool> pools = new TreeMap<>();
    /** The cluster's PCI resource mappings ({@code mapping/pci.cfg}), changed through the API. */
    final PciMappings pciMappings;
    /** The SDN VNets, a bridge of their name on every node. */
    final Vnets vnets;

    final Map<String, Task> tasks = new LinkedHashMap<>();
    final FaultState faults = new FaultState();
    final List<RecordedRequest> requests = new ArrayList<>();
    /** Uploaded files pveproxy holds for the upload call, by the name the call is told. */
    final Map<String, java.nio.file.Path> uploads = new java.util.HashMap<>();

    final ScheduledExecutorService scheduler;
    final Acl acl;
    final Guests guests;
    final long bootEpoch = System.currentTimeMillis() / 1000 - 86_400;
    /** Set by a test: the cluster lost quorum whatever the nodes' online flags say. */
    boolean quorumLost;

    /** Whether the cluster is quorate: a majority of its nodes online, and quorum not taken away. */
    boolean quorate() {
        long online = nodes.values().stream().filter(n -> n.online).count();
        return !quorumLost && online * 2 > nodes.size();
    }

    /**
     * pmxcfs refuses writes without quorum: {@code PVE::Cluster::check_cfs_quorum} dies with this
     * (a 500, synchronous).
     */
    void requireQuorum() {
        if (!quorate()) {
            throw Errors.handler("cluster not ready - no quorum?");
        }
    }

    private long nextWorkerPid = 0x3A2F1;
    private int macCounter = 0x10;
    String sslFingerprint = "";

    @SuppressWarnings("FutureReturnValueIgnored") // the stats sampler runs until the scheduler is shut down
    Cluster(SimulatorConfig config) {
        this.config = config;
        this.delays = new Delays(config.latency());
        this.acl = new Acl(this, config.privileges());
        this.guests = new Guests(
                config.guests(),
                config.guestImage() != null
                        ? config.guestImage()
                        : config.guests() == GuestMode.VM ? GuestImage.vmImage() : GuestImage.rootfs());
        this.scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "pve-simulator-tasks");
            t.setDaemon(true);
            return t;
        });
        int id = 1;
        for (NodeSpec n : config.nodes()) {
            nodes.put(n.name(), new Node(n, id++));
        }
        this.storages = new Storages(
                config.storages(), config.nodes().stream().map(NodeSpec::name).toList());
        this.pciMappings = new PciMappings(config.pciMappings());
        this.vnets = new Vnets(config.vnets());
        for (String p : config.pools()) {
            pools.put(p, new Pool(p, ""));
        }
        for (TemplateSpec t : config.templates()) {
            addTemplate(t);
        }
        if (!config.statsLag().isZero()) {
            long every = config.statsLag().toNanos();
            scheduler.scheduleAtFixedRate(this::sampleStats, every, every, TimeUnit.NANOSECONDS);
        }
    }

    static long now() {
        return System.nanoTime();
    }

    static long epoch() {
        return System.currentTimeMillis() / 1000;
    }

    private void addTemplate(TemplateSpec t) {
        Vm vm = new Vm(t.vmid(), t.node());
        Map<String, Object> c = vm.config;
        c.put("name", t.name());
        if (!t.description().isEmpty()) {
            c.put("description", t.description());
        }
        List<String> tags = Tags.normalise(t.tags());
        if (tags != null && !tags.isEmpty()) {
            c.put("tags", String.join(";", tags));
        }
        c.put("cores", t.cores());
        c.put("sockets", 1);
        c.put("memory", Integer.toString(t.memoryMib()));
        if (t.agent()) {
            c.put("agent", "1");
        }
        c.put("ostype", "l26");
        c.put("scsihw", "virtio-scsi-single");
        StoragePool pool = storages.pool(t.storage(), t.node());
        long size = (long) t.diskGib() << 30;
        Volume disk = storages.add(
                pool,
                pool.spec.type().volname(t.vmid(), "base-" + t.vmid() + "-disk-0"),
                t.vmid(),
                true,
                null,
                size,
                size);
        c.put("scsi0", disk.volid() + ",size=" + Drives.formatSize(size));
        if (t.iso()) {
            String iso = "iso/ubuntu-24.04.1-live-server-amd64.iso";
            StoragePool local = storages.pool("local", t.node());
            if (local != null && !local.volumes.containsKey(iso)) {
                long isoBytes = 2708862L << 10;
                storages.add(local, iso, 0, false, null, isoBytes, isoBytes);
            }
            c.put("ide0", "local:" + iso + ",media=cdrom,size=2708862K");
        }
        if (t.cloudInitStorage() != null) {
            StoragePool ciPool = t.cloudInitStorage().isEmpty() ? pool : storages.pool(t.cloudInitStorage(), t.node());
            Volume ci = storages.add(
                    ciPool,
                    ciPool.spec.type().volname(t.vmid(), "vm-" + t.vmid() + "-cloudinit"),
                    t.vmid(),
                    false,
                    null,
                    Drives.CLOUDINIT_BYTES,
                    Drives.CLOUDINIT_BYTES);
            c.put("ide2", ci.volid() + ",media=cdrom");
        }
        c.put("net0", "virtio=" + nextMac() + ",bridge=" + t.bridge());
        c.put("boot", "order=scsi0;net0");
        c.put("smbios1", "uuid=" + java.util.UUID.randomUUID());
        c.put("meta", "creation-qemu=9.2.0,ctime=" + bootEpoch);
        c.put("template", 1);
        vm.stats = new StatsSample("stopped", t.name(), 1);
        vm.disk = t.execBlocked() ? GuestDisk.template(guests.execBlockedLayer(t.vmid())) : GuestDisk.IMAGE;
        vms.put(vm.vmid, vm);
    }

    /** The volume a drive of {@code vm} uses, or null (a CD-ROM ISO, {@code none}, or gone). */
    Volume volumeOf(Vm vm, Drives.Drive d) {
        return d.hasVolume() ? storages.volume(d.file(), vm.node) : null;
    }

    String nextMac() {
        int n = macCounter++;
        return String.format("BC:24:11:%02X:%02X:%02X", (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF);
    }

    /** The node a request addresses: unknown → 500, offline → 595 (the forwarding failed). */
    Node reachableNode(String name) {
        Node n = nodes.get(name);
        if (n == null) {
            throw Errors.unknownNode(name);
        }
        if (!n.online) {
            throw Errors.nodeUnreachable();
        }
        return n;
    }

    /** The VM whose config lives on {@code node}; anything else is "does not exist", like Proxmox. */
    Vm vmOn(String node, int vmid) {
        Vm vm = vms.get(vmid);
        if (vm == null || !vm.node.equals(node)) {
            throw Errors.noSuchVm(node, vmid);
        }
        return vm;
    }

    boolean vmidTaken(int vmid) {
        return vms.containsKey(vmid) || containers.containsKey(vmid);
    }

    String poolOf(int vmid) {
        for (Pool p : pools.values()) {
            if (p.members.contains(vmid)) {
                return p.id;
            }
        }
        return null;
    }

    long usedMemBytes(String node) {
        long sum = 0;
        for (Vm vm : vms.values()) {
            if (vm.node.equals(node) && vm.running) {
                sum += (long) vm.memoryMib() << 20;
            }
        }
        return sum;
    }

    /**
     * Starts a worker task. The task runs for the kind's scaled delay (or an injected slow
     * duration), then finishes its body, unless an injected failure aborts it.
     */
    /** The task whose body runs now, under the cluster lock; null otherwise. */
    private Task finishing;

    Task startTask(TaskKind kind, String node, String id, TaskBody body) {
        return startTask(kind, node, id, delays.task(kind), body);
    }

    /** As above, running for {@code planned} unless a slow-task fault says otherwise. */
    Task startTask(TaskKind kind, String node, String id, Duration planned, TaskBody body) {
        Task task = newTask(kind, node, id);
        ArrayDeque<Duration> slow = faults.slowTasks.get(kind);
        Duration delay = slow != null && !slow.isEmpty() ? slow.poll() : planned;
        ArrayDeque<String> failing = faults.failingTasks.get(kind);
        String injected = failing != null && !failing.isEmpty() ? failing.poll() : null;
        schedule(delay, () -> {
            String result;
            if (injected != null) {
                body.abort();
                result = injected;
            } else {
                finishing = task;
                try {
                    result = body.finish();
                } finally {
                    finishing = null;
                }
            }
            task.end(result);
        });
        return task;
    }

    /**
     * A warning of the task whose body runs now (under the cluster lock), as a Proxmox worker's
     * {@code warn}: its log keeps the line and it ends {@code WARNINGS: n} instead of {@code OK}.
     */
    void warn(String line) {
        if (finishing == null) {
            throw new IllegalStateException("no task is finishing: " + line);
        }
        finishing.warn(line);
    }

    /** A line the task whose body runs now prints to its log (under the cluster lock). */
    void log(String line) {
        if (finishing == null) {
            throw new IllegalStateException("no task is finishing: " + line);
        }
        finishing.log.add(line);
    }

    /**
     * A task whose body runs at once, for a call that waits for its task ({@code delay}) when the
     * task ends within the wait. Returns the ended task.
     */
    Task runTaskNow(TaskKind kind, String node, String id, TaskBody body) {
        Task task = newTask(kind, node, id);
        finishing = task;
        String result;
        try {
            result = body.finish();
        } finally {
            finishing = null;
        }
        task.end(result);
        return task;
    }

    /** A task that fails at once with {@code message}, for errors Proxmox reports from the worker. */
    Task failedTask(TaskKind kind, String node, String id, String message) {
        Task task = newTask(kind, node, id);
        schedule(Duration.ZERO, () -> task.end(message));
        return task;
    }

    private Task newTask(TaskKind kind, String node, String id) {
        long pstart = (epoch() - bootEpoch) * 100;
        Upid upid = new Upid(
                node,
                nextWorkerPid++,
                pstart,
                epoch(),
                kind.type(),
                id,
                config.token().tokenId());
        Task task = new Task(upid, kind);
        tasks.put(upid.toString(), task);
        return task;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // scheduled steps run to completion; nothing waits on them
    void schedule(Duration delay, Runnable locked) {
        scheduler.schedule(
                () -> {
                    synchronized (this) {
                        locked.run();
                    }
                },
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** The statistics feed: copies the live state into what /cluster/resources shows. */
    synchronized void sampleStats() {
        for (Vm vm : vms.values()) {
            vm.stats = liveSample(vm);
        }
    }

    /** Null while a clone is still a bare placeholder: the statistics feed has nothing yet. */
    StatsSample liveSample(Vm vm) {
        if ("clone".equals(vm.lock()) && vm.name() == null) {
            return null;
        }
        String name = vm.name() == null ? "VM " + vm.vmid : vm.name();
        return new StatsSample(vm.running ? "running" : "stopped", name, vm.template() ? 1 : 0);
    }

    StatsSample statsOf(Vm vm) {
        return config.statsLag().isZero() ? liveSample(vm) : vm.stats;
    }

    void close() {
        scheduler.shutdownNow();
        guests.close();
        storages.close();
    }
}
