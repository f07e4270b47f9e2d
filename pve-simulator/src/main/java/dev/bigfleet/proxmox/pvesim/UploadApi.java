package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code POST /nodes/{node}/storage/{storage}/upload} as pve-storage's {@code upload} method
 * (PVE::API2::Storage::Status) handles it, once pveproxy has put the file into a temporary file
 * ({@link UploadForm}) and added its name as {@code tmpfilename}: the storage must be enabled on the
 * node, have a {@code path} and hold the content type; the file name is normalised (every character
 * but {@code [a-zA-Z0-9_.-]} becomes {@code _}) and an ISO image's must end in {@code .iso} or
 * {@code .img}; then an {@code imgcopy} task checks the checksum and the image (no qcow2 with a
 * backing file), and copies it into {@code <path>/template/iso/}, overwriting a file of the same name.
 * A copy that does not fit fails the task the way {@code cp} fails ({@code No space left on device})
 * and leaves no file of that name. Only ISO images are modelled.
 */
final class UploadApi {
    static final String PATH = "/nodes/{node}/storage/{storage}/upload";
    private static final List<String> CONTENT = List.of("iso", "vztmpl", "import");
    private static final List<String> CHECKSUMS = List.of("md5", "sha1", "sha224", "sha256", "sha384", "sha512");
    /** pve-storage's {@code ISO_EXT_RE_0} after a name without slashes. */
    private static final Pattern ISO_NAME = Pattern.compile("[^/]+\\.(?i:iso|img)");

    private final Cluster cluster;

