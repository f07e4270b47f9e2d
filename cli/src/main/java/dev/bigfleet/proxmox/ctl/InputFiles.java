package dev.bigfleet.proxmox.ctl;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Files named on the command line, read with errors that name the option. */
final class InputFiles {
    private InputFiles() {}

    static File readable(Path path, String option) throws IOException {
        if (!Files.isReadable(path)) {
            throw new IOException(option + ": cannot read " + path);
        }
        return path.toFile();
    }

    /** The file's bytes, or standard input's for {@code -}. */
    static byte[] read(Path path, String option, InputStream stdin) throws IOException {
        if (path.toString().equals("-")) {
            return stdin.readAllBytes();
        }
        try {
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new IOException(option + ": " + path + " does not exist", e);
        } catch (IOException e) {
            throw new IOException(option + ": cannot read " + path + ": " + e.getMessage(), e);
        }
    }
}
