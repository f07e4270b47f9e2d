package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a VM's boot disk holds, as overlay layers over the guest image: {@code lowers} (top first,
 * read-only, the image itself below them) and, for a VM that can run, its own writable layer in
 * {@code dir}. A template has no writable layer. A linked clone shares its template's layers and
 * writes only its own; a full clone gets its own copy of every layer of its source but the image,
 * which never changes.
 */
final class GuestDisk {
    /** The template's disk: just the image. */
    static final GuestDisk IMAGE = new GuestDisk(List.of(), null);

    final List<Path> lowers;
    /** Holds {@code upper} and overlay's {@code work}; null for a template. */
    final Path dir;

    private GuestDisk(List<Path> lowers, Path dir) {
        this.lowers = List.copyOf(lowers);
        this.dir = dir;
    }

    Path upper() {
        return dir.resolve("upper");
    }

    Path work() {
        return dir.resolve("work");
    }

    /** A writable layer of its own in {@code newDir} over this disk's layers, sharing them. */
    GuestDisk linkedClone(Path newDir) {
        if (dir != null) {
            // only a template is linked-cloned: a VM's writable layer would change under the clone
            throw new IllegalStateException("a linked clone needs a template's disk");
        }
        return create(lowers, newDir);
    }

    /** Copies of every layer (the writable one included) under {@code newDir}, and a writable layer. */
    GuestDisk fullCopy(Path newDir) {
        List<Path> mine = new ArrayList<>();
        if (dir != null) {
            mine.add(upper());
        }
        mine.addAll(lowers);
        List<Path> copies = new ArrayList<>();
        try {
            Files.createDirectories(newDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = 0;
        for (Path layer : mine) {
            if (!Files.isDirectory(layer)) {
                continue;
            }
            Path copy = newDir.resolve("layer-" + i++);
            copyTree(layer, copy);
            copies.add(copy);
        }
        return create(copies, newDir);
    }

    /** A fresh writable disk with these lower layers. */
    static GuestDisk create(List<Path> lowers, Path newDir) {
        try {
            Files.createDirectories(newDir.resolve("upper"));
            Files.createDirectories(newDir.resolve("work"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new GuestDisk(lowers, newDir);
    }

    /** {@code cp -a}: owners, modes, overlay whiteouts and their attributes kept. */
    private static void copyTree(Path from, Path to) {
        try {
            Process p = new ProcessBuilder("cp", "-a", "--", from.toString(), to.toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException("copying the guest disk layer " + from + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while copying a guest disk", e);
        }
    }
}
