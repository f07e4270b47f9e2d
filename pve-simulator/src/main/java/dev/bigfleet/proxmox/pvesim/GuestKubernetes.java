package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes tools of the built-in guest. {@code kubeadm join --config FILE} joins when FILE is
 * a {@code JoinConfiguration}: it writes {@code /etc/kubernetes/kubelet.conf}, as a real join does,
 * and refuses to join again while that file exists. {@code kubectl drain} succeeds. The messages
 * are the simulator's own; only what a hook can check (exit status, files) is modelled.
 */
final class GuestKubernetes {
    static final String KUBELET_CONF = "/etc/kubernetes/kubelet.conf";

    private GuestKubernetes() {}

    static GuestShell.Outcome kubeadm(GuestShell sh, List<String> args) {
        if (args.isEmpty() || !args.get(0).equals("join")) {
            return GuestShell.Outcome.of(0, "", "");
        }
        int config = args.indexOf("--config");
        if (config < 0 || config + 1 >= args.size()) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: the simulated guest joins with --config FILE only\n");
        }
        String path = args.get(config + 1);
        Optional<GuestFile> file = sh.fs.file(GuestShell.path(path));
        if (file.isEmpty()) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: open " + path + ": no such file or directory\n");
        }
        if (!file.get().text().contains("kind: JoinConfiguration")) {
            return GuestShell.Outcome.of(1, "", "kubeadm join: " + path + " holds no JoinConfiguration\n");
        }
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
