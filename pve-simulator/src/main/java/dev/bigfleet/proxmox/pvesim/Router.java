package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/** Maps {@code METHOD /a/{b}/c} patterns to endpoints and their schemas. */
final class Router {
    private final List<Route> routes = new ArrayList<>();

    // the split path template; routes are never compared
    @SuppressWarnings("ArrayRecordComponent")
    record Route(String method, String[] pattern, Permission permission, ParamSchema schema, Endpoint endpoint) {}

    record Match(Route route, Params pathParams) {}

    /** An endpoint any authenticated token may call (it checks privileges itself, or needs none). */
    void add(String method, String pattern, ParamSchema schema, Endpoint endpoint) {
        add(method, pattern, Permission.anyUser(), schema, endpoint);
    }

    void add(String method, String pattern, Permission permission, ParamSchema schema, Endpoint endpoint) {
        routes.add(new Route(method, pattern.substring(1).split("/"), permission, schema, endpoint));
    }

    /** @return null when nothing matches the method and path */
    Match find(String method, List<String> segments) {
        for (Route r : routes) {
            if (!r.method.equals(method) || r.pattern.length != segments.size()) {
                continue;
            }
            Params p = Params.empty();
            boolean ok = true;
            for (int i = 0; i < r.pattern.length && ok; i++) {
                String want = r.pattern[i];
                String got = segments.get(i);
                if (want.startsWith("{")) {
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
