package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes tools of the built-in guest. {@code kubeadm join} joins with {@code --config FILE}
 * when FILE is a {@code JoinConfiguration}, or with an API server endpoint and {@code --token}: it
 * writes {@code /etc/kubernetes/kubelet.conf}, as a real join does, and refuses to join again while
 * that file exists. {@code kubectl drain} succeeds. The messages are the simulator's own; only what
 * a hook can check (exit status, files) is modelled.
 */
final class GuestKubernetes {
    static final String KUBELET_CONF = "/etc/kubernetes/kubelet.conf";

    private GuestKubernetes() {}

    static GuestShell.Outcome kubeadm(GuestShell sh, List<String> args) {
        if (args.isEmpty() || !args.get(0).equals("join")) {
            return GuestShell.Outcome.of(0, "", "");
        }
        int config = args.indexOf("--config");
        if (config < 0) {
            boolean endpoint = args.size() > 1 && !args.get(1).startsWith("-");
            if (!endpoint || !args.contains("--token")) {
                return GuestShell.Outcome.of(
                        1, "", "kubeadm join: give an API server endpoint and --token, or --config FILE\n");
            }
            return joined(sh);
        }
        if (config + 1 >= args.size()) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: --config needs a file\n");
        }
        String path = args.get(config + 1);
        Optional<GuestFile> file = sh.fs.file(GuestShell.path(path));
        if (file.isEmpty()) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: open " + path + ": no such file or directory\n");
        }
        if (!file.get().text().contains("kind: JoinConfiguration")) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: " + path + " holds no JoinConfiguration\n");
        }
        return joined(sh);
    }

    private static GuestShell.Outcome joined(GuestShell sh) {
        if (sh.fs.file(KUBELET_CONF).isPresent()) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: " + KUBELET_CONF + " already exists\n");
        }
        sh.fs.write(
                KUBELET_CONF, "apiVersion: v1\nkind: Config\n".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0600);
        return GuestShell.Outcome.of(0, "This node has joined the cluster.\n", "");
    }

    static GuestShell.Outcome kubectl(GuestShell sh, List<String> args) {
        int drain = args.indexOf("drain");
        if (drain < 0) {
            return GuestShell.Outcome.of(0, "", "");
        }
        String node = drain + 1 < args.size() && !args.get(drain + 1).startsWith("-")
                ? args.get(drain + 1)
                : "vm-" + sh.fs.vmid();
        return GuestShell.Outcome.of(0, "node/" + node + " cordoned\nnode/" + node + " drained\n", "");
    }
}
