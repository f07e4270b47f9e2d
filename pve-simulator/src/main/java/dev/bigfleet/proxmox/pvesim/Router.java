package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/** Maps {@code METHOD /a/{b}/c} patterns to endpoints and their schemas. */
final class Router {
    private final List<Route> routes = new ArrayList<>();

    /**
     * A route; {@code proxied} when Proxmox forwards the call to its {@code {node}} ({@code proxyto
     * => 'node'}), so that an offline node fails the call before its handler runs.
     */
    // the split path template; routes are never compared
    @SuppressWarnings("ArrayRecordComponent")
    record Route(
            String method,
            String[] pattern,
            Permission permission,
            ParamSchema schema,
            Endpoint endpoint,
            boolean proxied) {}

    record Match(Route route, Params pathParams) {}

    /** An endpoint any authenticated token may call (it checks privileges itself, or needs none). */
    void add(String method, String pattern, ParamSchema schema, Endpoint endpoint) {
        add(method, pattern, Permission.anyUser(), schema, endpoint);
    }

    void add(String method, String pattern, Permission permission, ParamSchema schema, Endpoint endpoint) {
        routes.add(new Route(method, pattern.substring(1).split("/"), permission, schema, endpoint, true));
    }

    /** A call the node that receives it handles itself (no {@code proxyto}). */
    void addUnproxied(String method, String pattern, Permission permission, ParamSchema schema, Endpoint endpoint) {
        routes.add(new Route(method, pattern.substring(1).split("/"), permission, schema, endpoint, false));
    }

    /** Every route, in registration order. */
    List<Route> routes() {
        return java.util.Collections.unmodifiableList(routes);
    }

    /** The route's path template, such as {@code /nodes/{node}/qemu/{vmid}/config}. */
    static String template(Route r) {
        return "/" + String.join("/", r.pattern());
    }

    /**
     * @return null when nothing matches the method and path. A last pattern part {@code {name+}}
     *     takes the rest of the path, its segments joined by {@code /}, as pve-storage's content
     *     routes do ({@code fragmentDelimiter => ''}: volume IDs hold slashes).
     */
    Match find(String method, List<String> segments) {
        for (Route r : routes) {
            int n = r.pattern.length;
            boolean rest = r.pattern[n - 1].endsWith("+}");
            if (!r.method.equals(method) || (rest ? segments.size() < n : segments.size() != n)) {
                continue;
            }
            Params p = Params.empty();
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) {
                String want = r.pattern[i];
                String got = segments.get(i);
                if (rest && i == n - 1) {
                    p = p.with(
                            want.substring(1, want.length() - 2),
                            String.join("/", segments.subList(i, segments.size())));
                } else if (want.startsWith("{")) {
                    p = p.with(want.substring(1, want.length() - 1), got);
                } else {
                    ok = want.equals(got);
                }
            }
            if (ok) {
                return new Match(r, p);
            }
        }
        return null;
    }
}
