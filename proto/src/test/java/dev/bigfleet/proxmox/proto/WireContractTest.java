package dev.bigfleet.proxmox.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.DescriptorProtos.DescriptorProto.ReservedRange;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import dev.bigfleet.proxmox.proto.v1alpha1.ProviderProto;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The compiled {@code bigfleet.v1alpha1} descriptor against the tables of the wire contract
 * ({@code wire-contract.md}, kept beside this test): services, methods, messages, field names,
 * numbers and types, reserved numbers and enum values. A change to the .proto that the contract does
 * not have fails here, so the wire cannot drift.
 */
class WireContractTest {
    private static final FileDescriptor FILE = ProviderProto.getDescriptor();

    private static String contractText() throws IOException {
        try (InputStream in = WireContractTest.class.getResourceAsStream("/wire-contract.md")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static WireContractTable contract() throws IOException {
        return WireContractTable.parse(contractText());
    }

    @Test
    void thePackageIsTheContracts() {
        assertThat(FILE.getPackage()).isEqualTo("bigfleet.v1alpha1");
    }

    @Test
    void theServiceHasExactlyTheContractsRpcs() throws IOException {
        assertThat(FILE.getServices()).extracting(ServiceDescriptor::getName).containsExactly("CapacityProvider");
        ServiceDescriptor service = FILE.findServiceByName("CapacityProvider");
        Map<String, WireContractTable.Rpc> compiled = new LinkedHashMap<>();
        for (MethodDescriptor m : service.getMethods()) {
            assertThat(m.isClientStreaming() || m.isServerStreaming())
                    .as(m.getName() + " is unary")
                    .isFalse();
            compiled.put(
                    m.getName(),
                    new WireContractTable.Rpc(
                            m.getName(),
                            m.getInputType().getName(),
                            m.getOutputType().getName()));
        }
        assertThat(compiled).isEqualTo(contract().rpcs()).hasSize(6);
    }

    @Test
    void everyEnumHasExactlyTheContractsValues() throws IOException {
        Map<String, Map<String, Integer>> compiled = new LinkedHashMap<>();
        for (EnumDescriptor e : FILE.getEnumTypes()) {
            compiled.put(
                    e.getName(),
                    e.getValues().stream()
                            .collect(Collectors.toMap(
                                    EnumValueDescriptor::getName,
                                    EnumValueDescriptor::getNumber,
                                    (a, b) -> a,
                                    LinkedHashMap::new)));
        }
        assertThat(compiled).isEqualTo(contract().enums()).containsKeys("MachineState", "CapacityType");
    }

    @Test
    void everyMessageHasExactlyTheContractsFieldsAndReservedNumbers() throws IOException {
        Map<String, WireContractTable.MessageSpec> compiled = new LinkedHashMap<>();
        for (Descriptor d : FILE.getMessageTypes()) {
            Map<String, String> fields = new LinkedHashMap<>();
            for (FieldDescriptor f : d.getFields()) {
                fields.put(f.getName(), f.getNumber() + " " + typeOf(f));
            }
            TreeSet<Integer> reserved = new TreeSet<>();
            for (ReservedRange r : d.toProto().getReservedRangeList()) {
                for (int n = r.getStart(); n < r.getEnd(); n++) {
                    reserved.add(n);
                }
            }
            compiled.put(d.getName(), new WireContractTable.MessageSpec(fields, reserved));
        }
        WireContractTable.MessageSpec machine = contract().messages().get("Machine");
        assertThat(machine.fields()).containsEntry("shard_metadata", "15 map<string,string>");
        assertThat(compiled).isEqualTo(contract().messages());
    }

    /** The copy kept here is the specification's, when the specification is at hand. */
    @Test
    void theKeptCopyIsTheSpecification() throws IOException {
        Path spec = Path.of("..", "..", "shared", "spec", "wire-contract.md");
        assumeTrue(Files.isRegularFile(spec), "the specification is not next to this checkout");
        assertThat(contractText()).isEqualTo(Files.readString(spec));
    }

    /** A field's type as the contract writes it: {@code string}, {@code repeated Machine}, {@code map<string,string>}. */
    private static String typeOf(FieldDescriptor f) {
        if (f.isMapField()) {
            Descriptor entry = f.getMessageType();
            return "map<" + scalar(entry.findFieldByName("key")) + "," + scalar(entry.findFieldByName("value")) + ">";
        }
        return (f.isRepeated() ? "repeated" : "") + scalar(f);
    }

    private static String scalar(FieldDescriptor f) {
        return switch (f.getJavaType()) {
            case MESSAGE -> f.getMessageType().getName();
            case ENUM -> f.getEnumType().getName();
            default -> f.getType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
