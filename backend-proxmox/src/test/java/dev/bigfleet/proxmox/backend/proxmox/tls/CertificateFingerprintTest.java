package dev.bigfleet.proxmox.backend.proxmox.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CertificateFingerprintTest {
    private static final String HEX = "5a0f" + "00".repeat(29) + "c3";

    @Test
    void acceptsColonsBareHexSpacesAndAnyCase() {
        CertificateFingerprint bare = CertificateFingerprint.parse(HEX);
        assertThat(CertificateFingerprint.parse(HEX.toUpperCase(java.util.Locale.ROOT)))
                .isEqualTo(bare);
        assertThat(CertificateFingerprint.parse(bare.toString())).isEqualTo(bare);
        assertThat(CertificateFingerprint.parse(bare.toString().replace(':', ' ')))
                .isEqualTo(bare);
        assertThat(bare.toString()).hasSize(95).startsWith("5A:0F:00").endsWith(":C3");
    }

    @Test
    void refusesWrongLengthsAndNonHex() {
        assertThatThrownBy(() -> CertificateFingerprint.parse("SHA256 Fingerprint=" + HEX))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CertificateFingerprint.parse(HEX.substring(2))).hasMessageContaining("62 hex");
        assertThatThrownBy(() -> CertificateFingerprint.parse("g" + HEX.substring(1)))
                .hasMessageContaining("not hex");
    }

    @Test
    void trustNeedsMaterial() {
        assertThatThrownBy(() -> new ApiTrust(List.of(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
