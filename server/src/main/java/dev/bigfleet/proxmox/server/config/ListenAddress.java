package dev.bigfleet.proxmox.server.config;

import java.net.InetSocketAddress;

/** A listen address in Go's {@code host:port} form; an empty host means every interface. */
public record ListenAddress(String host, int port) {

    /** @throws IllegalArgumentException saying what is wrong with {@code value} */
    public static ListenAddress parse(String value) {
        String v = value.trim();
        int colon = v.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "\"" + value + "\" is not host:port (for example :9000 or 127.0.0.1:9000)");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + value + "\" has no numeric port");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 0-65535");
        }
        return new ListenAddress(host, port);
    }

    public InetSocketAddress toSocketAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
