package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * The Proxmox web UI the admin page links each machine's VM to: {@code --proxmox-ui-url}, by default
 * the API's host and port (the UI and {@code /api2/json} are served by the same pveproxy).
 */
record WebUi(URI root) {
    WebUi {
        Objects.requireNonNull(root, "root");
    }

    static WebUi from(BackendOptions o, URI apiRoot) {
        String flag = o.where(ProxmoxOptions.UI_URL);
        String text = o.get(ProxmoxOptions.UI_URL).map(String::trim).orElse("");
        if (text.isEmpty()) {
            return new WebUi(URI.create("https://" + apiRoot.getRawAuthority() + "/"));
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" must be https://HOST[:PORT]/");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    flag + ": \"" + text + "\" must not carry credentials, a query or a fragment");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return new WebUi(URI.create(scheme + "://" + uri.getRawAuthority() + (path.endsWith("/") ? path : path + "/")));
    }

    /**
     * The VM's summary in the UI. Its address is the UI's state token (pve-manager's StateProvider):
     * version {@code v1}, then the server view ({@code 0}), the resource {@code qemu/VMID}, the tasks
     * log tab ({@code 4}), four empty tabs, the VM's summary tab ({@code 5}) and two empty ones.
     */
    URI vmPage(long vmid) {
        return URI.create(root + "#v1:0:=qemu%2F" + vmid + ":4:::::5::");
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
