package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The recorded forms of ECMA-119 section 7, against the standard's own examples where it has them. */
class FieldsTest {
    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void numbersAreRecordedInTheOrdersOfSection7() {
        byte[] b = new byte[21];
        new Fields(b, 0)
                .uint8(1, 0xAB)
                .uint16Lsb(2, 0x1234)
                .uint16Msb(4, 0x1234)
                .uint16Both(6, 0x1234)
                .uint32Lsb(10, 0x12345678)
                .uint32Both(14, 0x12345678);
        assertThat(hex(b)).isEqualTo("ab" + "3412" + "1234" + "34121234" + "78563412" + "7856341212345678");
        byte[] m = new byte[4];
        new Fields(m, 0).uint32Msb(1, 0x12345678);
        assertThat(hex(m)).isEqualTo("12345678");
    }

    @Test
    void positionsCountFromOneAtTheStructuresStart() {
        byte[] b = new byte[8];
        new Fields(b, 4).uint8(1, 7).uint8(4, 9);
        assertThat(hex(b)).isEqualTo("0000000007000009");
    }

    @Test
    void numbersOutOfRangeAreRefused() {
        Fields f = new Fields(new byte[8], 0);
        assertThatThrownBy(() -> f.uint8(1, 256)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> f.uint16Both(1, 0x10000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> f.uint32Lsb(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void identifiersArePaddedWithSpacesInTheirCharacterSet() {
        byte[] b = new byte[8];
        new Fields(b, 0).text(1, 8, "cidata");
        assertThat(hex(b)).isEqualTo("6369646174612020");
        byte[] u = new byte[7];
        new Fields(u, 0).ucs2(1, 7, "ci");
        assertThat(hex(u)).isEqualTo("00630069002000");
        assertThatThrownBy(() -> new Fields(new byte[4], 0).text(1, 4, "cidata"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Fields(new byte[4], 0).ucs2(1, 4, "abc"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void datesHaveTheFormsOf8_4_26_1And9_1_5() {
        LocalDateTime t = LocalDateTime.of(2025, 1, 2, 3, 4, 5, 670_000_000);
        byte[] b = new byte[17 + 17 + 7];
        new Fields(b, 0)
                .longDate(1, Optional.of(t))
                .longDate(18, Optional.empty())
                .shortDate(35, t);
        assertThat(new String(b, 0, 16, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("2025010203040567");
        assertThat(b[16]).isZero();
        assertThat(new String(b, 17, 16, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("0000000000000000");
        assertThat(b[33]).isZero();
        assertThat(hex(java.util.Arrays.copyOfRange(b, 34, 41))).isEqualTo("7d010203040500");
    }
}
