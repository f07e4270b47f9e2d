package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Each privilege the provider relies on, checked where Proxmox checks it and named as Proxmox
 * names it; the token reads its own effective privileges from {@code /access/permissions}.
 */
class PrivilegesTest {
    private static PveSimulator start(UnaryOperator<TokenPrivileges> privileges) throws Exception {
        return PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .token("bigfleet@pve!autoscaler=s3cret")
                .tokenPrivileges(privileges.apply(
                        TokenPrivileges.poolScoped("bigfleet").grant("/vms/9000", "VM.Audit", "VM.Clone")))
                .build());
    }

    @Test
    void theTokenReadsItsEffectivePrivilegesPerPathWithPoolMembersInheritingThePools() throws Exception {
        try (PveSimulator sim = start(p -> p)) {
            TestClient client = TestClient.of(sim);
            JsonNode pool =
                    client.get("/access/permissions?path=/pool/bigfleet").data().get("/pool/bigfleet");
            assertThat(pool.has("VM.Allocate")).isTrue();
            assertThat(pool.get("VM.GuestAgent.Unrestricted").asInt()).isEqualTo(1);
            JsonNode template =
                    client.get("/access/permissions?path=/vms/9000").data().get("/vms/9000");
            assertThat(template.has("VM.Clone")).isTrue();
            assertThat(template.has("VM.Allocate"))
                    .as("the template is not in the pool")
                    .isFalse();
            assertThat(client.get("/access/permissions?path=/storage/local-lvm")
                            .data()
                            .get("/storage/local-lvm")
                            .has("Datastore.AllocateSpace"))
                    .isTrue();
            assertThat(client.get("/access/permissions?path=/vms/123")
                            .data()
                            .get("/vms/123")
                            .size())
                    .isZero();

            assertThat(client.get("/access/permissions?path=/no/such/thing")
                            .data()
                            .get("/no/such/thing"))
                    .as("a path no ACL names answers with what it inherits: nothing here")
                    .isEmpty();
            assertThat(client.get("/access/permissions?path=vms").data().get("vms"))
                    .as("the path has no format to fail")
                    .isEmpty();

            String upid = client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet")
                    .data()
                    .asText();
            assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
            assertThat(client.get("/access/permissions?path=/vms/150")
                            .data()
                            .get("/vms/150")
                            .has("VM.PowerMgmt"))
                    .as("a clone in the pool gets the pool's privileges")
                    .isTrue();
        }
    }

    @Test
    void cloneNeedsSpaceOnTheStorageAndTheBridge() throws Exception {
        try (PveSimulator sim = start(p -> p.revoke("/storage", "Datastore.AllocateSpace"))) {
            TestClient.Resp r =
                    TestClient.of(sim).post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet");
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.message())
                    .isEqualTo("Permission check failed (/storage/local-lvm, Datastore.AllocateSpace)\n");
            assertThat(TestClient.of(sim).get("/nodes/pve1/storage").data().size())
                    .as("storages the token may neither audit nor allocate on are left out")
                    .isZero();
        }
        try (PveSimulator sim = start(p -> p.revoke("/sdn/zones/localnetwork", "SDN.Use"))) {
            TestClient.Resp r =
                    TestClient.of(sim).post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet");
            assertThat(r.message()).isEqualTo("Permission check failed (/sdn/zones/localnetwork/vmbr0, SDN.Use)\n");
            assertThat(TestClient.of(sim)
                            .get("/nodes/pve1/network?type=any_bridge")
                            .data()
                            .size())
                    .as("bridges the token may not use are not listed")
                    .isZero();
        }
    }

    @Test
    void eachConfigOptionNeedsItsOwnPrivilegeAndNodesHideTheirStatisticsWithoutSysAudit() throws Exception {
        try (PveSimulator sim = start(p -> p.revoke("/pool/bigfleet", "VM.Config.Network", "VM.Config.Disk")
                .revoke("/nodes", "Sys.Audit"))) {
            TestClient client = TestClient.of(sim);
            client.awaitTask(client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet")
                    .data()
                    .asText());
            assertThat(client.put("/nodes/pve1/qemu/150/config", "cores", "4").status())
                    .isEqualTo(200);
            assertThat(client.put("/nodes/pve1/qemu/150/config", "cores", "4", "net0", "virtio,bridge=vmbr0")
                            .message())
                    .isEqualTo("Permission check failed (/vms/150, VM.Config.Network)\n");
            assertThat(client.put("/nodes/pve1/qemu/150/resize", "disk", "scsi0", "size", "64G")
                            .message())
                    .isEqualTo("Permission check failed (/vms/150, VM.Config.Disk)\n");
            JsonNode node = null;
            for (JsonNode e : client.get("/cluster/resources?type=node").data()) {
                node = e;
            }
            assertThat(node.get("status").asText()).isEqualTo("online");
            assertThat(node.has("maxmem")).isFalse();
            assertThat(client.get("/nodes/pve1/status").message())
                    .isEqualTo("Permission check failed (/nodes/pve1, Sys.Audit)\n");
        }
    }

    @Test
    void aCdromNeedsItsPrivilegeWhenTheUpdateIsAppliedAndAccessToTheIsosStorage() throws Exception {
        try (PveSimulator sim = start(p -> p.grant("/storage", "Datastore.AllocateTemplate"))) {
            TestClient client = TestClient.of(sim);
            assertThat(client.run(client.upload(
                            "/nodes/pve1/storage/local/upload",
                            "filename",
                            "seed.iso",
                            SeedIso.make("data", java.util.Map.of("a", "a\n")),
                            "content",
                            "iso")))
                    .isEqualTo("OK");
            client.awaitTask(client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet")
                    .data()
                    .asText());
            // the provisioner's role has no VM.Config.CDROM: qemu-server finds out while applying
            TestClient.Resp put = client.put("/nodes/pve1/qemu/150/config", "ide2", "local:iso/seed.iso,media=cdrom");
            assertThat(put.status()).isEqualTo(403);
            assertThat(put.message()).isEqualTo("Permission check failed (/vms/150, VM.Config.CDROM)\n");
            TestClient.Resp post = client.post("/nodes/pve1/qemu/150/config", "ide2", "local:iso/seed.iso,media=cdrom");
            assertThat(post.status()).as("a POST fails in its task").isEqualTo(200);
            assertThat(client.run(post)).isEqualTo("Permission check failed (/vms/150, VM.Config.CDROM)");
        }
        // on local only the upload privilege: neither AllocateSpace nor Audit to read an ISO there
        try (PveSimulator sim = start(p ->
                p.grant("/pool/bigfleet", "VM.Config.CDROM").grant("/storage/local", "Datastore.AllocateTemplate"))) {
            TestClient client = TestClient.of(sim);
            client.awaitTask(client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet")
                    .data()
                    .asText());
            TestClient.Resp put = client.put("/nodes/pve1/qemu/150/config", "ide2", "local:iso/seed.iso,media=cdrom");
            assertThat(put.message())
                    .as("check_volume_access, before the config is read")
                    .isEqualTo("Permission check failed (/storage/local, Datastore.AllocateSpace|Datastore.Audit)\n");
            assertThat(client.put("/nodes/pve1/qemu/150/config", "ide2", "none,media=cdrom")
                            .status())
                    .isEqualTo(200);
        }
    }
}
