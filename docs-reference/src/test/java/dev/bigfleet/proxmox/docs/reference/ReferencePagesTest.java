package dev.bigfleet.proxmox.docs.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each committed page of {@code docs/reference} is what the code renders now. With {@code
 * -Dreference.update=true} the test rewrites the page instead.
 */
class ReferencePagesTest {
    static Stream<Named<ReferencePage>> pages() {
        return ReferencePages.all().stream().map(p -> Named.of(p.file().toString(), p));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void theCommittedPageIsWhatTheCodeRenders(ReferencePage page) throws Exception {
        Path file = RepositoryRoot.find().resolve(page.file());
        String rendered = page.render();
        if (Boolean.getBoolean("reference.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        String committed = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        assertThat(committed)
                .as(
                        "%s is not what the code renders; regenerate it with: %s",
                        page.file(), ReferencePages.REGENERATE_COMMAND)
                .isEqualTo(rendered);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void eachPageStartsWithItsTitleAndSaysItIsGenerated(ReferencePage page) throws Exception {
        String rendered = page.render();
        assertThat(rendered).startsWith("# ");
        assertThat(rendered.lines().skip(2).findFirst())
                .hasValueSatisfying(line ->
                        assertThat(line).contains("Generated from the code").contains("-Dreference.update=true"));
    }
}
