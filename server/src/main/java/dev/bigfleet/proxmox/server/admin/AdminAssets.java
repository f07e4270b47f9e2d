package dev.bigfleet.proxmox.server.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The admin page's files, read from the {@code admin-ui} jar on the class path. Only plain file
 * names with a known extension are looked up, so no request can walk out of the folder.
 */
final class AdminAssets {
    static final String FOLDER = "bigfleet-admin-ui/";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(html|css|js|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml");

    /** A file's bytes and content type. */
    // a static file's bytes; assets are never compared
    @SuppressWarnings("ArrayRecordComponent")
    record Asset(byte[] bytes, String contentType) {}

    private final Map<String, Optional<Asset>> cache = new ConcurrentHashMap<>();

    Optional<Asset> get(String name) {
        if (!NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return cache.computeIfAbsent(name, AdminAssets::load);
    }

    private static Optional<Asset> load(String name) {
        try (InputStream in = AdminAssets.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                return Optional.empty();
            }
            String ext = name.substring(name.lastIndexOf('.') + 1);
            return Optional.of(new Asset(in.readAllBytes(), TYPES.get(ext)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
