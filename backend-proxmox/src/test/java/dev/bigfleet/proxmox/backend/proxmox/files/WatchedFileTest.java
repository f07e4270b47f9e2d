package dev.bigfleet.proxmox.backend.proxmox.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file read again when it changes: in place, renamed over, and by a Kubernetes symlink swap. */
class WatchedFileTest {
    private final AtomicLong clock = new AtomicLong();

    private static String text(byte[] content) {
        String s = new String(content, StandardCharsets.UTF_8).trim();
        if (s.isEmpty() || s.startsWith("bad")) {
            throw new IllegalArgumentException("not usable");
        }
        return s;
    }

    private WatchedFile<String> open(Path file) {
        return WatchedFile.open(file, "--some-file " + file, WatchedFileTest::text, clock::get);
    }

    private void tick() {
        clock.addAndGet(WatchedFile.CHECK_EVERY.toNanos());
    }

    @Test
    void aRewrittenOrRenamedFileIsReadAgainAtTheNextCheck(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("value");
        Files.writeString(file, "one\n");
        WatchedFile<String> watched = open(file);
        assertThat(watched.current()).isEqualTo("one");

        Files.writeString(file, "two\n");
        assertThat(watched.current()).as("not looked at again within a second").isEqualTo("one");
        tick();
        assertThat(watched.current()).isEqualTo("two");

        Path next = dir.resolve("value.new");
        Files.writeString(next, "three");
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        tick();
        assertThat(watched.current()).isEqualTo("three");
    }

    @Test
    void aKubernetesStyleSymlinkSwapIsFollowed(@TempDir Path dir) throws Exception {
        // what the kubelet does for a mounted Secret: ..data -> ..TIMESTAMP, value -> ..data/value
        Path first = Files.createDirectory(dir.resolve("..2026_01_01_00_00_00.1"));
        Files.writeString(first.resolve("value"), "old");
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Files.createSymbolicLink(dir.resolve("value"), Path.of("..data", "value"));
        WatchedFile<String> watched = open(dir.resolve("value"));
        assertThat(watched.current()).isEqualTo("old");

        Path second = Files.createDirectory(dir.resolve("..2026_01_02_00_00_00.2"));
        Files.writeString(second.resolve("value"), "new");
        Path swap = Files.createSymbolicLink(dir.resolve("..data_tmp"), second.getFileName());
        Files.move(swap, dir.resolve("..data"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(first.resolve("value"));
        Files.delete(first);
        tick();

        assertThat(watched.current()).isEqualTo("new");
    }

    @Test
    void contentThatCannotBeUsedKeepsTheLastGoodValue(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("value");
        Files.writeString(file, "good");
        WatchedFile<String> watched = open(file);

        Files.writeString(file, "bad half-written");
        tick();
        assertThat(watched.current()).isEqualTo("good");
        Files.delete(file);
        tick();
        assertThat(watched.current()).isEqualTo("good");

        Files.writeString(file, "better");
        tick();
        assertThat(watched.current()).isEqualTo("better");
    }

    @Test
    void atStartAnUnreadableOrUnusableFileIsAnErrorNamingItWithoutItsContent(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> open(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--some-file " + missing + ": cannot read: no such file");
        Path bad = dir.resolve("bad");
        Files.writeString(bad, "bad s3cret-looking content");
        assertThatThrownBy(() -> open(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--some-file " + bad + ": not usable");
    }
}
