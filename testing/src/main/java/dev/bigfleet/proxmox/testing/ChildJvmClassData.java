package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.server.ClassDataTraining;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A class-data archive (AppCDS) for the JVMs tests start on this JVM's class path: providers a test
 * kills and restarts, suites run in a JVM of their own. A JVM started with it maps the classes a
 * provider loads instead of reading and verifying them again, which halves the CPU a start takes;
 * dozens of such starts run in the suite. The archive is recorded once per class path (the
 * training run of {@code bin/proxmox}'s own archive, {@link ClassDataTraining}), by whichever test
 * JVM needs it first while the others wait on a file lock, and is named after the class path and
 * each of its entries' size and time, so a rebuilt jar never meets an archive of the old one. When
 * it cannot be recorded, children start without it, as before.
 */
public final class ChildJvmClassData {
    /** The options every such child is started with, besides the archive's: it lives minutes, so C1 and the serial collector cost the least CPU. */
    public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final long TRAINING_MINUTES = 3;
    private static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "bigfleet-child-jvm-cds");
    private static volatile List<String> options;
    private static volatile String classPath;

    private ChildJvmClassData() {}

    /**
     * The JVM options that use the archive for this class path (recording it first if no JVM has),
     * or none when it cannot be had. CDS's own messages are switched off, so a child's output is
     * what the child writes.
     */
    public static synchronized List<String> options() {
        if (options == null) {
            options = archive()
                    .map(a -> List.of("-XX:SharedArchiveFile=" + a, "-Xlog:cds*=off"))
                    .orElse(List.of());
        }
        return options;
    }

    /**
     * This JVM's class path with each non-empty directory (a module's {@code target/classes}) replaced
     * by a jar of it, as class-data archives take jars only. Children are started on it, with or
     * without the archive.
     */
    public static synchronized String classPath() {
        if (classPath == null) {
            classPath = jarsOnly(System.getProperty("java.class.path"));
        }
        return classPath;
    }

    private static String jarsOnly(String original) {
        List<String> entries = new ArrayList<>();
        try {
            for (String entry : original.split(File.pathSeparator, -1)) {
                Path p = Path.of(entry);
                entries.add(Files.isDirectory(p) && !isEmpty(p) ? jarOf(p).toString() : entry);
            }
        } catch (IOException | RuntimeException e) {
            return original;
        }
        return String.join(File.pathSeparator, entries);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /** A jar of a class directory, named after its path and every file's name, size and time. */
    private static Path jarOf(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        StringBuilder what = new StringBuilder(dir.toAbsolutePath().toString());
        for (Path f : files) {
            what.append('\n')
                    .append(dir.relativize(f))
                    .append(' ')
                    .append(Files.size(f))
                    .append(' ')
                    .append(Files.getLastModifiedTime(f).toMillis());
        }
        Path jars = DIR.resolve("jars");
        Files.createDirectories(jars);
        Path jar = jars.resolve(digest(what.toString()) + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        Path partial = Files.createTempFile(jars, "partial", ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial))) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return jar;
    }

    private static Optional<Path> archive() {
        String classPath = classPath();
        Path dir = DIR;
        try {
            Files.createDirectories(dir);
            String key = key(classPath);
            Path archive = dir.resolve(key + ".jsa");
            if (Files.isRegularFile(archive)) {
                return Optional.of(archive);
            }
            try (FileChannel lockFile = FileChannel.open(
                            dir.resolve(key + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = lockFile.lock()) {
                if (!lock.isValid()) {
                    return Optional.empty();
                }
                if (Files.isRegularFile(archive)) {
                    return Optional.of(archive);
                }
                Path recording = dir.resolve(key + ".jsa.recording");
                Files.deleteIfExists(recording);
                List<String> command = new ArrayList<>();
                command.add(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(QUICK_START);
                command.add("-XX:ArchiveClassesAtExit=" + recording);
                command.add("-Xlog:cds*=off");
                command.add("-cp");
                command.add(classPath);
                command.add(ClassDataTraining.class.getName());
                Process training = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!training.waitFor(TRAINING_MINUTES, TimeUnit.MINUTES)) {
                    training.destroyForcibly();
                    return Optional.empty();
                }
                if (training.exitValue() != 0 || !Files.isRegularFile(recording)) {
                    return Optional.empty();
                }
                Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
                return Optional.of(archive);
            }
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The class path, the JVM, and each entry's size and time. */
    private static String key(String classPath) {
        StringBuilder what = new StringBuilder(System.getProperty("java.home"))
                .append('\n')
                .append(System.getProperty("java.vm.version"))
                .append('\n')
                .append(classPath);
        for (String entry : classPath.split(File.pathSeparator, -1)) {
            File f = new File(entry);
            what.append('\n').append(f.length()).append(' ').append(f.lastModified());
        }
        return digest(what.toString());
    }

    private static String digest(String what) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(what.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
