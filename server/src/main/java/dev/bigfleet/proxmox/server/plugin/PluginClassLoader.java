package dev.bigfleet.proxmox.server.plugin;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one plugin: its own jars first, and from the host only the packages a plugin
 * shares with it (the backend SPI, the domain it speaks and SLF4J). Its parent is the platform class
 * loader, so the JDK is visible but none of the server's libraries (Jackson, Guice, gRPC, Jetty): a
 * plugin brings what it uses, in whatever version, and two plugins may carry conflicting ones.
 */
final class PluginClassLoader extends URLClassLoader {
    /** Packages (with their subpackages) taken from the host, so plugin and server agree on their types. */
    static final List<String> SHARED_PACKAGES =
            List.of("dev.bigfleet.proxmox.spi.", "dev.bigfleet.proxmox.api.", "org.slf4j.");

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader host;

    PluginClassLoader(String name, List<URL> jars, ClassLoader host) {
        super(name, jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        this.host = host;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return host.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
        return isShared(name.replace('/', '.')) ? host.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isShared(name.replace('/', '.')) ? host.getResources(name) : super.getResources(name);
    }

    static boolean isShared(String className) {
        for (String prefix : SHARED_PACKAGES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
