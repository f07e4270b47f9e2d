package dev.bigfleet.proxmox.server.plugin;

import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** Writes a one-class plugin jar from a factory compiled with this module's tests. */
final class PluginJar {
    private PluginJar() {}

    /** A jar at {@code jar} holding {@code factory}'s class file and the service file naming it. */
    static Path write(Path jar, Class<? extends ProxmoxBackendFactory> factory) throws IOException {
        Files.createDirectories(jar.getParent());
        String classFile = factory.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream bytes = factory.getClassLoader().getResourceAsStream(classFile)) {
            if (bytes == null) {
                throw new IOException("no class file " + classFile);
            }
            out.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(out);
            out.closeEntry();
            out.putNextEntry(new JarEntry("META-INF/services/" + ProxmoxBackendFactory.class.getName()));
            out.write((factory.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
