package dev.bigfleet.proxmox.backend.proxmox.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small file the provider keeps using while it runs, such as a CA bundle or a token secret that
 * is rotated by a secret manager. When its value is asked for (and at most once per {@link
 * #CHECK_EVERY}) the file is read again, so any way of replacing it is seen: rewritten in place,
 * renamed over, or swapped by Kubernetes' {@code ..data} symlink (the path is followed each time).
 * New content that cannot be used (half written, empty, not what was expected) is logged once,
 * without the content, and the last good value stays in use.
 *
 * @param <T> what the content is parsed into
 */
public final class WatchedFile<T> {
    /** How often the file is looked at, at most. */
    public static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(WatchedFile.class);

    /** Turns the file's bytes into a value; an {@link IllegalArgumentException} says why it cannot. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(byte[] content);
    }

    private final Path path;
    private final String name;
    private final Parser<T> parser;
    private final LongSupplier nanoTime;
    private volatile T value;
    private volatile long nextCheck;
    private byte[] content;
    private byte[] rejected;

    private WatchedFile(Path path, String name, Parser<T> parser, LongSupplier nanoTime, byte[] content, T value) {
        this.path = path;
        this.name = name;
        this.parser = parser;
        this.nanoTime = nanoTime;
        this.content = content;
        this.value = value;
        this.nextCheck = nanoTime.getAsLong() + CHECK_EVERY.toNanos();
    }

    /**
     * Reads the file now.
     *
     * @param name how messages name it, e.g. {@code --proxmox-ca-file /etc/pve/pve-root-ca.pem}
     * @throws IllegalArgumentException when it cannot be read or parsed, naming it (never quoting it)
     */
    public static <T> WatchedFile<T> open(Path path, String name, Parser<T> parser) {
        return open(path, name, parser, System::nanoTime);
    }

    static <T> WatchedFile<T> open(Path path, String name, Parser<T> parser, LongSupplier nanoTime) {
        Objects.requireNonNull(parser, "parser");
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(name + ": cannot read: " + describe(e));
        }
        try {
            return new WatchedFile<>(path, name, parser, nanoTime, content, parser.parse(content));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    /** The value of the file's latest usable content. */
    public T current() {
        if (nanoTime.getAsLong() - nextCheck >= 0) {
            refresh();
        }
        return value;
    }

    private synchronized void refresh() {
        long now = nanoTime.getAsLong();
        if (now - nextCheck < 0) {
            return;
        }
        nextCheck = now + CHECK_EVERY.toNanos();
        byte[] read;
        try {
            read = Files.readAllBytes(path);
        } catch (IOException | RuntimeException e) {
            rejectOnce(null, "cannot read: " + describe(e));
            return;
        }
        if (Arrays.equals(read, content)) {
            rejected = null;
            return;
        }
        T parsed;
        try {
            parsed = parser.parse(read);
        } catch (IllegalArgumentException e) {
            rejectOnce(read, e.getMessage());
            return;
        }
        content = read;
        rejected = null;
        value = parsed;
        log.info("{} changed: using its new content", name);
    }

    /** Logs a content that cannot be used the first time it is seen, not on every check. */
    private void rejectOnce(byte[] seen, String why) {
        boolean same = seen == null ? rejected != null && rejected.length == 0 : Arrays.equals(seen, rejected);
        if (!same) {
            log.warn("{} changed but cannot be used ({}); keeping what it held before", name, why);
        }
        rejected = seen == null ? new byte[0] : seen;
    }

    private static String describe(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        return e.getMessage() == null
                ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    @Override
    public String toString() {
        return name;
    }
}
