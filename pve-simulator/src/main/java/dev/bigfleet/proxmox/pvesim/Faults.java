package dev.bigfleet.proxmox.pvesim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Fault injection and out-of-band changes, for tests of how a client copes. Obtain it with
 * {@link PveSimulator#faults()}. Counted faults are used up in request order; {@link #clear()}
 * forgets every pending fault (not the out-of-band changes already made).
 *
 * <p>Paths in patterns are below {@code /api2/json}, percent-decoded, without the query, e.g.
 * {@code /nodes/pve1/qemu/\d+/clone}; the pattern must match the whole path.
 */
public final class Faults {
    private final Cluster cluster;

    Faults(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * The next {@code count} tasks of {@code kind} end, after their normal delay, with exit status
     * {@code "<type> failed: simulated failure"} (a clone: {@code "clone failed: simulated
     * failure"}) and without effect: a failed clone leaves no VM behind.
     */
    public void failTasks(TaskKind kind, int count) {
        failTasks(
                kind,
                count,
                kind == TaskKind.CLONE
                        ? "clone failed: simulated failure"
                        : kind.name().toLowerCase(java.util.Locale.ROOT) + " failed: simulated failure");
    }

    /** As {@link #failTasks(TaskKind, int)} with the given exit status text. */
    public void failTasks(TaskKind kind, int count, String exitStatus) {
        Objects.requireNonNull(exitStatus);
        synchronized (cluster) {
            ArrayDeque<String> q = cluster.faults.failingTasks.computeIfAbsent(kind, k -> new ArrayDeque<>());
            for (int i = 0; i < count; i++) {
                q.add(exitStatus);
            }
        }
    }

    /** The next {@code count} tasks of {@code kind} run for {@code duration} (not scaled). */
    public void slowTasks(TaskKind kind, int count, Duration duration) {
        Objects.requireNonNull(duration);
        synchronized (cluster) {
            ArrayDeque<Duration> q = cluster.faults.slowTasks.computeIfAbsent(kind, k -> new ArrayDeque<>());
            for (int i = 0; i < count; i++) {
                q.add(duration);
            }
        }
    }

    /**
     * The next {@code count} requests with this method ({@code "*"} = any) and a path matching
     * {@code pathRegex} are answered with {@code status} and not processed. Statuses below 595 get
     * the JSON error body {@code {"data":null,"message":"<message>\n"}}; 595 and above (a node
     * that could not be reached) get an empty body, as Proxmox's forwarder sends them.
     */
    public void failRequests(String method, String pathRegex, int count, int status, String message) {
        addRequestFault(FaultState.RequestFault.answered(
                method, Pattern.compile(pathRegex), count, status, Objects.requireNonNull(message)));
    }

    /** As the five-argument form, with the message {@code "simulated failure"}. */
    public void failRequests(String method, String pathRegex, int count, int status) {
        failRequests(method, pathRegex, count, status, "simulated failure");
    }

    /**
     * The next {@code count} matching requests are processed (their effect happens: a clone
     * starts, a VM is destroyed) but the connection is closed instead of sending the response.
     */
    public void dropResponses(String method, String pathRegex, int count) {
        addRequestFault(FaultState.RequestFault.dropped(method, Pattern.compile(pathRegex), count));
    }

    /**
     * The next {@code count} guest commands ({@code POST /nodes/<node>/qemu/<vmid>/agent/exec}, any
     * VM) whose command line, the {@code command} values joined with single spaces, matches {@code
     * commandLineRegex} (the whole of it; {@code .} matches line ends too) are carried out (the
     * program starts in the guest) but the connection is closed instead of sending the answer: a
     * command's answer cut on its way, the others untouched.
     */
    public void dropExecResponses(String commandLineRegex, int count) {
        addRequestFault(FaultState.RequestFault.droppedCommand(
                "POST",
                Pattern.compile("/nodes/[^/]+/qemu/\\d+/agent/exec"),
                Pattern.compile(commandLineRegex, Pattern.DOTALL),
                count));
    }

    /**
     * The next {@code count} matching requests are processed at once (a clone starts) but their
     * answer is sent only after {@code delay}, as from a slow proxy in between.
     */
    public void delayResponses(String method, String pathRegex, int count, Duration delay) {
        addRequestFault(FaultState.RequestFault.delayed(
                method, Pattern.compile(pathRegex), count, Objects.requireNonNull(delay)));
    }

    private void addRequestFault(FaultState.RequestFault fault) {
        synchronized (cluster) {
            cluster.faults.requestFaults.add(fault);
        }
    }

    /**
     * The guest agent of this VM answers nothing until the fault is cleared: a booting guest's
     * agent does not start, a running one's is frozen. Its channel still takes commands, as QEMU's
     * does, so every agent call ends in its timeout.
     */
    public void agentNeverUp(int vmid) {
        synchronized (cluster) {
            cluster.faults.agentNeverUp.add(vmid);
            Vm vm = cluster.vms.get(vmid);
            if (vm != null) {
                vm.agentNeverUp = true;
                cluster.guests.silence(vmid, true);
            }
        }
    }

    /** While on, every VM a clone creates gets a guest agent that never answers. */
    public void agentNeverUpForNewVms(boolean on) {
        synchronized (cluster) {
            cluster.faults.agentNeverUpForNewVms = on;
        }
    }

    /**
     * The guest agent of this running VM is killed, as when its service restarts or crashes; the
     * guest starts a new one at once, which knows nothing of the commands the old one ran (their
     * pids are {@code Invalid parameter 'pid'} to it). A command the old agent was answering gets
     * no answer.
     */
    public void restartAgent(int vmid) {
        sandboxOf(vmid).restartAgent();
    }

    /**
     * Another client holds this running VM's agent socket for {@code duration}, as a long-running
     * {@code qm guest cmd} or a backup's file system freeze does: the agent serves one client at a
     * time, so every agent call meanwhile waits for it and ends in its timeout unless the socket is
     * free again in time. Returns at once.
     */
    public void occupyAgent(int vmid, Duration duration) {
        GuestMachine s = sandboxOf(vmid);
        java.nio.channels.SocketChannel held;
        try {
            held = java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of(s.socket()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the agent of VM " + vmid + " does not listen: " + e.getMessage(), e);
        }
        Thread t = new Thread(
                () -> {
                    try (held) {
                        Thread.sleep(duration.toMillis());
                    } catch (java.io.IOException | InterruptedException e) {
                        // released early
                    }
                },
                "pve-simulator-agent-holder");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The next time the API sends {@code command} (e.g. {@code guest-exec-status}) to this running
     * VM's agent, right after the agent has answered the ping before it, the agent is frozen for
     * {@code duration}, as a guest whose vCPU is starved or paused would be: the command is written
     * to a socket nobody reads, so it ends in qemu-server's {@code VM <vmid> qga command '<cmd>'
     * failed - got timeout} when {@code duration} exceeds its 5 s, and the agent, thawed, then
     * carries out what was written to it meanwhile (its answer goes nowhere). Returns at once.
     */
    public void freezeAgentBefore(int vmid, String command, Duration duration) {
        Objects.requireNonNull(command);
        Objects.requireNonNull(duration);
        sandboxOf(vmid);
        synchronized (cluster) {
            cluster.faults
                    .agentFreezes
                    .computeIfAbsent(vmid, v -> new java.util.HashMap<>())
                    .put(command, duration);
        }
    }

    private GuestMachine sandboxOf(int vmid) {
        Guests.Boot boot;
        synchronized (cluster) {
            requireVm(vmid);
            boot = cluster.guests.boot(vmid);
        }
        GuestMachine s = boot == null ? null : boot.sandbox();
        if (s == null) {
            throw new IllegalStateException("VM " + vmid + " has no booted guest");
        }
        return s;
    }

    /**
     * Right after the next {@code /cluster/nextid} answer (without {@code vmid}), a foreign VM takes
     * that id on the node of the first template, so a clone on that node fails at once with
     * {@code unable to create VM <id>: config file already exists}.
     */
    public void stealNextVmid() {
        synchronized (cluster) {
            cluster.faults.stealNextVmidOn = cluster.config.templates().get(0).node();
        }
    }

    /**
     * As {@link #stealNextVmid()}, with the foreign VM on {@code node}. On another node than the
     * clone's source the clone POST succeeds and its task fails with {@code close (rename) atomic
     * file '/etc/pve/nodes/<src>/qemu-server/<id>.conf' failed: File exists}.
     */
    public void stealNextVmid(String node) {
        synchronized (cluster) {
            requireNode(node);
            cluster.faults.stealNextVmidOn = node;
        }
    }

    /** An offline node answers every call routed to it with 595; its VMs stay listed. */
    public void nodeOnline(String node, boolean online) {
        synchronized (cluster) {
            requireNode(node).online = online;
        }
    }

    /**
     * Puts a node into HA maintenance mode or takes it out ({@code ha-manager crm-command
     * node-maintenance enable|disable}): {@code /nodes} keeps saying online; the HA manager's status
     * shows it.
     */
    public void nodeMaintenance(String node, boolean on) {
        synchronized (cluster) {
            requireNode(node).maintenance = on;
        }
    }

    /** Takes the cluster's quorum away (writes then fail as pmxcfs fails them) or gives it back. */
    public void quorum(boolean quorate) {
        synchronized (cluster) {
            cluster.quorumLost = !quorate;
        }
    }

    /** Creates a VM someone else made. Throws IllegalStateException when the VMID is taken. */
    public void createForeignVm(ForeignVm spec) {
        synchronized (cluster) {
            requireNode(spec.node());
            requireFree(spec.vmid());
            Vm vm = new Vm(spec.vmid(), spec.node());
            if (spec.name() != null) {
                vm.config.put("name", spec.name());
            }
            if (spec.description() != null) {
                vm.config.put("description", spec.description());
            }
            if (spec.tags() != null) {
                java.util.List<String> tags = Tags.normalise(spec.tags());
                if (tags == null) {
                    throw new IllegalArgumentException("invalid tags \"" + spec.tags() + "\"");
                }
                if (!tags.isEmpty()) {
                    vm.config.put("tags", String.join(";", tags));
                }
            }
            vm.config.put("cores", 1);
            vm.config.put("sockets", 1);
            vm.config.put("memory", "1024");
            vm.config.put("ostype", "l26");
            vm.config.put("scsi0", "local-lvm:vm-" + spec.vmid() + "-disk-0,size=16G");
            vm.config.put("net0", "virtio=" + cluster.nextMac() + ",bridge=vmbr0");
            if (spec.pool() != null) {
                Pool p = cluster.pools.get(spec.pool());
                if (p == null) {
                    throw new IllegalArgumentException("unknown pool " + spec.pool());
                }
                p.members.add(spec.vmid());
            }
            cluster.vms.put(vm.vmid, vm);
            if (spec.power() == PowerState.RUNNING) {
                VmLifecycle.powerOn(cluster, vm);
            }
            vm.stats = cluster.liveSample(vm);
        }
    }

    /** Adds an LXC container: listed by /cluster/resources and holding its VMID, nothing more. */
    public void createContainer(int vmid, String node, String name) {
        synchronized (cluster) {
            requireNode(node);
            requireFree(vmid);
            cluster.containers.put(vmid, new Container(vmid, node, name));
        }
    }

    /** Removes a VM and its disks at once, as an operator would, without any task. Pool membership stays. */
    public void destroyVm(int vmid) {
        synchronized (cluster) {
            Vm vm = cluster.vms.remove(vmid);
            if (vm == null) {
                throw new IllegalArgumentException("no VM " + vmid);
            }
            VmLifecycle.freeVolumes(cluster, vm);
        }
    }

    /**
     * The next {@code count} clones that write to {@code storage} fail their task because its
     * storage lock times out: {@code clone failed: can't lock file
     * '/var/lock/pve-manager/pve-storage-<id>' - got timeout} for a node-local storage, {@code clone
     * failed: cfs-lock 'storage-<id>' error: got lock request timeout} for a shared one. Nothing is
     * left behind.
     */
    public void storageLockTimeouts(String storage, int count) {
        synchronized (cluster) {
            cluster.storages.require(storage);
            cluster.faults.storageLockTimeouts.merge(storage, count, Integer::sum);
        }
    }

    /** Resizes a storage's space on a node (any node, for a shared one), e.g. to make it full. */
    public void storageCapacity(String storage, String node, long bytes) {
        synchronized (cluster) {
            StoragePool p = cluster.storages.pool(storage, node);
            if (p == null) {
                throw new IllegalArgumentException("storage " + storage + " is not on node " + node);
            }
            p.capacityBytes = bytes;
        }
    }

    /** Moves a VM's config to another node, as HA does after a failover; it keeps its power state. */
    public void migrateVm(int vmid, String node) {
        synchronized (cluster) {
            requireNode(node);
            requireVm(vmid).node = node;
        }
    }

    /**
     * An administrator's {@code qm set VMID --delete KEY} on a stopped VM: the line is gone from its
     * config, so the next start runs without it (the {@code agent} line: no agent channel, and every
     * agent call answers {@code No QEMU guest agent configured}).
     */
    public void deleteConfigKey(int vmid, String key) {
        synchronized (cluster) {
            Vm vm = requireVm(vmid);
            if (vm.running) {
                throw new IllegalStateException("VM " + vmid + " runs: stop it first");
            }
            vm.config.remove(key);
            vm.pending.remove(key);
        }
    }

    /**
     * An administrator's {@code qm set VMID --KEY VALUE} for a key QEMU cannot change live (such as
     * {@code agent}): a stopped VM's config takes it at once, a running VM's keeps it pending, shown
     * by GET config but not run until QEMU restarts.
     */
    public void setConfigKeyNotHotplugged(int vmid, String key, String value) {
        synchronized (cluster) {
            Vm vm = requireVm(vmid);
            (vm.running ? vm.pending : vm.config).put(key, value);
        }
    }

    /**
     * The next {@code count} disks a destroy removes from {@code storage} stay, because the storage
     * lock is not had in time: qemu-server warns {@code Could not remove disk '<volid>', check
     * manually: <lock timeout>} in the task log and goes on, the VM is gone and the task ends {@code
     * WARNINGS: n}; the disk keeps its space on the storage.
     */
    public void diskRemovalLockTimeouts(String storage, int count) {
        synchronized (cluster) {
            cluster.faults.diskRemovalLockTimeouts.merge(storage, count, Integer::sum);
        }
    }

    /** Powers a VM on or off out of band; powering on restarts the guest agent's boot delay. */
    public void setPower(int vmid, PowerState power) {
        synchronized (cluster) {
            Vm vm = requireVm(vmid);
            if (power == PowerState.RUNNING && !vm.running) {
                VmLifecycle.powerOn(cluster, vm);
            } else if (power == PowerState.STOPPED && vm.running) {
                VmLifecycle.powerOff(cluster, vm);
            }
        }
    }

    /** Forgets every pending fault. */
    public void clear() {
        synchronized (cluster) {
            cluster.faults.clear();
            for (Vm vm : cluster.vms.values()) {
                if (vm.agentNeverUp) {
                    vm.agentNeverUp = false;
                    cluster.guests.silence(vm.vmid, false);
                }
            }
        }
    }

    private Node requireNode(String node) {
        Node n = cluster.nodes.get(node);
        if (n == null) {
            throw new IllegalArgumentException("no node " + node);
        }
        return n;
    }

    private Vm requireVm(int vmid) {
        Vm vm = cluster.vms.get(vmid);
        if (vm == null) {
            throw new IllegalArgumentException("no VM " + vmid);
        }
        return vm;
    }

    private void requireFree(int vmid) {
        if (cluster.vmidTaken(vmid)) {
            throw new IllegalStateException("VMID " + vmid + " is taken");
        }
    }
}
