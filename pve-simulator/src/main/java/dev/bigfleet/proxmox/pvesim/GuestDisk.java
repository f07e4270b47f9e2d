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

    /** A template's disk of its own files ({@code layer}) over the image. */
    static GuestDisk template(Path layer) {
        return new GuestDisk(List.of(layer), null);
    }

    /**
     * Whether cloud-init has run on this disk ({@code /var/lib/cloud/instance} is there): the
     * topmost layer that has the entry decides, as in the overlay (a deleted one is a whiteout).
     */
    boolean holdsCloudInitState() {
        List<Path> layers = new ArrayList<>();
        if (dir != null) {
            layers.add(upper());
        }
        layers.addAll(lowers);
        for (Path layer : layers) {
            Path p = layer.resolve("var/lib/cloud/instance");
            if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return Files.isSymbolicLink(p);
            }
        }
        return false;
    }

    /** The VM's own qcow2 disk (the real-VM lane). */
    Path qcow2() {
        return dir.resolve("disk.qcow2");
    }

    /** A qcow2 overlay of {@code base} in {@code newDir}: writes stay in it, reads fall through. */
    static GuestDisk qcowLinked(Path base, Path newDir) {
        GuestDisk d = create(List.of(), newDir);
        run(
                "qemu-img",
                "create",
                "-q",
                "-f",
                "qcow2",
                "-F",
                "qcow2",
                "-b",
                base.toString(),
                d.qcow2().toString());
        return d;
    }

    /** A qcow2 copy of {@code source} (its backing files merged in) in {@code newDir}. */
    static GuestDisk qcowCopy(Path source, Path newDir) {
        GuestDisk d = create(List.of(), newDir);
        run("qemu-img", "convert", "-O", "qcow2", source.toString(), d.qcow2().toString());
        return d;
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
        run("cp", "-a", "--", from.toString(), to.toString());
    }

    private static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making a guest disk", e);
        }
    }
}
