package dev.bigfleet.proxmox.pvesim;

import java.util.Optional;

/** A {@link GuestFileSystem} over one VM's file map; used with the cluster lock held. */
final class GuestFiles implements GuestFileSystem {
    private final Vm vm;

    GuestFiles(Vm vm) {
        this.vm = vm;
    }

    @Override
    public int vmid() {
        return vm.vmid;
    }

    @Override
    public Optional<GuestFile> file(String path) {
        return Optional.ofNullable(vm.files.get(path));
    }

    @Override
    public void write(String path, byte[] content, int mode) {
        GuestFile old = vm.files.get(path);
        vm.files.put(path, new GuestFile(path, content, old != null ? old.mode() : mode));
    }

    @Override
    public boolean remove(String path) {
        return vm.files.remove(path) != null;
    }

    @Override
    public java.util.List<String> paths() {
        return java.util.List.copyOf(vm.files.keySet());
    }

    @Override
    public boolean chmod(String path, int mode) {
        GuestFile old = vm.files.get(path);
        if (old == null) {
            return false;
        }
        vm.files.put(path, new GuestFile(path, old.content(), mode & 07777));
        return true;
    }
}
