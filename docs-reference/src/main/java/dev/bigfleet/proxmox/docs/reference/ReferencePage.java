package dev.bigfleet.proxmox.docs.reference;

import java.nio.file.Path;

/** One generated page of {@code docs/reference}: where it is committed and its content, rendered from the code. */
public interface ReferencePage {
    /** The committed file, relative to the repository's root. */
    Path file();

    /** The page as the code describes it now. */
    String render() throws Exception;
}
