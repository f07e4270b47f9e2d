package dev.bigfleet.proxmox.pvesim;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * {@code tar -x[z][v]f ARCHIVE [-C DIR] [MEMBER...]} in the built-in guest: regular files of a
 * ustar (POSIX or GNU) archive, written under DIR with their modes (as tar does for root). GNU
 * tar's messages for an archive that is not one and for a member it lacks; exit status 2.
 */
final class GuestTar {
    private static final int BLOCK = 512;

    private GuestTar() {}

    static GuestShell.Outcome run(GuestShell sh, List<String> args) {
        boolean extract = false;
        boolean gzip = false;
        boolean verbose = false;
        String archive = null;
        String dir = "/";
        List<String> members = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-C") || a.equals("--directory")) {
                if (++i >= args.size()) {
                    return usage("option requires an argument -- 'C'");
                }
                dir = args.get(i);
            } else if (a.startsWith("--directory=")) {
                dir = a.substring("--directory=".length());
            } else if (a.startsWith("-") || (i == 0 && !a.contains("/"))) {
                String flags = a.startsWith("-") ? a.substring(1) : a;
                for (int f = 0; f < flags.length(); f++) {
                    switch (flags.charAt(f)) {
                        case 'x' -> extract = true;
                        case 'z' -> gzip = true;
                        case 'v' -> verbose = true;
                        case 'f' -> {
                            if (++i >= args.size()) {
                                return usage("option requires an argument -- 'f'");
                            }
                            archive = args.get(i);
                        }
                        default -> {
                            return usage(
                                    "the simulated guest's tar knows -x, -z, -v, -f and -C only: -" + flags.charAt(f));
                        }
                    }
                }
            } else {
                members.add(a);
            }
        }
        if (!extract || archive == null) {
            return usage("the simulated guest's tar only extracts a file: tar -xf ARCHIVE");
        }
        Optional<GuestFile> file = sh.fs.file(GuestShell.path(archive));
        if (file.isEmpty()) {
            return failure("tar: " + archive + ": Cannot open: No such file or directory\n");
        }
        Map<String, GuestFile> entries;
        try {
            entries = read(gzip ? gunzip(file.get().content()) : file.get().content());
        } catch (IOException e) {
            return failure(gzip ? "gzip: stdin: not in gzip format\n" : "tar: This does not look like a tar archive\n");
        }
        StringBuilder listing = new StringBuilder();
        StringBuilder missing = new StringBuilder();
        String base = GuestShell.path(dir).endsWith("/") ? GuestShell.path(dir) : GuestShell.path(dir) + "/";
        for (String m : members) {
            if (!entries.containsKey(m)) {
                missing.append("tar: ").append(m).append(": Not found in archive\n");
            }
        }
        for (GuestFile entry : entries.values()) {
            if (members.isEmpty() || members.contains(entry.path())) {
                String target = base + entry.path();
                sh.fs.remove(target);
                sh.fs.write(target, entry.content(), entry.mode());
                listing.append(verbose ? entry.path() + "\n" : "");
            }
        }
        if (missing.length() > 0) {
            return GuestShell.Outcome.of(
                    2, listing.toString(), missing + "tar: Exiting with failure status due to previous errors\n");
        }
        return GuestShell.Outcome.of(0, listing.toString(), "");
    }

    /** Regular files by name, in archive order; anything that is not a ustar archive is an IOException. */
    static Map<String, GuestFile> read(byte[] tar) throws IOException {
        Map<String, GuestFile> files = new LinkedHashMap<>();
        int at = 0;
        boolean any = false;
        while (at + BLOCK <= tar.length) {
            if (allZero(tar, at)) {
                break;
            }
            String magic = field(tar, at + 257, 5);
            if (!magic.equals("ustar") || !checksumMatches(tar, at)) {
                throw new IOException("not a tar archive");
            }
            String name = field(tar, at, 100);
            String prefix = field(tar, at + 345, 155);
            String path = prefix.isEmpty() ? name : prefix + "/" + name;
            int mode = (int) octal(tar, at + 100, 8) & 07777;
            long size = octal(tar, at + 124, 12);
            char type = (char) tar[at + 156];
            int data = at + BLOCK;
            if (data + size > tar.length) {
                throw new IOException("truncated");
            }
            if (type == '0' || type == '\0') {
                byte[] content = new byte[(int) size];
                System.arraycopy(tar, data, content, 0, (int) size);
                String clean = path.startsWith("./") ? path.substring(2) : path;
                files.put(clean, new GuestFile(clean, content, mode));
            }
            any = true;
            at = data + (int) ((size + BLOCK - 1) / BLOCK * BLOCK);
        }
        if (!any) {
            throw new IOException("empty");
        }
        return files;
    }

    private static boolean checksumMatches(byte[] tar, int at) {
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            sum += (i >= 148 && i < 156) ? ' ' : (tar[at + i] & 0xff);
        }
        try {
            return sum == octal(tar, at + 148, 8);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean allZero(byte[] tar, int at) {
        for (int i = 0; i < BLOCK; i++) {
            if (tar[at + i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static String field(byte[] tar, int at, int length) {
        int end = at;
        while (end < at + length && tar[end] != 0) {
            end++;
        }
        return new String(tar, at, end - at, StandardCharsets.US_ASCII).trim();
    }

    private static long octal(byte[] tar, int at, int length) throws IOException {
        String s = field(tar, at, length);
        if (!s.matches("[0-7]+")) {
            throw new IOException("bad number");
        }
        return Long.parseLong(s, 8);
    }

    private static byte[] gunzip(byte[] data) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return in.readAllBytes();
        }
    }

    private static GuestShell.Outcome usage(String message) {
        return GuestShell.Outcome.of(2, "", "tar: " + message + "\n");
    }

    private static GuestShell.Outcome failure(String message) {
        return GuestShell.Outcome.of(2, "", message + "tar: Exiting with failure status due to previous errors\n");
    }
}
