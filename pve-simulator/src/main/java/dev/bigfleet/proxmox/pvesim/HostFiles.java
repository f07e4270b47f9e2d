package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The simulator's own files on its host: guest disks, boots, storage contents. */
final class HostFiles {
    private static final Logger LOG = LoggerFactory.getLogger(HostFiles.class);

    private HostFiles() {}

    /** Deletes a directory tree (overlay's work directories included), logging what it cannot. */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    // overlay's work directories are left without permissions
                    d.toFile().setReadable(true, true);
                    d.toFile().setWritable(true, true);
                    d.toFile().setExecutable(true, true);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", root, e.toString());
        }
    }
}
