package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The x86_64 CPU models qemu-server offers ({@code GET /nodes/{node}/capabilities/qemu/cpu}): the
 * QEMU models with their vendors, {@code host}, and the abstract {@code x86-64-v*} profiles.
 */
final class CpuModels {
    private static final Map<String, String> MODELS = new LinkedHashMap<>();
    static final List<String> ABSTRACT = List.of("x86-64-v2", "x86-64-v2-AES", "x86-64-v3", "x86-64-v4");

    static {
        for (String m : List.of(
                "486",
                "pentium",
                "pentium2",
                "pentium3",
                "coreduo",
                "core2duo",
                "Conroe",
                "Penryn",
                "Nehalem",
                "Nehalem-IBRS",
                "Westmere",
                "Westmere-IBRS",
                "SandyBridge",
                "SandyBridge-IBRS",
                "IvyBridge",
                "IvyBridge-IBRS",
                "Haswell",
                "Haswell-IBRS",
                "Haswell-noTSX",
                "Haswell-noTSX-IBRS",
                "Broadwell",
                "Broadwell-IBRS",
                "Broadwell-noTSX",
                "Broadwell-noTSX-IBRS",
                "Skylake-Client",
                "Skylake-Client-IBRS",
                "Skylake-Client-noTSX-IBRS",
                "Skylake-Client-v4",
                "Skylake-Server",
                "Skylake-Server-IBRS",
                "Skylake-Server-noTSX-IBRS",
                "Skylake-Server-v4",
                "Skylake-Server-v5",
                "Cascadelake-Server",
                "Cascadelake-Server-v2",
                "Cascadelake-Server-noTSX",
                "Cascadelake-Server-v4",
                "Cascadelake-Server-v5",
                "Cooperlake",
                "Cooperlake-v2",
                "KnightsMill",
                "Icelake-Server",
                "Icelake-Server-noTSX",
                "Icelake-Server-v3",
                "Icelake-Server-v4",
                "Icelake-Server-v5",
                "Icelake-Server-v6",
                "Icelake-Server-v7",
                "SapphireRapids",
                "SapphireRapids-v2",
                "SapphireRapids-v3",
                "SapphireRapids-v4",
                "GraniteRapids",
                "GraniteRapids-v2",
                "GraniteRapids-v3",
                "SierraForest",
                "SierraForest-v2",
                "SierraForest-v3",
                "ClearwaterForest")) {
            MODELS.put(m, "GenuineIntel");
        }
        for (String m : List.of(
                "athlon",
                "phenom",
                "Opteron_G1",
                "Opteron_G2",
                "Opteron_G3",
                "Opteron_G4",
                "Opteron_G5",
                "EPYC",
                "EPYC-IBPB",
                "EPYC-v3",
                "EPYC-v4",
                "EPYC-v5",
                "EPYC-Rome",
                "EPYC-Rome-v2",
                "EPYC-Rome-v3",
                "EPYC-Rome-v4",
                "EPYC-Rome-v5",
                "EPYC-Milan",
                "EPYC-Milan-v2",
                "EPYC-Milan-v3",
                "EPYC-Genoa",
                "EPYC-Genoa-v2",
                "EPYC-Turin")) {
            MODELS.put(m, "AuthenticAMD");
        }
        for (String m : List.of("kvm32", "kvm64", "qemu32", "qemu64", "max", "host")) {
            MODELS.put(m, "default");
        }
    }

    private CpuModels() {}

    static boolean known(String cputype) {
        return MODELS.containsKey(cputype) || ABSTRACT.contains(cputype);
    }

    /** The list endpoint's entries: {@code name}, {@code custom}, {@code vendor} (and {@code abstract}). */
    static List<Map<String, Object>> list() {
        List<Map<String, Object>> out = new ArrayList<>();
        MODELS.forEach((name, vendor) -> out.add(Map.of("name", name, "custom", 0, "vendor", vendor)));
        for (String name : ABSTRACT) {
            out.add(Map.of("name", name, "custom", 0, "abstract", 1, "vendor", "default"));
        }
        return out;
    }
}
