package dev.bigfleet.proxmox.pvesim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves {@link PveumStub} to a script under test: {@link #install} puts a {@code pveum} on the
 * script's PATH, a few lines of bash that hand their command line to this server over a loopback
 * socket and print what it answers, with its exit status. One server answers every call of a test in
 * the test's own JVM, instead of a JVM started per call.
 *
 * <p>The exchange: the command sends its argument count and its arguments, each ended by a NUL; the
 * server answers the exit status, the standard output and the standard error, each ended by a NUL.
 */
final class PveumStubServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Path dir;
    private final int pveVersion;
    private final Thread acceptor;

    private PveumStubServer(Path dir, int pveVersion) throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.dir = dir;
        this.pveVersion = pveVersion;
        this.acceptor = new Thread(this::serve, "pveum-stub");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a server playing PVE {@code pveVersion} with its state in {@code dir}, and writes the
     * {@code pveum} command into {@code bin}.
     */
    static PveumStubServer install(Path bin, Path dir, int pveVersion) throws IOException {
        PveumStubServer server = new PveumStubServer(dir, pveVersion);
        Path command = bin.resolve("pveum");
        Files.writeString(command, """
                #!/bin/bash
                exec 3<>/dev/tcp/127.0.0.1/%d || exit 99
                printf '%%d\\0' "$#" >&3
                for arg in "$@"; do printf '%%s\\0' "$arg" >&3; done
                IFS= read -r -d '' code <&3
                IFS= read -r -d '' out <&3
                IFS= read -r -d '' err <&3
                printf '%%s' "$out"
                printf '%%s' "$err" >&2
                exit "$code"
                """.formatted(server.socket.getLocalPort()), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(command, PosixFilePermissions.fromString("rwxr-xr-x"));
        return server;
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket call = socket.accept()) {
                answer(call.getInputStream(), call.getOutputStream());
            } catch (IOException e) {
                if (socket.isClosed()) {
                    return;
                }
            }
        }
    }

    private void answer(InputStream in, OutputStream out) throws IOException {
        int count = Integer.parseInt(field(in));
        List<String> args = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            args.add(field(in));
        }
        PveumStub.Answer answer = PveumStub.call(dir, pveVersion, args);
        for (String part : List.of(String.valueOf(answer.exit()), answer.out(), answer.err())) {
            out.write(part.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        out.flush();
    }

    /** One NUL-ended field. */
    private static String field(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b != 0; b = in.read()) {
            if (b < 0) {
                throw new IOException("the pveum command hung up mid-call");
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
