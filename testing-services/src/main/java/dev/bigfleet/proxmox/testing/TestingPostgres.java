package dev.bigfleet.proxmox.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests: Debian's {@code postgresql} binaries, a cluster made with
 * {@code initdb} in a temporary directory and started with {@code pg_ctl} on a free loopback port,
 * with password authentication (scram-sha-256) and, if asked, TLS. PostgreSQL refuses to run as
 * root, so as root (CI) it runs as the {@code postgres} user the package creates. Tests of one JVM
 * share one server ({@link #shared()}), each with databases of its own ({@link #createDatabase()}).
 */
public final class TestingPostgres implements AutoCloseable {
    public static final String USER = "bigfleet";

    private final Path dir;
    private final Path data;
    private final int port;
    private final String password;
    private final Path passwordFile;
    private final Optional<Path> caFile;
    /** The shared server outlives every test that uses it. */
    private volatile boolean closedByJvmExitOnly;

    private TestingPostgres(Path dir, int port, String password, Path passwordFile, Optional<Path> caFile) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.password = password;
        this.passwordFile = passwordFile;
        this.caFile = caFile;
    }

    private static TestingPostgres shared;

    /**
     * The plain server of this JVM, started by the first test that asks and stopped when the JVM
     * exits: starting a cluster takes seconds, a database of one's own on it milliseconds.
     */
    public static synchronized TestingPostgres shared() throws IOException, InterruptedException {
        if (shared == null || !shared.isRunning()) {
            shared = start(false);
            shared.closedByJvmExitOnly = true;
        }
        return shared;
    }

    /** A plain server (no TLS) on loopback, for a test that stops or breaks it. */
    public static TestingPostgres start() throws IOException, InterruptedException {
        return start(false);
    }

    /**
     * A server; with {@code tls}, a certificate for {@code localhost} and 127.0.0.1 signed by a CA
     * of its own ({@link #caFile()}), and only TLS connections accepted.
     */
    public static TestingPostgres start(boolean tls) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("test-postgres");
        String password = "pw-" + UUID.randomUUID();
        Path pwfile = dir.resolve("superuser.password");
        Files.writeString(pwfile, password + "\n", StandardCharsets.UTF_8);
        Path clientPassword = dir.resolve("client.password");
        Files.writeString(clientPassword, password + "\n", StandardCharsets.UTF_8);
        Optional<TestingCertificates> certificates =
                tls ? Optional.of(TestingCertificates.create(dir.resolve("tls"))) : Optional.empty();
        Optional<Path> ca = certificates.map(TestingCertificates::caCert);
        handToServerUser(dir);
        Path bin = binaries();
        int port = freePort();
        TestingPostgres server = new TestingPostgres(dir, port, password, clientPassword, ca);
        server.run(
                bin.resolve("initdb").toString(),
                "-D",
                server.data.toString(),
                "-U",
                USER,
                "--pwfile=" + pwfile,
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
                "--no-locale");
        List<String> options = new ArrayList<>(List.of(
                "-c listen_addresses=127.0.0.1",
                "-p " + port,
                "-c unix_socket_directories=" + dir,
                "-c max_connections=60",
                "-c shared_buffers=64MB"));
        if (tls) {
            options.add("-c ssl=on -c ssl_cert_file=" + certificates.get().serverCert() + " -c ssl_key_file="
                    + certificates.get().serverKey());
        }
        if (tls) {
            // only TLS connections, with a password
            Files.writeString(
                    server.data.resolve("pg_hba.conf"),
                    "hostssl all all 127.0.0.1/32 scram-sha-256\n",
                    StandardCharsets.UTF_8);
        }
        server.run(
                bin.resolve("pg_ctl").toString(),
                "-D",
                server.data.toString(),
                "-l",
                dir.resolve("server.log").toString(),
                "-o",
                String.join(" ", options),
                "-w",
                "-t",
                "60",
                "start");
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "testing-postgres-stop"));
        return server;
    }

    /** Creates a database and returns its name. */
    public String createDatabase() throws SQLException {
        String name = "db_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = connect("postgres");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        return name;
    }

    /** A connection as the superuser, for a test to look at or change what a database holds. */
    public Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", password);
        if (caFile.isPresent()) {
            p.setProperty("sslmode", "verify-full");
            p.setProperty("sslrootcert", caFile.get().toString());
        } else {
            p.setProperty("sslmode", "disable");
        }
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, p);
    }

    /** {@code postgresql://...} as {@code --state} takes it, without the password. */
    public String stateUrl(String database) {
        String tls = caFile.map(ca -> "sslmode=verify-full&sslrootcert=" + ca).orElse("sslmode=disable");
        return "postgresql://" + (caFile.isPresent() ? "localhost" : "127.0.0.1") + ":" + port + "/" + database
                + "?user=" + USER + "&" + tls;
    }

    /** The JDBC URL of {@code database}, with the TLS settings but no credentials. */
    public String jdbcUrl(String database) {
        String tls = caFile.map(ca -> "sslmode=verify-full&sslrootcert=" + ca).orElse("sslmode=disable");
        return "jdbc:postgresql://" + (caFile.isPresent() ? "localhost" : "127.0.0.1") + ":" + port + "/" + database
                + "?" + tls;
    }

    /** A file holding the password, for {@code --state-password-file}. */
    public Path passwordFile() {
        return passwordFile;
    }

    public String password() {
        return password;
    }

    public int port() {
        return port;
    }

    /** The CA that signed the server's certificate (TLS servers only). */
    public Path caFile() {
        return caFile.orElseThrow();
    }

    /** Whether the server is up (a test may have stopped it). */
    public boolean isRunning() {
        return Files.exists(data.resolve("postmaster.pid"));
    }

    /** Stops the server, unless it is the {@link #shared()} one: that stops when the JVM exits. */
    @Override
    public void close() {
        if (!closedByJvmExitOnly) {
            stop();
        }
    }

    /** Stops the server at once (pg_ctl -m immediate), as a crash of the database would. */
    public void stop() {
        if (!isRunning()) {
            return;
        }
        try {
            run(binaries().resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop");
        } catch (IOException | RuntimeException e) {
            // the server is gone already
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The newest installed PostgreSQL's binaries: Debian puts them in /usr/lib/postgresql/VERSION/bin. */
    private static Path binaries() throws IOException {
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Optional<Path> newest = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(
                                b -> parseVersion(b.getParent().getFileName().toString())));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        throw new IOException("PostgreSQL is not installed (apt-get install postgresql): no /usr/lib/postgresql/*/bin");
    }

    private static int parseVersion(String name) {
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** As root, the server user must own the directory: PostgreSQL runs as that user. */
    private static void handToServerUser(Path dir) throws IOException {
        if (!isRoot()) {
            return;
        }
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.toList()) {
                Files.setOwner(p, users.lookupPrincipalByName("postgres"));
            }
        }
    }

    private void run(String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(command));
        Path out = Files.createTempFile("pg-command", ".log");
        Process p = new ProcessBuilder(full)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish: " + Files.readString(out));
        }
        if (p.exitValue() != 0) {
            String log = Files.exists(dir.resolve("server.log")) ? Files.readString(dir.resolve("server.log")) : "";
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(out) + log);
        }
        Files.deleteIfExists(out);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
