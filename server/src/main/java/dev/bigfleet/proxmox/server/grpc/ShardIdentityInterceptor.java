package dev.bigfleet.proxmox.server.grpc;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.server.config.GrpcConfig;
import dev.bigfleet.proxmox.server.metrics.Families;
import dev.bigfleet.proxmox.server.metrics.SeriesRegistry;
import dev.bigfleet.proxmox.server.tls.CertificateLabel;
import dev.bigfleet.proxmox.server.tls.ClientIdentity;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import jakarta.inject.Inject;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Under mTLS ({@code --tls-ca}), binds a lifecycle call's fence token to the client certificate
 * ({@link ShardBinding}): a call whose certificate may not send its token is answered
 * PERMISSION_DENIED before the engine sees it, so no fence mark moves and nothing changes; it is
 * counted by reason and logged in one WARN line naming the certificate (subject, {@code bigfleet://}
 * URIs, serial, SHA-256 fingerprint), the token's shard, the method and the machine. Reads, health
 * and reflection pass untouched. Made only under mTLS, once, by the server's wiring (not a Guice
 * singleton, which the production stage would make, and export the metric, without mTLS too):
 * without client certificates there is no identity to bind.
 */
public final class ShardIdentityInterceptor implements ServerInterceptor {
    private static final Logger log = LoggerFactory.getLogger(ShardIdentityInterceptor.class);
    private static final Set<String> MUTATIONS = Set.of(
            CapacityProviderGrpc.getCreateMethod().getFullMethodName(),
            CapacityProviderGrpc.getConfigureMethod().getFullMethodName(),
            CapacityProviderGrpc.getDrainMethod().getFullMethodName(),
            CapacityProviderGrpc.getDeleteMethod().getFullMethodName());

    private final ShardBinding binding;
    private final SeriesRegistry registry;

    @Inject
    public ShardIdentityInterceptor(GrpcConfig config, SeriesRegistry registry) {
        this.binding = new ShardBinding(config.unnamedClients());
        this.registry = registry;
        // every reason from the start, so a rate or an alert on any of them has a series to read
        for (IdentityRefusal.Reason reason : IdentityRefusal.Reason.values()) {
            registry.counter(Families.IDENTITY_REFUSALS, reason.label());
        }
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (!MUTATIONS.contains(call.getMethodDescriptor().getFullMethodName())) {
            return next.startCall(call, headers);
        }
        Optional<X509Certificate> certificate = clientCertificate(call);
        ClientIdentity client = certificate.map(ClientIdentity::of).orElse(ClientIdentity.NONE);
        return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                String tokenShard = tokenShard(message);
                Optional<IdentityRefusal> refusal = binding.refusal(client, tokenShard);
                if (refusal.isEmpty()) {
                    super.onMessage(message);
                    return;
                }
                refused = true;
                refuse(call, message, tokenShard, client, certificate, refusal.get());
            }

            @Override
            public void onHalfClose() {
                // a refused call never reaches the handler, which would find no request
                if (!refused) {
                    super.onHalfClose();
                }
            }
        };
    }

    private void refuse(
            ServerCall<?, ?> call,
            Object message,
            String tokenShard,
            ClientIdentity client,
            Optional<X509Certificate> certificate,
            IdentityRefusal refusal) {
        registry.counter(Families.IDENTITY_REFUSALS, refusal.reason().label()).inc();
        Optional<CertificateLabel> label = certificate.map(CertificateLabel::of);
        log.atWarn()
                .addKeyValue("method", call.getMethodDescriptor().getBareMethodName())
                .addKeyValue("machine", LoggingInterceptor.machineId(message))
                .addKeyValue("token_shard", ShardBinding.bounded(tokenShard))
                .addKeyValue("reason", refusal.reason().label())
                .addKeyValue("cert_identity", ShardBinding.bounded(client.describe()))
                .addKeyValue(
                        "cert_subject",
                        label.map(l -> ShardBinding.bounded(l.subject())).orElse("none"))
                .addKeyValue("cert_serial", label.map(CertificateLabel::serial).orElse("none"))
                .addKeyValue("cert_sha256", label.map(CertificateLabel::sha256).orElse("none"))
                .log("mutation refused: the client certificate may not send this fence token");
        call.close(Status.PERMISSION_DENIED.withDescription(refusal.description()), new Metadata());
    }

    /** The verified leaf certificate the client presented, if the connection is TLS and it did. */
    private static Optional<X509Certificate> clientCertificate(ServerCall<?, ?> call) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        if (session == null) {
            return Optional.empty();
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? Optional.of(leaf) : Optional.empty();
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty();
        }
    }

    /** The {@code shard_id} of a lifecycle request's fence token. */
    private static String tokenShard(Object message) {
        if (message instanceof CreateRequest r) {
            return r.getShardId();
        }
        if (message instanceof ConfigureRequest r) {
            return r.getShardId();
        }
        if (message instanceof DrainRequest r) {
            return r.getShardId();
        }
        if (message instanceof DeleteRequest r) {
            return r.getShardId();
        }
        throw new IllegalArgumentException(
                "not a lifecycle request: " + message.getClass().getName());
    }
}
