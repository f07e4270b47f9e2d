package dev.bigfleet.proxmox.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** A handler that throws answers INTERNAL "internal error", and the server keeps serving. */
class RecoveryInterceptorTest {
    @Test
    void anExceptionInAHandlerBecomesInternalAndTheServerSurvives() throws Exception {
        CapacityProviderGrpc.CapacityProviderImplBase buggy = new CapacityProviderGrpc.CapacityProviderImplBase() {
            @Override
            public void get(MachineRef request, StreamObserver<Machine> out) {
                if (request.getId().equals("boom")) {
                    throw new IllegalStateException("bug with a secret detail");
                }
                out.onNext(Machine.newBuilder().setId(request.getId()).build());
                out.onCompleted();
            }
        };
        RecoveryInterceptor recovery = new RecoveryInterceptor();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(ServerInterceptors.intercept(buggy, recovery, new LoggingInterceptor()))
                .build()
                .start();
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext()
                .build();
        try {
            var stub = CapacityProviderGrpc.newBlockingStub(channel);
            assertThatThrownBy(
                            () -> stub.get(MachineRef.newBuilder().setId("boom").build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
                        assertThat(e.getStatus().getDescription()).isEqualTo("internal error");
                    });
            assertThat(stub.get(MachineRef.newBuilder().setId("fine").build()).getId())
                    .isEqualTo("fine");
            assertThat(recovery.recoveredCount()).isEqualTo(1);
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }
}
