package dev.bigfleet.proxmox.server.cli;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.server.config.SharedState;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code --state} and the flags that go with it: a plain path is an SQLite file, a {@code
 * postgresql://} URL a database that replicas share, with its password from a file and the leader
 * lease's timing.
 */
final class StateFlags {
    private StateFlags() {}

    static StateConfig load(ProviderFlags f) throws ConfigException {
        String state = f.state.trim();
        Duration lease = positive("--leader-lease", f.leaderLease);
        Duration renew = positive("--leader-renew", f.leaderRenew);
        if (!PostgresUrl.isPostgres(state)) {
            if (f.statePasswordFile != null) {
                throw new ConfigException("--state-password-file: only with --state postgresql://...");
            }
            return new StateConfig(state.isEmpty() ? Optional.empty() : Optional.of(Path.of(state)));
        }
        if (renew.multipliedBy(2).compareTo(lease) > 0) {
            throw new ConfigException("--leader-renew: must be at most half of --leader-lease ("
                    + GoDuration.format(lease) + "), got " + GoDuration.format(renew));
        }
        PostgresUrl.Parsed url = PostgresUrl.parse(state);
        Optional<String> password =
                f.statePasswordFile == null ? Optional.empty() : Optional.of(password(f.statePasswordFile));
        return new StateConfig(
                Optional.empty(),
                Optional.of(new SharedState(url.jdbcUrl(), url.user(), password, state, lease, renew)));
    }

    /** The file's content without its line break; never echoed. */
    private static String password(Path file) throws ConfigException {
        if (!Files.isReadable(file) || Files.isDirectory(file)) {
            throw new ConfigException("--state-password-file " + file + ": not a readable file");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ConfigException("--state-password-file " + file + ": cannot read: " + e.getMessage());
        }
        if (text.isEmpty() || text.contains("\n")) {
            throw new ConfigException("--state-password-file " + file + ": must hold the password on one line");
        }
        return text;
    }

    private static Duration positive(String flag, Duration d) throws ConfigException {
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(flag + ": must be > 0, got " + GoDuration.format(d));
        }
        return d;
    }
}
