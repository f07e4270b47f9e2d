package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The Proxmox VE API calls the provider makes, one typed method each. Failures are
 * {@link PveApiException}s; transient ones have already been retried where that is safe.
 */
public final class PveClient {
    private final PveTransport transport;

    public PveClient(PveTransport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /** {@code GET /version}: the authenticated health probe. */
    public String version() {
        JsonNode data = call("GET", "GET /version", "/version", FormParams.none(), CallSafety.REPEATABLE);
        return Json.textOr(data, "version", "unknown");
    }

    /** {@code GET /cluster/resources?type=vm}: every VM (qemu and lxc) the token may see. */
    public List<ClusterResource> vmResources() {
        return resources(FormParams.builder().add("type", "vm").build());
    }

    /** {@code GET /cluster/resources}: VMs, nodes, storages and pools in one answer. */
    public List<ClusterResource> allResources() {
        return resources(FormParams.none());
    }

    private List<ClusterResource> resources(FormParams query) {
        JsonNode data = call("GET", "GET /cluster/resources", "/cluster/resources", query, CallSafety.REPEATABLE);
        List<ClusterResource> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(ClusterResource.from(n)));
        }
        return out;
    }

    /** {@code GET /nodes}. */
    public List<NodeEntry> nodes() {
        JsonNode data = call("GET", "GET /nodes", "/nodes", FormParams.none(), CallSafety.REPEATABLE);
        List<NodeEntry> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(NodeEntry.from(n)));
        }
        return out;
    }

    /** {@code GET /cluster/ha/status/manager_status}: quorum, the CRM's node status and each LRM's mode. */
    public HaStatus haStatus() {
        return HaStatus.from(call(
                "GET",
                "GET /cluster/ha/status/manager_status",
                "/cluster/ha/status/manager_status",
                FormParams.none(),
                CallSafety.REPEATABLE));
    }

    /** {@code GET /cluster/mapping/pci}: the PCI resource mappings the token may see. */
    public List<PciMapping> pciMappings() {
        JsonNode data = call(
                "GET", "GET /cluster/mapping/pci", "/cluster/mapping/pci", FormParams.none(), CallSafety.REPEATABLE);
        List<PciMapping> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(PciMapping.from(n)));
        }
        return out;
    }

    /** {@code GET /cluster/nextid}: a snapshot of the lowest free VMID; nothing is reserved. */
    public long nextId() {
        JsonNode data = call("GET", "GET /cluster/nextid", "/cluster/nextid", FormParams.none(), CallSafety.REPEATABLE);
        long id = data.isNumber() ? data.asLong() : Json.leadingNumber(data.asText(), -1);
        if (id <= 0) {
            throw PveApiException.transport(
                    "GET /cluster/nextid", PveApiException.Kind.MALFORMED, "the answer is not a VMID", null);
        }
        return id;
    }

    /**
     * {@code GET /cluster/nextid?vmid=N}: whether a VM (or container) holds the VMID anywhere, even
     * one the token may not see (a clone in flight, for a pool-scoped token).
     */
    public boolean vmidTaken(long vmid) {
        try {
            call(
                    "GET",
                    "GET /cluster/nextid",
                    "/cluster/nextid",
                    FormParams.builder().add("vmid", vmid).build(),
                    CallSafety.REPEATABLE);
            return false;
        } catch (PveApiException e) {
            if (e.isStatus(400) && e.mentions("already exists")) {
                return true;
            }
            throw e;
        }
    }

    /** {@code GET /nodes/{node}/storage}: the storages the token may audit or allocate on, as that node sees them. */
    public List<StorageStatus> nodeStorage(String node) {
        JsonNode data = call(
                "GET",
                "GET node storage",
                "/nodes/" + PathSegment.encode(node) + "/storage",
                FormParams.none(),
                CallSafety.REPEATABLE);
        List<StorageStatus> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(StorageStatus.from(n)));
        }
        return out;
    }

    /**
     * {@code GET /nodes/{node}/network?type=any_bridge}: the node's bridges the token may use (or
     * audit), each with its type ({@code bridge} or {@code OVSBridge} for the node's own, {@code
     * vnet} for an SDN VNet) and MTU.
     */
    public Map<String, NodeBridge> nodeBridges(String node) {
        JsonNode data = call(
                "GET",
                "GET node network",
                "/nodes/" + PathSegment.encode(node) + "/network",
                FormParams.builder().add("type", "any_bridge").build(),
                CallSafety.REPEATABLE);
        Map<String, NodeBridge> out = new LinkedHashMap<>();
        if (data.isArray()) {
            data.forEach(n -> out.put(
                    Json.textOr(n, "iface", ""),
                    new NodeBridge(
                            Json.textOr(n, "type", ""),
                            n.path("mtu").asInt(NodeBridge.DEFAULT_MTU) > 0
                                    ? n.path("mtu").asInt(NodeBridge.DEFAULT_MTU)
                                    : NodeBridge.DEFAULT_MTU)));
        }
        return out;
    }

    /**
     * {@code GET /cluster/sdn/vnets}: the SDN VNets and their zones, as far as the token may see
     * them (Proxmox lists only those it holds {@code SDN.Audit} or {@code SDN.Allocate} on, in
     * their zone). A Proxmox VE without SDN answers 501 or 404.
     */
    public List<SdnVnet> sdnVnets() {
        JsonNode data =
                call("GET", "GET /cluster/sdn/vnets", "/cluster/sdn/vnets", FormParams.none(), CallSafety.REPEATABLE);
        List<SdnVnet> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(SdnVnet.from(n)));
        }
        return out;
    }

    /** {@code GET /nodes/{node}/capabilities/qemu/cpu}: the CPU model names a VM on that node may use. */
    public Set<String> cpuModels(String node) {
        JsonNode data = call(
                "GET",
                "GET cpu models",
                "/nodes/" + PathSegment.encode(node) + "/capabilities/qemu/cpu",
                FormParams.none(),
                CallSafety.REPEATABLE);
        Set<String> out = new LinkedHashSet<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(Json.textOr(n, "name", "")));
        }
        return out;
    }

    /** {@code GET /access/permissions?path=}: the token's effective privileges on that ACL path. */
    public Set<String> privileges(String path) {
        JsonNode data = call(
                "GET",
                "GET access/permissions",
                "/access/permissions",
                FormParams.builder().add("path", path).build(),
                CallSafety.REPEATABLE);
        Set<String> out = new LinkedHashSet<>();
        JsonNode privs = data.get(path);
        if (privs != null && privs.isObject()) {
            privs.fieldNames().forEachRemaining(out::add);
        }
        return out;
    }

    /** {@code GET /pools/{poolid}}: checks the pool exists and is visible. */
    public void pool(String poolId) {
        call(
                "GET",
                "GET /pools/{poolid}",
                "/pools/" + PathSegment.encode(poolId),
                FormParams.none(),
                CallSafety.REPEATABLE);
    }

    /** {@code POST /nodes/{node}/qemu/{vmid}/clone}; never repeated on an unknown outcome. */
    public Upid cloneVm(String node, long templateVmid, CloneRequest request) {
        return task("POST", "POST clone", vm(node, templateVmid) + "/clone", request.params(), CallSafety.ONCE);
    }

    /** {@code GET …/config}. */
    public VmConfig config(String node, long vmid) {
        return VmConfig.from(
                call("GET", "GET config", vm(node, vmid) + "/config", FormParams.none(), CallSafety.REPEATABLE));
    }

    /** {@code PUT …/config}: applied synchronously. */
    public void updateConfig(String node, long vmid, VmSettings settings) {
        call("PUT", "PUT config", vm(node, vmid) + "/config", settings.params(), CallSafety.REPEATABLE);
    }

    /**
     * {@code PUT …/config} with only the VM's tags and description, applied synchronously; refused
     * ("checksum mismatch") when {@code digest} is given and the config changed since it was read.
     */
    public void updateMarkers(String node, long vmid, TagList tags, String description, Optional<String> digest) {
        FormParams.Builder b = FormParams.builder().add("tags", tags.wire()).add("description", description);
        digest.ifPresent(d -> b.add("digest", d));
        call("PUT", "PUT config", vm(node, vmid) + "/config", b.build(), CallSafety.REPEATABLE);
    }

    /**
     * {@code PUT …/config} setting {@code set} and removing {@code delete}, applied synchronously (a
     * CD-ROM's medium changes at once on a running VM).
     */
    public void setConfig(String node, long vmid, Map<String, String> set, List<String> delete) {
        FormParams.Builder b = FormParams.builder();
        set.forEach(b::add);
        if (!delete.isEmpty()) {
            b.add("delete", String.join(",", delete));
        }
        call("PUT", "PUT config", vm(node, vmid) + "/config", b.build(), CallSafety.REPEATABLE);
    }

    /**
     * {@code POST …/config} with new drives, each {@code STORAGE:SIZE[,options]}: a {@code qmconfig}
     * task in which Proxmox allocates each volume and writes its key. Never sent again when its answer
     * is lost (a repeat would allocate the volumes a second time): read the config back instead.
     */
    public Upid allocateDrives(String node, long vmid, Map<String, String> drives) {
        FormParams.Builder b = FormParams.builder();
        drives.forEach(b::add);
        return task("POST", "POST config", vm(node, vmid) + "/config", b.build(), CallSafety.ONCE);
    }

    /**
     * {@code POST /nodes/{node}/storage/{storage}/upload} of {@code file} as {@code content} (an
     * {@code imgcopy} task); never sent again when its answer is lost.
     */
    public Upid upload(String node, String storage, String content, String filename, byte[] bytes) {
        return Upid.parse(
                "POST storage upload",
                transport
                        .call(ApiCall.upload(
                                "POST storage upload",
                                storagePath(node, storage) + "/upload",
                                FormParams.builder().add("content", content).build(),
                                new FilePart("filename", filename, bytes)))
                        .asText(""));
    }

    /** {@code GET /nodes/{node}/storage/{storage}/content?content=}: the volumes of that kind. */
    public List<StorageVolume> storageContent(String node, String storage, String content) {
        JsonNode data = call(
                "GET",
                "GET storage content",
                storagePath(node, storage) + "/content",
                FormParams.builder().add("content", content).build(),
                CallSafety.REPEATABLE);
        List<StorageVolume> out = new ArrayList<>();
        if (data.isArray()) {
            data.forEach(n -> out.add(StorageVolume.from(n)));
        }
        return out;
    }

    /** {@code DELETE /nodes/{node}/storage/{storage}/content/{volume}}: an {@code imgdel} task. */
    public Upid deleteVolume(String node, String storage, String volid) {
        return task(
                "DELETE",
                "DELETE storage content",
                storagePath(node, storage) + "/content/" + PathSegment.encode(volid),
                FormParams.none(),
                CallSafety.REPEATABLE);
    }

    /** {@code PUT …/resize}: grows a disk to {@code gib} GiB in a {@code resize} task (PVE 8+). */
    public Upid resize(String node, long vmid, String disk, long gib) {
        FormParams body =
                FormParams.builder().add("disk", disk).add("size", gib + "G").build();
        return task("PUT", "PUT resize", vm(node, vmid) + "/resize", body, CallSafety.REPEATABLE);
    }

    /** {@code GET …/status/current}. */
    public VmStatus currentStatus(String node, long vmid) {
        return VmStatus.from(call(
                "GET",
                "GET status/current",
                vm(node, vmid) + "/status/current",
                FormParams.none(),
                CallSafety.REPEATABLE));
    }

    /** {@code POST …/status/start}; a repeat only ends in "already running". */
    public Upid start(String node, long vmid) {
        return task(
                "POST",
                "POST status/start",
                vm(node, vmid) + "/status/start",
                FormParams.none(),
                CallSafety.REPEATABLE);
    }

    /** {@code POST …/status/stop}: hard power-off; a no-op on a stopped VM. */
    public Upid stop(String node, long vmid) {
        return task(
                "POST", "POST status/stop", vm(node, vmid) + "/status/stop", FormParams.none(), CallSafety.REPEATABLE);
    }

    /**
     * {@code DELETE /nodes/{node}/qemu/{vmid}?purge=1&destroy-unreferenced-disks=1}. Never sent again
     * when its answer is lost: the VMID it may have freed can be another VM's by then.
     */
    public Upid destroy(String node, long vmid) {
        FormParams query = FormParams.builder()
                .flag("purge", true)
                .flag("destroy-unreferenced-disks", true)
                .build();
        return task("DELETE", "DELETE qemu", vm(node, vmid), query, CallSafety.ONCE);
    }

    /**
     * {@code GET …/agent/file-read?file=}: a file of the guest, read by its agent (which answers even
     * when it refuses {@code guest-exec}); its content as text.
     */
    public String agentFileRead(String node, long vmid, String file) {
        JsonNode data = call(
                "GET",
                "GET agent/file-read",
                vm(node, vmid) + "/agent/file-read",
                FormParams.builder().add("file", file).build(),
                CallSafety.REPEATABLE);
        return Json.textOr(data, "content", "");
    }

    /** {@code GET …/agent/get-host-name}: the guest's host name, as its agent reports it. */
    public String agentHostName(String node, long vmid) {
        JsonNode data = call(
                "GET",
                "GET agent/get-host-name",
                vm(node, vmid) + "/agent/get-host-name",
                FormParams.none(),
                CallSafety.REPEATABLE);
        JsonNode result = data.path("result");
        return Json.textOr(result, "host-name", "");
    }

    /** {@code GET /nodes/{node}/tasks/{upid}/status}, on the node that runs the task. */
    public TaskStatus taskStatus(Upid upid) {
        return TaskStatus.from(transport.call(new ApiCall(
                "GET",
                "GET task status",
                "/nodes/" + PathSegment.encode(upid.node()) + "/tasks/" + PathSegment.encode(upid.value()) + "/status",
                FormParams.none(),
                CallSafety.REPEATABLE,
                NotYet.TASK_RUNNING)));
    }

    /**
     * {@code GET /nodes/{node}/tasks/{upid}/log}: the first {@code limit} lines of a task's log,
     * the worker's output and, once it ended, {@code TASK OK}, {@code TASK WARNINGS: n} or {@code
     * TASK ERROR: ...}.
     */
    public List<String> taskLog(Upid upid, int limit) {
        JsonNode data = call(
                "GET",
                "GET task log",
                "/nodes/" + PathSegment.encode(upid.node()) + "/tasks/" + PathSegment.encode(upid.value()) + "/log",
                FormParams.builder().add("limit", Integer.toString(limit)).build(),
                CallSafety.REPEATABLE);
        List<String> out = new ArrayList<>();
        if (data != null && data.isArray()) {
            data.forEach(n -> out.add(Json.textOr(n, "t", "")));
        }
        return out;
    }

    /** {@code POST …/agent/ping}: succeeds only when the guest agent answers. */
    public void agentPing(String node, long vmid) {
        transport.call(new ApiCall(
                "POST",
                "POST agent/ping",
                vm(node, vmid) + "/agent/ping",
                FormParams.none(),
                CallSafety.REPEATABLE,
                NotYet.AGENT_BOOTING));
    }

    /**
     * {@code POST …/agent/file-write} with {@code encode=0}: the content is already base64, so the
     * guest receives the bytes exactly. Truncates the file; at most 61440 base64 characters.
     */
    public void agentFileWrite(String node, long vmid, String file, String base64Content) {
        FormParams body = FormParams.builder()
                .add("file", file)
                .add("content", base64Content)
                .flag("encode", false)
                .build();
        call("POST", "POST agent/file-write", vm(node, vmid) + "/agent/file-write", body, CallSafety.REPEATABLE);
    }

    /** {@code POST …/agent/exec}: starts the program (no shell) and returns the guest PID. */
    public long agentExec(String node, long vmid, List<String> command) {
        FormParams body = FormParams.builder().addAll("command", command).build();
        JsonNode data = call("POST", "POST agent/exec", vm(node, vmid) + "/agent/exec", body, CallSafety.ONCE);
        long pid = Json.number(data, "pid", -1);
        if (pid < 0) {
            throw PveApiException.transport(
                    "POST agent/exec", PveApiException.Kind.MALFORMED, "no pid in the answer", null);
        }
        return pid;
    }

    /** {@code GET …/agent/exec-status?pid=}; its final answer is consumed, so it is never repeated blindly. */
    public ExecStatus agentExecStatus(String node, long vmid, long pid) {
        FormParams query = FormParams.builder().add("pid", pid).build();
        return ExecStatus.from(transport.call(new ApiCall(
                "GET",
                "GET agent/exec-status",
                vm(node, vmid) + "/agent/exec-status",
                query,
                CallSafety.ONCE,
                NotYet.EXEC_RUNNING)));
    }

    private Upid task(String method, String op, String path, FormParams params, CallSafety safety) {
        JsonNode data = call(method, op, path, params, safety);
        return Upid.parse(op, data.asText(""));
    }

    private JsonNode call(String method, String op, String path, FormParams params, CallSafety safety) {
        return transport.call(new ApiCall(method, op, path, params, safety));
    }

    private static String storagePath(String node, String storage) {
        return "/nodes/" + PathSegment.encode(node) + "/storage/" + PathSegment.encode(storage);
    }

    private static String vm(String node, long vmid) {
        return "/nodes/" + PathSegment.encode(node) + "/qemu/" + vmid;
    }
}
