package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An endpoint's declared permission check ({@code permissions => { check => [...] }}), run as
 * Proxmox runs it: after routing and before the parameters are validated, on the raw values
 * ({@code /vms/{newid}} takes {@code newid} from the body).
 */
@FunctionalInterface
interface Permission {
    Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)\\}");

    /** @throws ApiException 403 when the token lacks the privileges */
    void check(Acl acl, Map<String, List<String>> params);

    /** {@code user => 'all'}: any authenticated token (the handler may filter what it shows). */
    static Permission anyUser() {
        return (acl, params) -> {};
    }

    /** {@code ['perm', path, [privs]]}: every privilege. */
    static Permission perm(String path, String... privileges) {
        return (acl, params) -> acl.require(expand(path, params), privileges);
    }

    /** {@code ['perm', path, [privs], any => 1]}. */
    static Permission any(String path, String... privileges) {
        return (acl, params) -> acl.requireAny(expand(path, params), privileges);
    }

    /** {@code ['perm', path, [privs], require_param => name]}: fails when the parameter is absent. */
    static Permission permIfGiven(String param, String path, String... privileges) {
        return (acl, params) -> {
            if (!params.containsKey(param)) {
                throw Acl.denied(null);
            }
            acl.require(expand(path, params), privileges);
        };
    }

    /** {@code ['and', ...]}. */
    static Permission and(Permission... checks) {
        return (acl, params) -> {
            for (Permission c : checks) {
                c.check(acl, params);
            }
        };
    }

    /** {@code ['or', ...]}: a plain {@code Permission check failed} when none passes. */
    static Permission or(Permission... checks) {
        return (acl, params) -> {
            for (Permission c : checks) {
                try {
                    c.check(acl, params);
                    return;
                } catch (ApiException e) {
                    // try the next alternative
                }
            }
            throw Acl.denied(null);
        };
    }

    private static String expand(String template, Map<String, List<String>> params) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<String> v = params.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v == null || v.isEmpty() ? "" : v.get(v.size() - 1)));
        }
        m.appendTail(out);
        return out.toString();
    }
}
