package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What the quoting writes; {@code CloudInitReadsSeedTest} proves cloud-init reads it back. */
class YamlStringTest {
    @Test
    void printableAsciiStaysAsItIs() {
        assertThat(YamlString.doubleQuoted("node-1.example.org")).isEqualTo("\"node-1.example.org\"");
        assertThat(YamlString.doubleQuoted("a: b # c, [d] {e} &f *g !h | > ' %"))
                .isEqualTo("\"a: b # c, [d] {e} &f *g !h | > ' %\"");
    }

    @Test
    void quotesAndBackslashesAreEscaped() {
        assertThat(YamlString.doubleQuoted("say \"hi\" \\o/")).isEqualTo("\"say \\\"hi\\\" \\\\o/\"");
    }

    @Test
    void everythingElseIsAHexadecimalEscapeSoNoLineCanBreak() {
        assertThat(YamlString.doubleQuoted("a\nlocal-hostname: evil")).isEqualTo("\"a\\x0Alocal-hostname: evil\"");
        assertThat(YamlString.doubleQuoted("\0\t\r\u007f\u0085")).isEqualTo("\"\\x00\\x09\\x0D\\x7F\\x85\"");
        assertThat(YamlString.doubleQuoted("é\u2028\uFEFF")).isEqualTo("\"\\xE9\\u2028\\uFEFF\"");
        assertThat(YamlString.doubleQuoted("😀")).isEqualTo("\"\\U0001F600\"");
        assertThat(YamlString.doubleQuoted("\uD836\uDC00")).isEqualTo("\"\\U0001D800\"");
        assertThat(YamlString.doubleQuoted("")).isEqualTo("\"\"");
    }

    @Test
    void loneSurrogatesAreNotText() {
        assertThatThrownBy(() -> YamlString.doubleQuoted("a\uD800b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> YamlString.doubleQuoted("\uDC00")).isInstanceOf(IllegalArgumentException.class);
    }
}
