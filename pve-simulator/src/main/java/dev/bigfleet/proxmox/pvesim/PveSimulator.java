package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A running Proxmox VE API simulator: the {@code /api2/json} subset of the Proxmox backend, served
 * over HTTPS (HTTP/1.1 only) with its own CA, plus state inspection and {@link Faults fault
 * injection} for tests.
 *
 * <pre>{@code
 * try (PveSimulator sim = PveSimulator.start(SimulatorConfig.builder()
 *         .nodes("pve1", "pve2").templateVmid(9000).pool("bigfleet")
 *         .token("bigfleet@pve!autoscaler=s3cret").build())) {
 *     client(sim.apiUrl(), sim.caCertificate(), ...);
 *     assertThat(sim.vms()).hasSize(2);
 * }
 * }</pre>
 */
public final class PveSimulator implements AutoCloseable {
    private final SimulatorConfig config;
    private final Cluster cluster;
    private final Server server;
    private final HttpsListener listener;
    private final Faults faults;

    private PveSimulator(SimulatorConfig config, Cluster cluster, Server server, HttpsListener listener) {
        this.config = config;
        this.cluster = cluster;
        this.server = server;
        this.listener = listener;
        this.faults = new Faults(cluster);
    }

    /** Mints the certificates, writes {@code ca.pem} and starts serving. */
    public static PveSimulator start(SimulatorConfig config) throws IOException {
        TlsMaterial tls = TlsMaterial.mint();
        Path dir = config.tlsDir() != null ? config.tlsDir() : Files.createTempDirectory("pve-simulator-tls");
        tls.writeTo(dir);
        Cluster cluster = new Cluster(config);
        cluster.sslFingerprint = tls.fingerprint();

        QueuedThreadPool threads = new QueuedThreadPool(32, 4);
        threads.setName("pve-simulator-http");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpsListener listener = HttpsListener.on(server, config.host(), config.port(), dir, tls);
        server.setHandler(new ApiHandler(cluster, new ApiRoutes(cluster)));
        try {
            server.start();
        } catch (Exception e) {
            cluster.close();
            try {
                server.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
        }
        listener.started();
        return new PveSimulator(config, cluster, server, listener);
    }

    /** {@code https://HOST:PORT/api2/json}. */
    public URI apiUrl() {
        String h = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return URI.create("https://" + h + ":" + port() + "/api2/json");
    }

    public int port() {
        return listener.port();
    }

    /** The {@code ca.pem} the server certificate chains to (rewritten by {@link #replaceCertificates()}). */
    public Path caCertificate() {
        return listener.caFile();
    }

    /** SHA-256 of the server certificate, {@code AB:CD:...} (95 characters). */
    public String fingerprint() {
        return listener.tls().fingerprint();
    }

    /**
     * An outage, as when pveproxy stops: from now on every connection to the port is refused;
     * requests being answered get their answer, then every open connection is closed. The
     * cluster goes on meanwhile (tasks finish, guests boot) and its state is kept.
     */
    public void refuseConnections() {
        listener.refuseConnections();
    }

    /** Ends an outage: serves again on the same port, with the cluster's state as it is now. */
    public void acceptConnections() throws IOException {
        listener.acceptConnections();
    }

    /**
     * New certificates, as after regenerating the cluster CA and node certificate and restarting
     * pveproxy: a new CA is written over {@link #caCertificate()} (in one step), the listener
     * closes and opens again with a server certificate signed by it. During an outage the new
     * certificate is served once connections are accepted again.
     *
     * @return the new server certificate's SHA-256, as {@link #fingerprint()}
     */
    public String replaceCertificates() throws IOException {
        TlsMaterial next = listener.replaceCertificates();
        synchronized (cluster) {
            cluster.sslFingerprint = next.fingerprint();
        }
        return next.fingerprint();
    }

    public ApiToken token() {
        return config.token();
    }

    public SimulatorConfig config() {
        return config;
    }

    public Faults faults() {
        return faults;
    }

    /** Every QEMU VM, templates included, by VMID. */
    public List<VmView> vms() {
        synchronized (cluster) {
            List<VmView> out = new ArrayList<>();
            for (Vm vm : cluster.vms.values()) {
                out.add(vm.view(cluster.poolOf(vm.vmid), cluster.guests.agentListening(vm.vmid)));
            }
            return out;
        }
    }

    public Optional<VmView> vm(int vmid) {
        synchronized (cluster) {
            Vm vm = cluster.vms.get(vmid);
            return vm == null
                    ? Optional.empty()
                    : Optional.of(vm.view(cluster.poolOf(vmid), cluster.guests.agentListening(vmid)));
        }
    }

    /**
     * What the running guest of a VM has written to its serial console so far (a real VM's kernel and
     * systemd), for a test to show when the guest does not come up; empty when it runs none.
     */
    public String serialConsole(int vmid) {
        Guests.Boot b = cluster.guests.boot(vmid);
        GuestMachine m = b == null ? null : b.sandbox();
        return m == null ? "" : m.console();
    }

    /**
     * The guest of a VM, reached through its own agent rather than the API (for looking inside it
     * and arranging what its programs find), or through its root for {@link GuestConsole#readFile}.
     * Its agent calls wait for the VM's agent to listen.
     */
    public GuestConsole guest(int vmid) {
        synchronized (cluster) {
            if (!cluster.vms.containsKey(vmid)) {
                throw new IllegalArgumentException("no VM " + vmid);
            }
        }
        return new GuestConsole(
                vmid,
                () -> {
                    Guests.Boot b = cluster.guests.boot(vmid);
                    return b == null ? null : b.socket();
                },
                () -> {
                    Guests.Boot b = cluster.guests.boot(vmid);
                    GuestMachine m = b == null ? null : b.sandbox();
                    return m == null ? Optional.empty() : m.root();
                });
    }

    /** Every task started so far, oldest first. */
    public List<TaskView> tasks() {
        synchronized (cluster) {
            List<TaskView> out = new ArrayList<>();
            for (Task t : cluster.tasks.values()) {
                out.add(t.view());
            }
            return out;
        }
    }

    /** Every request answered since the start or the last {@link #clearRequests()}, oldest first. */
    public List<RecordedRequest> requests() {
        synchronized (cluster) {
            return List.copyOf(cluster.requests);
        }
    }

    public void clearRequests() {
        synchronized (cluster) {
            cluster.requests.clear();
        }
    }

    /** The space of {@code storage} as {@code node} sees it, or empty when it is not enabled there. */
    public Optional<StorageView> storage(String storage, String node) {
        synchronized (cluster) {
            StoragePool p = cluster.storages.pool(storage, node);
            if (p == null) {
                return Optional.empty();
            }
            List<StorageView.VolumeView> volumes = new ArrayList<>();
            for (Volume v : p.volumes.values()) {
                volumes.add(new StorageView.VolumeView(
                        v.volid(),
                        v.sizeBytes,
                        v.allocatedBytes,
                        v.owner,
                        v.base,
                        v.linkedFrom == null ? null : v.linkedFrom.volid()));
            }
            return Optional.of(new StorageView(
                    storage, p.node, p.spec.type(), p.spec.shared(), p.capacityBytes, p.used(), volumes));
        }
    }

    /** Memory in bytes taken by the running VMs on {@code node}. */
    public long nodeMemoryUsed(String node) {
        synchronized (cluster) {
            return cluster.usedMemBytes(node);
        }
    }

    /** Blocks until the server stops (the CLI's way of serving until killed). */
    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the simulator", e);
        } finally {
            cluster.close();
        }
    }
}
