package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which kubeconfig reaches which BigFleet cluster: {@code --cluster-kubeconfig
 * CLUSTER=PATH[,CLUSTER=PATH...]} names files one by one, {@code --cluster-kubeconfig-dir DIR}
 * holds one {@code CLUSTER.kubeconfig} per cluster (a Kubernetes Secret mounted as a volume, one key
 * per cluster, is such a directory); a file named by the first wins over the directory. Every file
 * given or present at startup is read and checked then ({@link Kubeconfig}); a mistake is an {@link
 * IllegalArgumentException} of one line naming the flag, the cluster id and the file, never its
 * content. A file added to the directory later is read when its cluster is first asked for. Each
 * file is read again when it changes ({@link WatchedFile}).
 */
public final class ClusterKubeconfigs {
    /** The name of a cluster's file in the directory: {@code <cluster id>.kubeconfig}. */
    public static final String SUFFIX = ".kubeconfig";

    /** Cluster ids that can be file names: no path separators, no leading dot. */
    private static final Pattern FILE_SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

    private final String mapFlag;
    private final String dirFlag;
    private final Map<String, WatchedFile<Kubeconfig>> named;
    private final Optional<Path> dir;
    private final Map<String, WatchedFile<Kubeconfig>> fromDir = new ConcurrentHashMap<>();

    private ClusterKubeconfigs(
            String mapFlag, String dirFlag, Map<String, WatchedFile<Kubeconfig>> named, Optional<Path> dir) {
        this.mapFlag = mapFlag;
        this.dirFlag = dirFlag;
        this.named = Collections.unmodifiableMap(new LinkedHashMap<>(named));
        this.dir = dir;
    }

    /** No kubeconfig at all: every cluster is asked for in vain. */
    public static ClusterKubeconfigs none(String mapFlag, String dirFlag) {
        return new ClusterKubeconfigs(mapFlag, dirFlag, Map.of(), Optional.empty());
    }

    /**
     * Reads and checks the options' values.
     *
     * @param map the value of {@code --cluster-kubeconfig}: {@code CLUSTER=PATH} pairs, comma-separated
     * @param mapFlag how messages name it (the flag or config entry that set it)
     * @param directory the value of {@code --cluster-kubeconfig-dir}
     * @param dirFlag how messages name that one
     * @throws IllegalArgumentException one line naming the flag, the cluster and the file
     */
    public static ClusterKubeconfigs parse(
            Optional<String> map, String mapFlag, Optional<String> directory, String dirFlag) {
        Map<String, WatchedFile<Kubeconfig>> named = new LinkedHashMap<>();
        for (String entry : map.orElse("").split(",", -1)) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(mapFlag + ": \"" + entry.trim()
                        + "\" must be CLUSTER=PATH (the BigFleet cluster id, '=', the" + " kubeconfig's path)");
            }
            String cluster = entry.substring(0, eq).trim();
            String file = entry.substring(eq + 1).trim();
            if (cluster.isEmpty() || file.isEmpty()) {
                throw new IllegalArgumentException(
                        mapFlag + ": \"" + entry.trim() + "\" must be CLUSTER=PATH, both parts non-empty");
            }
            if (named.containsKey(cluster)) {
                throw new IllegalArgumentException(mapFlag + " " + cluster + ": given twice");
            }
            named.put(cluster, open(mapFlag + " " + cluster + "=" + file, Path.of(file)));
        }
        Optional<Path> dir =
                directory.map(String::trim).filter(s -> !s.isEmpty()).map(Path::of);
        ClusterKubeconfigs kubeconfigs = new ClusterKubeconfigs(mapFlag, dirFlag, named, dir);
        if (dir.isPresent()) {
            kubeconfigs.checkDirectory(dir.get());
        }
        return kubeconfigs;
    }

    /** Reads every {@code CLUSTER.kubeconfig} the directory holds now. */
    private void checkDirectory(Path d) {
        if (!Files.isDirectory(d)) {
            throw new IllegalArgumentException(dirFlag + " " + d + ": not a directory");
        }
        List<String> clusters = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(d, "*" + SUFFIX)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                String cluster = name.substring(0, name.length() - SUFFIX.length());
                if (FILE_SAFE_ID.matcher(cluster).matches() && !named.containsKey(cluster)) {
                    clusters.add(cluster);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(dirFlag + " " + d + ": cannot list: " + e.getMessage());
        }
        for (String cluster : clusters) {
            fromDir.put(cluster, openInDirectory(d, cluster));
        }
    }

    private WatchedFile<Kubeconfig> openInDirectory(Path d, String cluster) {
        Path file = d.resolve(cluster + SUFFIX);
        return open(dirFlag + " " + file, file);
    }

    /**
     * @param name how messages and log lines name the file: what the operator typed, e.g. {@code
     *     --cluster-kubeconfig prod-1=/etc/bigfleet/prod-1.yaml}
     */
    private static WatchedFile<Kubeconfig> open(String name, Path file) {
        return WatchedFile.open(file, name, bytes -> Kubeconfig.parse(file, bytes));
    }

    /** The kubeconfig of {@code clusterId}, when one is configured. */
    Optional<WatchedFile<Kubeconfig>> find(String clusterId) {
        WatchedFile<Kubeconfig> file = named.get(clusterId);
        if (file != null) {
            return Optional.of(file);
        }
        if (dir.isEmpty() || !FILE_SAFE_ID.matcher(clusterId).matches()) {
            return Optional.empty();
        }
        WatchedFile<Kubeconfig> known = fromDir.get(clusterId);
        if (known != null) {
            return Optional.of(known);
        }
        if (!Files.exists(dir.get().resolve(clusterId + SUFFIX))) {
            return Optional.empty();
        }
        // a cluster added to the directory since startup
        return Optional.of(fromDir.computeIfAbsent(clusterId, c -> openInDirectory(dir.get(), c)));
    }

    /** Whether any kubeconfig may be found (some named, or a directory). */
    public boolean isEmpty() {
        return named.isEmpty() && dir.isEmpty();
    }

    /** The cluster ids known now: those named and those whose file is in the directory. */
    public List<String> clusters() {
        List<String> all = new ArrayList<>(named.keySet());
        fromDir.keySet().stream().filter(c -> !all.contains(c)).sorted().forEach(all::add);
        return all;
    }

    /** How an operator gives {@code clusterId} a kubeconfig: the message of a cluster without one. */
    String missing(String clusterId) {
        return "no kubeconfig for cluster " + clusterId + ": give one with " + mapFlag + " " + clusterId + "=PATH"
                + dir.map(d -> " or as " + d.resolve(clusterId + SUFFIX) + " (" + dirFlag + ")")
                        .orElse(" or put " + clusterId + SUFFIX + " in the directory of " + dirFlag);
    }

    @Override
    public String toString() {
        return "kubeconfigs=" + (clusters().isEmpty() ? "none" : String.join(",", clusters()))
                + dir.map(d -> " (dir " + d + ")").orElse("");
    }
}
