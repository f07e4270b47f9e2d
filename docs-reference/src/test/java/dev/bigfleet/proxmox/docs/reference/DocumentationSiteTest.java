package dev.bigfleet.proxmox.docs.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code mkdocs build --strict} (run by CI) does not check in the Debian release it runs:
 * that every page of {@code docs/} is in {@code mkdocs.yml}'s navigation (a page left out of it is
 * one no reader finds), and that every link of the pages and of README.md to a heading of a page
 * ({@code page.md#anchor}) names a heading that page has, as MkDocs derives its anchors.
 */
class DocumentationSiteTest {
    private static final Path ROOT = root();
    private static final Path DOCS = ROOT.resolve("docs");
    private static final Pattern NAV_PAGE =
            Pattern.compile("^\\s*- (?:[^:\\n]+: )?(\\S+\\.md)\\s*$", Pattern.MULTILINE);
    private static final Pattern FENCE = Pattern.compile("^```.*?^```$", Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

    @Test
    void everyPageIsInTheNavigationAndEveryNavigationEntryIsAPage() throws IOException {
        Set<String> nav = new TreeSet<>();
        Matcher m = NAV_PAGE.matcher(Files.readString(ROOT.resolve("mkdocs.yml")));
        while (m.find()) {
            nav.add(m.group(1));
        }
        Set<String> pages = pages().stream()
                .map(p -> DOCS.relativize(p).toString().replace('\\', '/'))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(pages).as("pages of docs/ missing from mkdocs.yml's nav").isSubsetOf(nav);
        assertThat(nav).as("mkdocs.yml's nav entries without a page in docs/").isSubsetOf(pages);
    }

    @Test
    void everyLinkToAPageOrOneOfItsHeadingsResolves() throws IOException {
        List<Path> sources = new ArrayList<>(pages());
        sources.add(ROOT.resolve("README.md"));
        List<String> broken = new ArrayList<>();
        for (Path source : sources) {
            String text = CODE.matcher(FENCE.matcher(Files.readString(source)).replaceAll(""))
                    .replaceAll("");
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:: not ours to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty()
                        ? source
                        : source.getParent().resolve(file).normalize();
                String where = ROOT.relativize(source) + " -> " + target;
                if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (hash >= 0
                        && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(where + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    private static Path root() {
        try {
            return RepositoryRoot.find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> pages() throws IOException {
        try (Stream<Path> files = Files.walk(DOCS)) {
            return files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
    }

    private static Set<String> anchors(Path page) {
        try {
            String text = FENCE.matcher(Files.readString(page)).replaceAll("");
            Set<String> anchors = new HashSet<>();
            Matcher m = HEADING.matcher(text);
            while (m.find()) {
                anchors.add(slug(m.group(1)));
            }
            return anchors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The anchor Python-Markdown's table of contents gives a heading, as MkDocs uses it. */
    static String slug(String heading) {
        String text = heading.replace("`", "").replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        text = Normalizer.normalize(text, Normalizer.Form.NFKD).replaceAll("[^\\p{ASCII}]", "");
        text = text.replaceAll("[^\\w\\s-]", "").strip().toLowerCase(java.util.Locale.ROOT);
        return text.replaceAll("[-\\s]+", "-");
    }
}
