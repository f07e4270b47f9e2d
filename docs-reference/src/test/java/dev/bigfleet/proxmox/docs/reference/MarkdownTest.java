package dev.bigfleet.proxmox.docs.reference;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text in a generated table cell renders as written: no cell split, no HTML tag, no emphasis. */
class MarkdownTest {
    @Test
    void plainTextEscapesWhatMarkdownWouldInterpret() {
        assertThat(Markdown.text("PATH|URL <zone>-a pve.* shard_epoch [x]"))
                .isEqualTo("PATH\\|URL &lt;zone&gt;-a pve.\\* shard\\_epoch \\[x\\]");
    }

    @Test
    void lineBreaksAndPicocliNewlinesBecomeSpaces() {
        assertThat(Markdown.text("one%ntwo\n  three")).isEqualTo("one two three");
    }

    @Test
    void aCodeSpanHoldingAPipeIsEscapedTextInstead() {
        assertThat(Markdown.code("--state")).isEqualTo("`--state`");
        assertThat(Markdown.code("table|json")).isEqualTo("table\\|json");
    }

    @Test
    void aTableRowHasOneCellPerColumn() {
        String table = new MarkdownTable("A", "B").row("1", "2").render();
        assertThat(table).isEqualTo("| A | B |\n| --- | --- |\n| 1 | 2 |\n");
    }
}
