package dev.bigfleet.proxmox.server.admin;

import java.util.Map;

/**
 * One machine as the admin API serves it. Shard metadata and anything a Configure carried besides
 * the cluster id are left out; the bootstrap blob is never part of a machine at all.
 *
 * @param proxmoxUrl the VM's page in the Proxmox web UI, when it holds a VM and the backend has a UI
 * @param addresses the static addresses of its VM's NICs ({@code 10.20.0.12/24}); empty with DHCP
 * @param templateDrift why its VM is out of date with its template (the template changed since the clone), or null
 * @param needsAttention FAILED, its VM may be a live node, and the drain before its cleanup failed
 */
public record MachineRow(
        String id,
        String state,
        String zone,
        String instanceType,
        String capacityType,
        String host,
        String node,
        String cluster,
        double pricePerHour,
        Long density,
        Map<String, String> allocatable,
        Map<String, String> resources,
        Map<String, String> labels,
        String lastError,
        String stateSince,
        Long timeInStateSeconds,
        String proxmoxUrl,
        java.util.List<String> addresses,
        String templateDrift,
        boolean needsAttention) {}
