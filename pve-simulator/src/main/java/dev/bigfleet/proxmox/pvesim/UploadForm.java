package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An upload's {@code multipart/form-data} body read the way pveproxy reads it (pve-http-server's
 * {@code file_upload_multipart}): the form fields {@code content}, {@code checksum-algorithm} and
 * {@code checksum} (trimmed) before the file, then the file part, which must be named {@code
 * filename} and give the file's name in its {@code filename} attribute. The file's bytes run up to
 * the first closing delimiter ({@code --BOUNDARY--}), without the line break before it, and go to a
 * temporary file ({@code /var/tmp/pveupload-<md5>} on a real node). Other parts before the file are
 * not read. A body without a file part or without its closing delimiter is {@code upload failed}.
 */
final class UploadForm {
    /** The fields pveproxy takes from the form, in its order. */
    static final List<String> FIELDS = List.of("content", "checksum-algorithm", "checksum");

    private static final Pattern DISPOSITION =
            Pattern.compile("Content-Disposition: (.*?); name=\"(.*?)\"(?:; filename=\"([^\"]+)\")?");
    /** pve-http-server 6.0's line of {@code die "upload failed"} (Perl names it, without a newline). */
    private static final String UPLOAD_FAILED =
            "upload failed at /usr/share/perl5/PVE/APIServer/AnyEvent.pm line 1370.";

    final Map<String, String> fields;
    /** The file's bytes. */
    final Path file;

    private UploadForm(Map<String, String> fields, Path file) {
        this.fields = fields;
        this.file = file;
    }

    /**
     * Reads the body into {@code file}.
     *
     * @throws ApiException 500 with pveproxy's words (a plain-text body) for a body it cannot read
     */
    static UploadForm read(InputStream body, String boundary, Path file) {
        Path raw = file.resolveSibling(file.getFileName() + ".body");
        try {
            Files.copy(body, raw);
            try (FileChannel in = FileChannel.open(raw, StandardOpenOption.READ)) {
                return parse(in, boundary, file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(raw);
            } catch (IOException e) {
                // a temporary file in the simulator's own directory
            }
        }
    }

    private static UploadForm parse(FileChannel in, String boundary, Path file) throws IOException {
        byte[] delim = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        byte[] close = ("--" + boundary + "--").getBytes(StandardCharsets.ISO_8859_1);
        Map<String, String> fields = new LinkedHashMap<>();
        long pos = find(in, delim, 0);
        while (pos >= 0) {
            long afterDelim = pos + delim.length;
            long lineEnd = lineBreakEnd(in, afterDelim);
            if (lineEnd < 0) {
                break; // the closing delimiter, or garbage: no file came
            }
            long headersEnd = find(in, "\n\r\n".getBytes(StandardCharsets.ISO_8859_1), lineEnd - 1);
            long headersEndLf = find(in, "\n\n".getBytes(StandardCharsets.ISO_8859_1), lineEnd - 1);
            long end;
            long dataStart;
            if (headersEnd >= 0 && (headersEndLf < 0 || headersEnd < headersEndLf)) {
                end = headersEnd;
                dataStart = headersEnd + 3;
            } else if (headersEndLf >= 0) {
                end = headersEndLf;
                dataStart = headersEndLf + 2;
            } else {
                break;
            }
            String headers = text(in, lineEnd, end);
            Matcher m = DISPOSITION.matcher(headers);
            if (!m.find()) {
                pos = find(in, delim, dataStart);
                continue;
            }
            if (m.group(3) != null) {
                assertFormData(m.group(1));
                if (!m.group(2).equals("filename")) {
                    // a die without a newline: Perl adds where it died (pve-http-server 6.0)
                    throw Errors.httpServer(
                            500,
                            "wrong field name '" + m.group(2) + "' for file upload, expected 'filename' at"
                                    + " /usr/share/perl5/PVE/APIServer/AnyEvent.pm line 1325.");
                }
                fields.put("filename", m.group(3).strip());
                long closeAt = find(in, close, dataStart);
                if (closeAt < 0) {
                    throw Errors.httpServer(500, UPLOAD_FAILED);
                }
                long dataEnd = closeAt;
                if (dataEnd - 1 >= dataStart && byteAt(in, dataEnd - 1) == '\n') {
                    dataEnd--;
                    if (dataEnd - 1 >= dataStart && byteAt(in, dataEnd - 1) == '\r') {
                        dataEnd--;
                    }
                }
                try (FileChannel out =
                        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    long done = 0;
                    while (done < dataEnd - dataStart) {
                        done += in.transferTo(dataStart + done, dataEnd - dataStart - done, out);
                    }
                }
                return new UploadForm(fields, file);
            }
            long next = find(in, delim, dataStart);
            if (FIELDS.contains(m.group(2)) && next >= 0) {
                assertFormData(m.group(1));
                fields.put(m.group(2), text(in, dataStart, next).strip());
            }
            pos = next;
        }
        throw Errors.httpServer(500, UPLOAD_FAILED);
    }

    private static void assertFormData(String disposition) {
        if (!disposition.equals("form-data")) {
            throw Errors.httpServer(
                    500, "wrong Content-Disposition '" + disposition + "' in multipart, expected 'form-data'");
        }
    }

    /** The position after the line break ({@code \r\n} or {@code \n}) at {@code at}, or -1. */
    private static long lineBreakEnd(FileChannel in, long at) throws IOException {
        int b = byteAt(in, at);
        if (b == '\n') {
            return at + 1;
        }
        if (b == '\r' && byteAt(in, at + 1) == '\n') {
            return at + 2;
        }
        return -1;
    }

    private static int byteAt(FileChannel in, long at) throws IOException {
        if (at < 0 || at >= in.size()) {
            return -1;
        }
        ByteBuffer one = ByteBuffer.allocate(1);
        in.read(one, at);
        return one.get(0) & 0xFF;
    }

    private static String text(FileChannel in, long from, long to) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, to - from));
        while (buf.hasRemaining() && in.read(buf, from + buf.position()) > 0) {
            // reads on
        }
        return new String(buf.array(), StandardCharsets.UTF_8);
    }

    /** The first position of {@code needle} at or after {@code from}, or -1. */
    private static long find(FileChannel in, byte[] needle, long from) throws IOException {
        long size = in.size();
        int chunk = 1 << 16;
        ByteBuffer buf = ByteBuffer.allocate(chunk + needle.length);
        for (long start = Math.max(0, from); start < size; start += chunk) {
            buf.clear();
            int n = 0;
            while (buf.hasRemaining()) {
                int r = in.read(buf, start + n);
                if (r <= 0) {
                    break;
                }
                n += r;
            }
            byte[] a = buf.array();
            for (int i = 0; i + needle.length <= n && i < chunk; i++) {
                boolean match = true;
                for (int j = 0; j < needle.length && match; j++) {
                    match = a[i + j] == needle[j];
                }
                if (match) {
                    return start + i;
                }
            }
        }
        return -1;
    }
}
