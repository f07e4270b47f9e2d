package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TaskStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.Upid;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;

/**
 * Brings a VM to "running with its guest agent answering". A ping first: on a healthy VM that is
 * the only call. A stopped VM is started (a repeat that finds it already running is fine).
 */
final class PowerControl {
    private final PveClient api;
    private final TaskWaiter tasks;
    private final AgentWaiter agent;

    PowerControl(PveClient api, TaskWaiter tasks, AgentWaiter agent) {
        this.api = api;
        this.tasks = tasks;
        this.agent = agent;
    }

    void ensureUp(String node, long vmid, OperationContext context) throws BackendException {
        String ref = node + "/" + vmid;
        try {
            api.agentPing(node, vmid);
            return;
        } catch (PveApiException e) {
            if (e.mentions("no qemu guest agent configured")) {
                throw new BackendException(
                        "VM " + ref + " runs without the guest agent the provider needs (Proxmox: No QEMU"
                                + " guest agent configured): its config has agent 0 or unset, or had when"
                                + " the VM started (a changed agent line takes a restart)",
                        e);
            }
            if (AgentWaiter.fatal(e)) {
                throw new BackendException("ping guest agent of VM " + ref + ": " + e.getMessage(), e);
            }
            if (e.mentions("is not running") && !e.mentions("agent is not running")) {
                start(node, vmid, context);
            }
        }
        agent.await(node, vmid, context);
    }

    /** Powers the VM off (hard) and waits for the stop task; a stopped VM stays stopped. */
    void stop(String node, long vmid, OperationContext context) throws BackendException {
        String what = "stop VM " + node + "/" + vmid;
        Upid upid;
        try {
            upid = api.stop(node, vmid);
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (!status.succeeded()) {
            throw new BackendException(what + ": task failed: " + status.failure());
        }
    }

    /** Starts the VM and waits for the start task; "already running" counts as started. */
    void start(String node, long vmid, OperationContext context) throws BackendException {
        String what = "start VM " + node + "/" + vmid;
        Upid upid;
        try {
            upid = api.start(node, vmid);
        } catch (PveApiException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
        TaskStatus status = tasks.await(upid, what, context);
        if (!status.succeeded() && !status.failure().contains("already running")) {
            throw new BackendException(what + ": task failed: " + status.failure());
        }
    }
}
