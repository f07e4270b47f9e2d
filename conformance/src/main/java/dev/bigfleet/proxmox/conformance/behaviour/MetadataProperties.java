package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.RequiresCoreTarget;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/** Metadata property B1202: random valid-UTF-8 maps round-trip byte for byte. */
@AddLifecycleHook(RequiresCoreTarget.class)
class MetadataProperties {

    /**
     * Unicode scalar values (never a lone surrogate, so always valid UTF-8), weighted toward
     * ASCII but with plenty of control bytes, NUL, BMP and supplementary characters.
     */
    private static Arbitrary<String> unicodeStrings(int minLength, int maxLength) {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.integers().between(0x20, 0x7e)),
                Tuple.of(2, Arbitraries.integers().between(0x00, 0x1f)),
                Tuple.of(1, Arbitraries.of(0x7f, 0x00, 0x85, 0xa0, 0xfeff, 0xfffd, 0xfffe, 0xffff)),
                Tuple.of(2, Arbitraries.integers().between(0x80, 0xd7ff)),
                Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
                Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
        return codePoint.list().ofMinSize(minLength).ofMaxSize(maxLength).map(cps -> {
            StringBuilder sb = new StringBuilder();
            cps.forEach(sb::appendCodePoint);
            return sb.toString();
        });
    }

    @Provide
    Arbitrary<Map<String, String>> metadataMaps() {
        return Arbitraries.maps(unicodeStrings(1, 24), unicodeStrings(0, 48)).ofMaxSize(16);
    }

    @Property(tries = 25)
    @Label(
            "B1202 for seeded random valid-UTF-8 metadata maps, every Configure round-trips byte-for-byte on the next Get")
    void metadataRoundTrips(@ForAll("metadataMaps") Map<String, String> metadata) {
        ProviderClient client = ProviderClient.of(Profile.CORE);
        String id = Steps.idleMachine(client);
        try {
            TransitionAck ack = Expect.ok(client.tryConfigure(Requests.configure(id, "b1202", metadata)), "Configure");
            Metadata.assertVerbatim(metadata, ack.getMachine().getShardMetadataMap(), "Configure ack");
            Metadata.assertVerbatim(metadata, client.get(id).getShardMetadataMap(), "next Get");
            Metadata.assertVerbatim(
                    metadata, Await.state(client, id, CONFIGURED).getShardMetadataMap(), "Get once CONFIGURED");
        } finally {
            Await.settled(client, id); // leave nothing in flight, whatever failed
        }
    }
}
