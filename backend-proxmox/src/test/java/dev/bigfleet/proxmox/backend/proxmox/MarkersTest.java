package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MarkersTest {
    private final Markers markers = new Markers("dc1/East");

    @Test
    void tagsAreProxmoxSafeAndCarryProviderAndMachine() {
        assertThat(markers.providerTag()).isEqualTo("bigfleet-p-dc1-east");
        assertThat(markers.tagsFor("dc1/East/OnDemand/pve.small/pve1/003").wire())
                .isEqualTo("bigfleet;bigfleet-m-dc1-east-ondemand-pve.small-pve1-003;bigfleet-p-dc1-east");
        assertThat(Markers.tagSafe("")).isEqualTo("x");
    }

    @Test
    void namesAreDnsNamesOfAtMost63Characters() {
        assertThat(Markers.vmName("pve.small", "proxmox/OnDemand/pve.small/pve2/003"))
                .isEqualTo("bigfleet-pve-small-proxmox-OnDemand-pve-small-pve2-003");
        String longName =
                Markers.vmName("pve.xlarge", "a-very-long-provider-label/OnDemand/pve.xlarge/node-with-long-name/123");
        assertThat(longName).hasSizeLessThanOrEqualTo(63).matches("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?");
    }

    @Test
    void theDescriptionKeepsIdsVerbatimAndReadsBack() {
        VmDescription d = markers.description("dc1/East/OnDemand/pve.small/pve1/003 ünïcode=x", "op-7");
        assertThat(VmDescription.parse(Optional.of(d.render()))).contains(d);
        assertThat(d.belongsTo("dc1/East", "dc1/East/OnDemand/pve.small/pve1/003 ünïcode=x"))
                .isTrue();
        assertThat(d.belongsTo("dc1/east", "dc1/East/OnDemand/pve.small/pve1/003 ünïcode=x"))
                .isFalse();
        assertThat(VmDescription.parse(Optional.of("BigFleet managed VM. machine_id=x operation_id=y")))
                .isEmpty();
        assertThat(VmDescription.parse(Optional.empty())).isEmpty();
        assertThat(VmDescription.storable("a\nb")).isFalse();
        assertThat(VmDescription.storable(" a")).isFalse();
        assertThat(VmDescription.storable("p/OnDemand/t/z/001")).isTrue();
    }
}
