package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.server.config.BackendConfigFile;
import dev.bigfleet.proxmox.server.config.NearestName;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A backend's options as the operator gave them: the {@code --backend-config} file first, then the
 * backend's flag aliases and {@code --backend-opt KEY=VALUE}, which win over the file. The server
 * does not interpret the values; it only checks that each key is one the selected backend declares.
 * No message here ever holds a value: some options are secrets.
 */
final class BackendOptionsReader {
    private static final String BACKEND_OPT = "--backend-opt";

    private final ParsedCommandLine command;
    private final Optional<BackendConfigFile> file;
    private final Map<String, String> fileValues;
    private final String fileName;
    private final Map<String, String> optValues = new LinkedHashMap<>();

    BackendOptionsReader(ParsedCommandLine command) throws ConfigException {
        this.command = command;
        ProviderFlags flags = command.flags();
        this.fileName = flags.backendConfig == null ? "" : "--backend-config " + flags.backendConfig;
        this.file = flags.backendConfig == null
                ? Optional.empty()
                : Optional.of(BackendConfigFile.read(flags.backendConfig));
        this.fileValues = file.map(BackendConfigFile::values).orElse(Map.of());
        for (String pair : flags.backendOpts) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(BACKEND_OPT + ": expected KEY=VALUE, got an argument "
                        + (eq == 0 ? "without a key" : "without '='"));
            }
            String key = pair.substring(0, eq).trim();
            if (optValues.put(key, pair.substring(eq + 1)) != null) {
                throw new ConfigException(BACKEND_OPT + " " + key + ": given twice");
            }
        }
    }

    /** What {@code backend} would get, keeping only the keys it declares; for choosing a backend. */
    BackendOptions declaredBy(LoadedBackend backend) {
        Assembly a = new Assembly();
        fileValues.forEach((k, v) -> a.putIfDeclared(backend, k, v, fileName + ": " + k));
        aliasesOf(backend)
                .forEach(s -> a.putIfDeclared(
                        backend, s.alias().option().name(), s.value(), s.alias().flag()));
        optValues.forEach((k, v) -> a.putIfDeclared(backend, k, v, BACKEND_OPT + " " + k));
        return a.options();
    }

    /**
     * The selected backend's options.
     *
     * @throws ConfigException for a {@code --backend-config} file that breaks the backend's schema, a
     *     key it does not declare, naming the nearest one it does, or a key
     *     set both by a flag and by {@code --backend-opt}
     */
    BackendOptions forSelected(LoadedBackend backend) throws ConfigException {
        if (file.isPresent()) {
            file.get().check(backend.name(), backend.options());
        }
        List<String> known = backend.options().stream().map(BackendOption::name).toList();
        for (String key : fileValues.keySet()) {
            requireDeclared(backend, known, key, fileName + ": \"" + key + "\"");
        }
        for (String key : optValues.keySet()) {
            requireDeclared(backend, known, key, BACKEND_OPT + " " + key);
        }
        for (BackendFlags.SetAlias set : aliasesOf(backend)) {
            String key = set.alias().option().name();
            if (optValues.containsKey(key)) {
                throw new ConfigException(
                        BACKEND_OPT + " " + key + ": also set by " + set.alias().flag() + "; give it once");
            }
        }
        return declaredBy(backend);
    }

    /** Flags of other backends than the selected one that were given: they have no effect. */
    List<String> ignoredFlags(LoadedBackend selected) {
        return command.aliases().stream()
                .filter(s -> !s.backendName().equals(selected.name()))
                .filter(s -> !s.alias().option().selectsBackend())
                .map(s -> s.alias().flag() + " (backend " + s.backendName() + ")")
                .toList();
    }

    private List<BackendFlags.SetAlias> aliasesOf(LoadedBackend backend) {
        return command.aliases().stream()
                .filter(s -> s.backendName().equals(backend.name()))
                .toList();
    }

    private static void requireDeclared(LoadedBackend backend, List<String> known, String key, String where)
            throws ConfigException {
        if (!known.contains(key)) {
            throw new ConfigException(where + ": backend " + backend.name() + " has no option \"" + key + "\""
                    + NearestName.hint(key, known)
                    + (known.isEmpty() ? "; it takes none" : "; its options: " + String.join(", ", known)));
        }
    }

    /** Values with where each one came from, the later source winning. */
    private static final class Assembly {
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, String> sources = new LinkedHashMap<>();

        void putIfDeclared(LoadedBackend backend, String key, String value, String source) {
            if (backend.option(key).isPresent()) {
                values.put(key, value);
                sources.put(key, source);
            }
        }

        BackendOptions options() {
            return BackendOptions.of(values, sources);
        }
    }
}
