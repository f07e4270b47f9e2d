package dev.bigfleet.proxmox.backend.proxmox.seed;

import java.util.Locale;

/**
 * A string as a YAML double-quoted scalar that reads back as exactly that string, whatever it
 * holds. Inside the quotes only printable ASCII stays as it is; a quote and a backslash are
 * escaped, and every other character (line breaks, tabs, control characters, anything beyond
 * ASCII) is written as one of YAML's hexadecimal escapes (a backslash, then x, u or U and 2, 4 or
 * 8 hex digits), which YAML 1.1 (PyYAML, as cloud-init reads it) and 1.2 both define. So the value cannot end the scalar, start a new key or
 * a comment, or hold a character a YAML reader refuses.
 */
public final class YamlString {
    private YamlString() {}

    /**
     * @throws IllegalArgumentException when the string holds a lone surrogate (it is not Unicode
     *     text, and YAML cannot carry it)
     */
    public static String doubleQuoted(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                throw new IllegalArgumentException("not Unicode text: a lone surrogate at index " + i);
            }
            if (c == '"' || c == '\\') {
                out.append('\\').append((char) c);
            } else if (c >= 0x20 && c <= 0x7E) {
                out.append((char) c);
            } else if (c <= 0xFF) {
                out.append(String.format(Locale.ROOT, "\\x%02X", c));
            } else if (c <= 0xFFFF) {
                out.append(String.format(Locale.ROOT, "\\u%04X", c));
            } else {
                out.append(String.format(Locale.ROOT, "\\U%08X", c));
            }
            i += Character.charCount(c);
        }
        return out.append('"').toString();
    }
}
