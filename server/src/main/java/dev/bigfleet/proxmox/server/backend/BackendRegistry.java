package dev.bigfleet.proxmox.server.backend;

import dev.bigfleet.proxmox.server.config.ConfigException;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The backends this process can run: every {@link ProxmoxBackendFactory} on the class path, plus
 * those in the jars of {@code --plugin-dir}.
 */
public final class BackendRegistry {
    private final Map<String, ProxmoxBackendFactory> byName;

    private BackendRegistry(Map<String, ProxmoxBackendFactory> byName) {
        this.byName = byName;
    }

    public static BackendRegistry discover(Path pluginDir) throws ConfigException {
        ClassLoader loader = pluginDir == null
                ? BackendRegistry.class.getClassLoader()
                : pluginLoader(pluginDir);
        Map<String, ProxmoxBackendFactory> byName = new TreeMap<>();
        try {
            for (ProxmoxBackendFactory factory : ServiceLoader.load(ProxmoxBackendFactory.class, loader)) {
                ProxmoxBackendFactory previous = byName.putIfAbsent(factory.name(), factory);
                if (previous != null && previous.getClass() != factory.getClass()) {
                    throw new ConfigException("backend name \"" + factory.name() + "\" is claimed by both "
                            + previous.getClass().getName() + " and " + factory.getClass().getName());
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new ConfigException("--plugin-dir: a backend plugin could not be loaded: " + e.getMessage());
        }
        return new BackendRegistry(byName);
    }

    private static ClassLoader pluginLoader(Path dir) throws ConfigException {
        if (!Files.isDirectory(dir)) {
            throw new ConfigException("--plugin-dir " + dir + ": not a directory");
        }
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path jar : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".jar")).sorted()::iterator) {
                jars.add(jar.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new ConfigException("--plugin-dir " + dir + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ConfigException("--plugin-dir " + dir + ": cannot list: " + e.getMessage());
        }
        return new URLClassLoader(jars.toArray(URL[]::new), BackendRegistry.class.getClassLoader());
    }

    public ProxmoxBackendFactory require(String name) throws ConfigException {
        ProxmoxBackendFactory factory = byName.get(name);
        if (factory == null) {
            throw new ConfigException("--proxmox-backend: unknown backend \"" + name + "\" (found: "
                    + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet())) + ")");
        }
        return factory;
    }
}
