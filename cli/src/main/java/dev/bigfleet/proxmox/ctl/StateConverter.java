package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A machine state by its short name, any case: {@code idle}, {@code IDLE} or {@code MACHINE_STATE_IDLE}. */
final class StateConverter implements ITypeConverter<MachineState> {
    static final String PREFIX = "MACHINE_STATE_";

    @Override
    public MachineState convert(String value) {
        String name = value.trim().toUpperCase(Locale.ROOT);
        String full = name.startsWith(PREFIX) ? name : PREFIX + name;
        for (MachineState s : MachineState.values()) {
            if (s != MachineState.UNRECOGNIZED
                    && s != MachineState.MACHINE_STATE_UNSPECIFIED
                    && s.name().equals(full)) {
                return s;
            }
        }
        throw new TypeConversionException("unknown state \"" + value + "\"; one of " + names());
    }

    static String shortName(MachineState state) {
        return state.name().startsWith(PREFIX) ? state.name().substring(PREFIX.length()) : state.name();
    }

    private static String names() {
        return Arrays.stream(MachineState.values())
                .filter(s -> s != MachineState.UNRECOGNIZED && s != MachineState.MACHINE_STATE_UNSPECIFIED)
                .map(StateConverter::shortName)
                .collect(Collectors.joining(", "));
    }
}