    UploadApi(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Whether a request is an upload, which pveproxy reads differently (see {@link UploadForm}). */
    static boolean isUpload(String method, List<String> segments) {
        return method.equals("POST")
                && segments.size() == 5
                && segments.get(0).equals("nodes")
                && segments.get(2).equals("storage")
                && segments.get(4).equals("upload");
    }

    void register(Router r) {
        r.addUnproxied(
                "POST",
                PATH,
                Permission.perm("/storage/{storage}", "Datastore.AllocateTemplate"),
                ParamSchema.of()
                        .node("node")
                        .string("storage", true, 0, ParamSchema.STORAGE_ID_CHECK)
                        .string("content", true, 0, UploadApi::contentCheck)
                        .string("filename", true, 255, null)
                        .string("checksum", false)
                        .oneOf("checksum-algorithm", CHECKSUMS.toArray(new String[0]))
                        .requires("checksum", "checksum-algorithm")
                        .requires("checksum-algorithm", "checksum")
                        .string(
                                "tmpfilename",
                                false,
                                0,
                                v -> v.matches("/var/tmp/pveupload-[0-9a-f]+")
                                        ? null
                                        : "value does not match the regex pattern"),
                this::upload);
    }

    /** The format ({@code pve-storage-content}) first, then the enumeration. */
    private static String contentCheck(String v) {
        String format = StorageContentApi.contentCheck(v);
        if (format != null) {
            return format;
        }
        return CONTENT.contains(v)
                ? null
                : "value '" + v + "' does not have a value in the enumeration '" + String.join(", ", CONTENT) + "'";
    }

    /**
     * Takes the uploaded bytes as pveproxy does ({@code /var/tmp/pveupload-<md5>}).
     *
     * @return the temporary file's name as the handler is told it
     */
    String receive(InputStream body, String boundary, java.util.Map<String, String> fields) {
        String name;
        Path file;
        synchronized (cluster) {
            name = "/var/tmp/pveupload-" + md5(cluster.uploads.size() + ":" + System.nanoTime());
            file = cluster.storages.newFile("pveupload");
        }
        UploadForm form = UploadForm.read(body, boundary, file);
        fields.putAll(form.fields);
        synchronized (cluster) {
            cluster.uploads.put(name, form.file);
        }
        return name;
    }

    /** pve-storage's {@code normalize_content_filename}. */
    static String normalize(String filename) {
        String f = filename.endsWith("\n") ? filename.substring(0, filename.length() - 1) : filename;
        f = f.replaceAll("(?s)^.*[/\\\\]", "");
        return f.replaceAll("[^a-zA-Z0-9_.-]", "_");
    }

    private Object upload(Call c) {
        String node = c.node();
        String storage = c.params().str("storage");
        StorageSpec spec = cluster.storages.requireEnabled(storage, node);
        if (!spec.type().hasPath()) {
            throw Errors.handler("can't upload to storage type '" + spec.type().pluginType() + "'");
        }
        String content = c.params().str("content");
        String tmpfilename = c.params().str("tmpfilename");
        if (tmpfilename == null) {
            throw Errors.handler("missing temporary file name");
        }
        Path tmp = cluster.uploads.get(tmpfilename);
        if (tmp == null || !Files.exists(tmp)) {
            throw Errors.handler("temporary file '" + tmpfilename + "' does not exist");
        }
        long size = size(tmp);
        String filename = normalize(c.params().str("filename"));
        if (!content.equals("iso")) {
            throw Errors.handler("the simulator models uploads of ISO images only, not '" + content + "'");
        }
        if (!ISO_NAME.matcher(filename).matches()) {
            throw Errors.param("filename", "wrong file extension");
        }
        if (!spec.content().contains(content)) {
            throw Errors.handler("storage '" + storage + "' does not support '" + content + "' content");
        }
        Node n = cluster.nodes.get(node);
        if (n == null) {
            throw Errors.unknownNode(node);
        }
        if (!n.online) {
            // the node that took the upload cannot reach the target node over SSH
            throw Errors.handler("can't activate storage '" + storage + "' on node '" + node + "': command"
                    + " '/usr/bin/ssh -o BatchMode=yes -o HostKeyAlias=" + node
                    + " -o UserKnownHostsFile=/etc/pve/nodes/"
                    + node + "/ssh_known_hosts -o GlobalKnownHostsFile=none " + n.spec.ip()
                    + " -- /usr/sbin/pvesm status --storage " + storage + "' failed: exit code 255");
        }
        String dest = spec.type().isoPath(storage, filename);
        String checksum = c.params().str("checksum");
        String algorithm = c.params().str("checksum-algorithm");
        return cluster.startTask(TaskKind.UPLOAD, node, "", new TaskBody() {
                    @Override
                    public String finish() {
                        return copy(node, spec, filename, dest, tmpfilename, tmp, size, algorithm, checksum);
                    }

                    @Override
                    public void abort() {
                        forget(tmpfilename, tmp);
                    }
                })
                .upid
                .toString();
    }

    /** The worker: checks, then {@code cp -- TMP DEST}. */
    private String copy(
            String node,
            StorageSpec spec,
            String filename,
            String dest,
            String tmpfilename,
            Path tmp,
            long size,
            String algorithm,
            String checksum) {
        cluster.log("starting file import from: " + tmpfilename);
        try {
            if (algorithm != null) {
                String got = hash(algorithm, tmp);
                if (!got.equalsIgnoreCase(checksum)) {
                    cluster.log("calculating checksum...");
                    return "checksum mismatch: got '" + got + "' != expect '" + checksum + "'";
                }
                cluster.log("calculating checksum...OK, checksum verified");
            }
            if (hasBackingFile(tmp)) {
                return "backing file not allowed for untrusted image '" + tmpfilename + "'!";
            }
            cluster.log("target node: " + node);
            cluster.log("target file: " + dest);
            cluster.log("file size is: " + size);
            cluster.log("command: cp -- " + tmpfilename + " " + dest);
            StoragePool pool = cluster.storages.pool(spec.id(), node);
            String volname = "iso/" + filename;
            Volume old = pool.volumes.get(volname);
            if (old != null) {
                // cp truncates the old file first: whatever happens next, its bytes are gone
                cluster.storages.free(old, node);
                deleteQuietly(old.file);
            }
            if (size > pool.avail()) {
                return "import failed: cp: error writing '" + dest + "': No space left on device";
            }
            Path kept = cluster.storages.newFile(filename);
            try {
                Files.move(tmp, kept, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Volume v = cluster.storages.add(pool, volname, 0, false, null, size, size);
            v.file = kept;
            cluster.log("finished file import successfully");
            return null;
        } finally {
            forget(tmpfilename, tmp);
        }
    }

    private void forget(String tmpfilename, Path tmp) {
        cluster.uploads.remove(tmpfilename);
        deleteQuietly(tmp);
    }

    /** A qcow2 image naming a backing file: {@code qemu-img info} would report its backing-filename. */
    private static boolean hasBackingFile(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] header = in.readNBytes(16);
            if (header.length < 16
                    || header[0] != 'Q'
                    || header[1] != 'F'
                    || header[2] != 'I'
                    || (header[3] & 0xFF) != 0xFB) {
                return false;
            }
            for (int i = 8; i < 16; i++) {
                if (header[i] != 0) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String hash(String algorithm, Path file) {
        String name = switch (algorithm) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            default -> "SHA-" + algorithm.substring(3);
        };
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance(name);
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String md5(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("MD5")
                            .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the simulator's own temporary file
        }
    }
}
