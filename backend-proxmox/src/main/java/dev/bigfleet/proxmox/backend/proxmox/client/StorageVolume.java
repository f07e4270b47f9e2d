package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One volume as {@code GET /nodes/{node}/storage/{storage}/content} lists it.
 *
 * @param volid the volume id, {@code local:iso/seed.iso}
 * @param content what it holds ({@code iso}, {@code images}, ...)
 * @param size its size in bytes
 */
public record StorageVolume(String volid, String content, long size) {
    static StorageVolume from(JsonNode n) {
        return new StorageVolume(Json.textOr(n, "volid", ""), Json.textOr(n, "content", ""), Json.number(n, "size", 0));
    }

    /** The file name of an {@code iso} volume ({@code seed.iso} of {@code local:iso/seed.iso}), else the volid. */
    public String fileName() {
        int slash = volid.lastIndexOf('/');
        return slash < 0 ? volid : volid.substring(slash + 1);
    }
}
