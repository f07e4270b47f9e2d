package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /access/permissions}: the token's effective privileges on one path (with {@code path})
 * or on the paths it has entries for, each privilege mapped to its propagate flag. A token may
 * always read its own. As in pve-access-control 9.1.1, {@code path} is a plain string ({@code
 * acl-path} has no format): any path, one no ACL could ever name included, answers {@code {path:
 * privileges}}, the privileges it inherits (often none).
 */
final class AccessApi {
    private final Cluster cluster;

    AccessApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                "/access/permissions",
                ParamSchema.of()
                        .string("userid", false, 0, ParamSchema.USER_ID_CHECK)
                        .string("path", false),
                this::permissions);
    }

    private Object permissions(Call c) {
        String user = c.params().str("userid");
        String self = cluster.config.token().tokenId();
        if (user != null && !user.equals(self) && !self.startsWith(user + "!")) {
            cluster.acl.require("/access", "Sys.Audit");
        }
        String path = c.params().str("path");
        Map<String, Object> out = new LinkedHashMap<>();
        Set<String> paths = new LinkedHashSet<>();
        if (path != null) {
            paths.add(path);
        } else {
            paths.add("/");
            paths.addAll(cluster.config.privileges().paths());
        }
        for (String p : paths) {
            Map<String, Integer> privs = new LinkedHashMap<>();
            cluster.acl.privileges(p).forEach(x -> privs.put(x, 1));
            if (path != null || !privs.isEmpty()) {
                out.put(p, privs);
            }
        }
        return out;
    }
}
