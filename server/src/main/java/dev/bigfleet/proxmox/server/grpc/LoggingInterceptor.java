package dev.bigfleet.proxmox.server.grpc;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.MessageOrBuilder;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * One {@code rpc} line per unary call with its method, status code, duration and machine id: the
 * four lifecycle mutations at INFO, reads at DEBUG, and any call that did not end OK at WARN (the
 * reference's levels). Only the machine id is taken from the request: bodies may carry the
 * bootstrap blob.
 */
public final class LoggingInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger("rpc");
    private static final Set<String> MUTATIONS = Set.of("Create", "Configure", "Drain", "Delete");
    /** Ids over the wire limit are refused anyway; the log line stays bounded. */
    static final int MAX_LOGGED_ID = 600;

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        long start = System.nanoTime();
        String method = call.getMethodDescriptor().getBareMethodName();
        String[] machine = {""};
        ServerCall<Q, R> logged = new SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                Level level = !status.isOk() ? Level.WARN : MUTATIONS.contains(method) ? Level.INFO : Level.DEBUG;
                LoggingEventBuilder line = log.atLevel(level)
                        .addKeyValue("method", method)
                        .addKeyValue("code", CodeNames.of(status.getCode()))
                        .addKeyValue("dur_ms", ms);
                if (!machine[0].isEmpty()) {
                    line = line.addKeyValue("machine", machine[0]);
                }
                if (!status.isOk() && status.getDescription() != null) {
                    line = line.addKeyValue("err", status.getDescription());
                }
                line.log("rpc");
                super.close(status, trailers);
            }
        };
        return new SimpleForwardingServerCallListener<>(next.startCall(logged, headers)) {
            @Override
            public void onMessage(Q message) {
                machine[0] = machineId(message);
                super.onMessage(message);
            }
        };
    }

    /** The request's {@code machine_id} (mutations) or {@code id} (Get), else empty. */
    static String machineId(Object message) {
        if (!(message instanceof MessageOrBuilder m)) {
            return "";
        }
        FieldDescriptor field = m.getDescriptorForType().findFieldByName("machine_id");
        if (field == null && m.getDescriptorForType().getName().equals("MachineRef")) {
            field = m.getDescriptorForType().findFieldByName("id");
        }
        if (field == null || field.getJavaType() != FieldDescriptor.JavaType.STRING || field.isRepeated()) {
            return "";
        }
        String id = (String) m.getField(field);
        return id.length() > MAX_LOGGED_ID ? id.substring(0, MAX_LOGGED_ID) + "..." : id;
    }
}
