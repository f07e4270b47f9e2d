package dev.bigfleet.proxmox.pvesim;

import java.util.Optional;

/** The files of one simulated guest, as a {@link GuestCommandHandler} sees them. */
public interface GuestFileSystem {

    int vmid();

    Optional<GuestFile> file(String path);

    /** Creates (with {@code mode}) or overwrites (keeping the existing mode) a file. */
    void write(String path, byte[] content, int mode);

    /** @return whether the file existed */
    boolean remove(String path);

    /** @return whether the file exists */
    boolean chmod(String path, int mode);

    /** Every file's path, in order. */
    java.util.List<String> paths();
}
