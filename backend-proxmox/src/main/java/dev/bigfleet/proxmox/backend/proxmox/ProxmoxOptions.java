package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendOption;
import java.util.List;

/** The real backend's options, each with the flag that set it before backends had options of their own. */
final class ProxmoxOptions {
    static final BackendOption API_URL = BackendOption.named("api-url")
            .description("Proxmox API, https://HOST:8006/api2/json (http:// is refused).")
            .flag("--proxmox-api-url")
            .build();
    static final BackendOption UI_URL = BackendOption.named("ui-url")
            .description("Proxmox web UI the admin page links each VM to; default: the API URL's host and port.")
            .flag("--proxmox-ui-url")
            .build();
    static final BackendOption TOKEN_ID = BackendOption.named("token-id")
            .description("API token id USER@REALM!TOKENID.")
            .flag("--proxmox-token-id")
            .build();
    static final BackendOption TOKEN_SECRET = BackendOption.named("token-secret")
            .description("API token secret, inline (visible in the process list: prefer token-file).")
            .secret()
            .flag("--proxmox-token-secret")
            .build();
    static final BackendOption TOKEN_FILE = BackendOption.named("token-file")
            .description("File holding the API token secret; wins over token-secret.")
            .flag("--proxmox-token-file")
            .build();
    static final BackendOption CA_FILE = BackendOption.named("ca-file")
            .description("PEM bundle: the only trust roots for the Proxmox API, with hostname verification.")
            .flag("--proxmox-ca-file")
            .build();
    static final BackendOption TLS_FINGERPRINT = BackendOption.named("tls-fingerprint")
            .description("SHA-256 pin of the Proxmox API leaf certificate (AB:CD:... or hex).")
            .flag("--proxmox-tls-fingerprint")
            .build();
    static final BackendOption POOL = BackendOption.named("pool")
            .description("Resource pool every clone joins; discovery then only looks at VMs in it.")
            .flag("--proxmox-pool")
            .build();
    static final BackendOption BOOTSTRAP_PATH = BackendOption.named("bootstrap-path")
            .description("Guest path of the bootstrap blob.")
            .defaultValue("/run/bigfleet-bootstrap")
            .flag("--bootstrap-path")
            .build();
    static final BackendOption BOOTSTRAP_EXEC = BackendOption.named("bootstrap-exec")
            .description("Comma-separated argv of the bootstrap hook; the blob's path is appended.")
            .defaultValue("/bin/sh")
            .flag("--bootstrap-exec")
            .build();
    static final BackendOption DRAIN_EXEC = BackendOption.named("drain-exec")
            .description("Comma-separated argv of a drain hook the template ships, run instead of the built-in"
                    + " kubectl drain; the timeout in seconds (the grace period, at least 1) is appended.")
            .flag("--drain-exec")
            .build();
    static final BackendOption READY_EXEC = BackendOption.named("ready-exec")
            .description("Comma-separated argv run in the guest until it exits 0 before a Configure ends CONFIGURED"
                    + " (the node is Ready); unset: a built-in probe of the kubelet's health and the node's Ready"
                    + " condition; none: no readiness check.")
            .flag("--ready-exec")
            .build();
    static final BackendOption CLUSTER_KUBECONFIG = BackendOption.named("cluster-kubeconfig")
            .description("Comma-separated CLUSTER=PATH: the kubeconfig through which the provider reaches BigFleet"
                    + " cluster CLUSTER's Kubernetes API, to wait for a node to be Ready and to drain it there"
                    + " (for guests without guest-exec); checked at startup, read again when it changes.")
            .flag("--cluster-kubeconfig")
            .build();
    static final BackendOption CLUSTER_KUBECONFIG_DIR = BackendOption.named("cluster-kubeconfig-dir")
            .description("Directory holding one CLUSTER.kubeconfig per BigFleet cluster id (a mounted Secret works);"
                    + " files added later are read when their cluster is first asked for; --cluster-kubeconfig"
                    + " wins for the clusters it names.")
            .flag("--cluster-kubeconfig-dir")
            .build();
    static final BackendOption MAX_CLONES_PER_NODE = BackendOption.named("max-concurrent-clones-per-node")
            .description("Full clones running at once against one node; further Creates wait for a slot.")
            .defaultValue("2")
            .flag("--max-concurrent-clones-per-node")
            .build();
    static final BackendOption MEMORY_OVERCOMMIT = BackendOption.named("memory-overcommit")
            .description("VM memory a node may hold, as a ratio of its memory.")
            .defaultValue("1.0")
            .flag("--memory-overcommit")
            .build();
    static final BackendOption VMID_RANGE = BackendOption.named("vmid-range")
            .description("FROM-TO: VMIDs for clones, lowest free first; default: the cluster's next free id.")
            .flag("--vmid-range")
            .build();
    static final BackendOption CLONE_STORAGE = BackendOption.named("clone-storage")
            .description("Target storage of full clones; default: the template's.")
            .flag("--clone-storage")
            .build();
    static final BackendOption TEMPLATE_TAGS = BackendOption.named("template-tags")
            .description("Comma-separated tags: on each node, clone the one template carrying all of them"
                    + " (wins over --template-vmid; an instance type's own choice wins over both).")
            .flag("--template-tags")
            .build();
    static final BackendOption CLONE_MODE = BackendOption.named("clone-mode")
            .description("full or linked: how templates are cloned (an instance type's clone_mode wins).")
            .defaultValue("full")
            .flag("--clone-mode")
            .build();
    static final BackendOption AGENT_TIMEOUT = BackendOption.named("agent-timeout")
            .description("How long a started VM's guest agent may take to answer.")
            .defaultValue("4m")
            .flag("--agent-timeout")
            .build();

    static final List<BackendOption> ALL = List.of(
            API_URL,
            UI_URL,
            TOKEN_ID,
            TOKEN_SECRET,
            TOKEN_FILE,
            CA_FILE,
            TLS_FINGERPRINT,
            POOL,
            BOOTSTRAP_PATH,
            BOOTSTRAP_EXEC,
            DRAIN_EXEC,
            READY_EXEC,
            CLUSTER_KUBECONFIG,
            CLUSTER_KUBECONFIG_DIR,
            MAX_CLONES_PER_NODE,
            MEMORY_OVERCOMMIT,
            VMID_RANGE,
            CLONE_STORAGE,
            TEMPLATE_TAGS,
            CLONE_MODE,
            AGENT_TIMEOUT);

    private ProxmoxOptions() {}
}
