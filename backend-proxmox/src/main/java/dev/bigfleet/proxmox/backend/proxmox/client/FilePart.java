package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Objects;

/**
 * A file sent in a {@code multipart/form-data} body, as {@code POST .../storage/{storage}/upload}
 * takes it: the form field it is sent in, the file name the form gives, and its bytes. The content
 * may be a secret (a cloud-init seed holds the bootstrap blob): {@link #toString()} never shows it.
 */
public final class FilePart {
    private final String field;
    private final String filename;
    private final byte[] content;

    public FilePart(String field, String filename, byte[] content) {
        this.field = Objects.requireNonNull(field, "field");
        this.filename = Objects.requireNonNull(filename, "filename");
        this.content = content.clone();
    }

    public String field() {
        return field;
    }

    public String filename() {
        return filename;
    }

    public byte[] content() {
        return content.clone();
    }

    @Override
    public String toString() {
        return "FilePart[field=" + field + ", filename=" + filename + ", <" + content.length + " bytes>]";
    }
}
