package dev.bigfleet.proxmox.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.serving.ServingState;
import io.grpc.protobuf.services.HealthStatusManager;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A failure no resource expected, over real HTTP: a JSON 500 in the one error shape under {@code
 * /api/}, a plain one elsewhere; its cause goes to the log, never into the answer.
 */
class UnexpectedFailureTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CAUSE = "the cause, for the log only";

    /** Resources that fail as a bug would. */
    @SuppressWarnings("DoNotCallSuggester") // Jersey calls them, to fail
    @Path("/")
    public static final class Failing {
        @GET
        @Path("api/v1/broken")
        @Produces(MediaType.APPLICATION_JSON)
        public String api() {
            throw new IllegalStateException(CAUSE);
        }

        @GET
        @Path("broken")
        @Produces(MediaType.TEXT_PLAIN)
        public String page() {
            throw new IllegalStateException(CAUSE);
        }
    }

    private HttpServer server;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger mapperLogger = (Logger) LoggerFactory.getLogger(ErrorMapper.class);

    @BeforeEach
    void start() throws Exception {
        log.start();
        mapperLogger.addAppender(log);
        ServingState serving = new ServingState(new HealthStatusManager());
        server = new HttpServer(
                new ListenAddress("127.0.0.1", 0), HttpResources.create(serving, r -> r.register(Failing.class)));
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        mapperLogger.detachAppender(log);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void underApiItIsAJson500InTheErrorShape() throws Exception {
        HttpResponse<String> r = get("/api/v1/broken");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode error = JSON.readTree(r.body());
        assertThat(error.size()).isEqualTo(2);
        assertThat(error.get("status").asInt()).isEqualTo(500);
        assertThat(error.get("error").asText()).isEqualTo("internal server error");
        assertThat(r.body()).doesNotContain(CAUSE).doesNotContain("Exception");
        assertThat(log.list).anySatisfy(event -> {
            assertThat(event.getFormattedMessage()).isEqualTo("GET /api/v1/broken: unexpected failure");
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo(CAUSE);
        });
    }

    @Test
    void elsewhereItIsAPlain500() throws Exception {
        HttpResponse<String> r = get("/broken");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(r.body()).isEqualTo("internal error\n");
        assertThat(log.list)
                .anySatisfy(event ->
                        assertThat(event.getThrowableProxy().getMessage()).isEqualTo(CAUSE));
    }
}
