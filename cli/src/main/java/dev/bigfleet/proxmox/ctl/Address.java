package dev.bigfleet.proxmox.ctl;

/** {@code HOST:PORT}, {@code [V6]:PORT} or {@code :PORT} (localhost), as {@code --addr} takes it. */
record Address(String host, int port) {
    static Address parse(String text) {
        String s = text.trim();
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--addr: \"" + text + "\" is not HOST:PORT");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("--addr: write an IPv6 address in brackets, e.g. [::1]:9000");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--addr: \"" + text + "\" has no port number", e);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--addr: port " + port + " is out of range");
        }
        return new Address(host.isEmpty() ? "localhost" : host, port);
    }
}
