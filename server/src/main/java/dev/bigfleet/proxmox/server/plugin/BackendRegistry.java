package dev.bigfleet.proxmox.server.plugin;

import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.server.startup.ErrorMessages;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The backends this process can run: every {@link ProxmoxBackendFactory} on the class path, plus
 * those of {@code --plugin-dir}. There each jar is a plugin, and so is each subdirectory (a plugin
 * jar with the jars it depends on); each plugin gets a {@link PluginClassLoader} of its own. A plugin
 * built for an SPI version this host does not speak is refused.
 */
public final class BackendRegistry {
    /** The SPI versions this host runs plugins of. */
    public static final Set<Integer> SUPPORTED_SPI_VERSIONS = Set.of(BackendSpi.VERSION);

    static final String CLASS_PATH = "the class path";

    private final Map<String, LoadedBackend> byName;

    private BackendRegistry(Map<String, LoadedBackend> byName) {
        this.byName = byName;
    }

    /** The built-in backends and, when {@code pluginDir} is given, its plugins. */
    public static BackendRegistry discover(Optional<Path> pluginDir) throws ConfigException {
        Map<String, LoadedBackend> byName = new TreeMap<>();
        ClassLoader host = BackendRegistry.class.getClassLoader();
        for (ProxmoxBackendFactory factory : load(host, CLASS_PATH)) {
            add(byName, new LoadedBackend(factory, host, CLASS_PATH));
        }
        if (pluginDir.isPresent()) {
            for (Path plugin : plugins(pluginDir.get())) {
                PluginClassLoader loader =
                        new PluginClassLoader(plugin.getFileName().toString(), jars(plugin), host);
                for (ProxmoxBackendFactory factory : load(loader, plugin.toString())) {
                    add(byName, new LoadedBackend(factory, loader, plugin.toString()));
                }
            }
        }
        return new BackendRegistry(byName);
    }

    private static List<ProxmoxBackendFactory> load(ClassLoader loader, String origin) throws ConfigException {
        List<ProxmoxBackendFactory> factories = new ArrayList<>();
        try {
            ThreadContextClassLoader.run(loader, () -> {
                for (ProxmoxBackendFactory factory : ServiceLoader.load(ProxmoxBackendFactory.class, loader)) {
                    checkSpiVersion(factory, origin);
                    factories.add(factory);
                }
            });
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new ConfigException(
                    "--plugin-dir: backend plugin " + origin + " could not be loaded: " + ErrorMessages.rootCause(e));
        }
        return factories;
    }

    private static void checkSpiVersion(ProxmoxBackendFactory factory, String origin) throws ConfigException {
        int version;
        try {
            version = factory.spiVersion();
        } catch (AbstractMethodError e) {
            throw new ConfigException("--plugin-dir: backend plugin " + origin + " was built for a backend SPI"
                    + " without versions; this provider supports SPI version " + supported());
        }
        if (!SUPPORTED_SPI_VERSIONS.contains(version)) {
            throw new ConfigException("--plugin-dir: backend plugin " + origin + " ("
                    + factory.getClass().getName() + ") speaks backend SPI version " + version
                    + "; this provider supports version " + supported());
        }
    }

    private static String supported() {
        return String.join(
                ", ",
                SUPPORTED_SPI_VERSIONS.stream().sorted().map(String::valueOf).toList());
    }

    private static void add(Map<String, LoadedBackend> byName, LoadedBackend backend) throws ConfigException {
        LoadedBackend previous = byName.putIfAbsent(backend.name(), backend);
        if (previous != null) {
            throw new ConfigException("--plugin-dir: backend name \"" + backend.name() + "\" is claimed by both "
                    + previous.origin() + " and " + backend.origin());
        }
    }

    /** The plugins of a directory: each jar, and each subdirectory holding jars, in name order. */
    private static List<Path> plugins(Path dir) throws ConfigException {
        if (!Files.isDirectory(dir)) {
            throw new ConfigException("--plugin-dir " + dir + ": not a directory");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> Files.isDirectory(p) || isJar(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new ConfigException("--plugin-dir " + dir + ": cannot list: " + ErrorMessages.rootCause(e));
        }
    }

    private static List<URL> jars(Path plugin) throws ConfigException {
        List<URL> urls = new ArrayList<>();
        try {
            if (!Files.isDirectory(plugin)) {
                urls.add(plugin.toUri().toURL());
                return urls;
            }
            try (Stream<Path> files = Files.list(plugin)) {
                for (Path jar : files.filter(BackendRegistry::isJar).sorted().toList()) {
                    urls.add(jar.toUri().toURL());
                }
            }
        } catch (MalformedURLException e) {
            throw new ConfigException("--plugin-dir: plugin " + plugin + ": " + ErrorMessages.rootCause(e));
        } catch (IOException e) {
            throw new ConfigException(
                    "--plugin-dir: plugin " + plugin + ": cannot list: " + ErrorMessages.rootCause(e));
        }
        return urls;
    }

    private static boolean isJar(Path p) {
        return Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar");
    }

    /** Every backend found, by name. */
    public Collection<LoadedBackend> all() {
        return byName.values();
    }

    public Optional<LoadedBackend> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** @throws ConfigException naming the backends found */
    public LoadedBackend require(String name) throws ConfigException {
        LoadedBackend backend = byName.get(name);
        if (backend == null) {
            throw new ConfigException("--proxmox-backend: unknown backend \"" + name + "\" (found: "
                    + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet())) + ")");
        }
        return backend;
    }
}
