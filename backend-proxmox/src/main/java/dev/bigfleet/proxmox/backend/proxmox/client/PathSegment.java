package dev.bigfleet.proxmox.backend.proxmox.client;

import java.nio.charset.StandardCharsets;

/** Percent-encodes one URL path segment (node names, UPIDs, pool ids); keeps RFC 3986 pchar as is. */
final class PathSegment {
    private static final String KEEP = "-._~!$&'()*+,;=:@";

    private PathSegment() {}

    static String encode(String segment) {
        StringBuilder out = new StringBuilder();
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || KEEP.indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
