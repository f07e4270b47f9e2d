package dev.bigfleet.proxmox.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One setting a backend reads, as its factory declares it in {@link ProxmoxBackendFactory#options()}.
 * Operators set it with {@code --backend-opt NAME=VALUE}, as a key of the {@code --backend-config}
 * file, or with one of its {@link #flags() flag aliases}. {@code --help} lists every option of every
 * backend, and the value of a {@link #secret() secret} one is never logged or quoted in an error.
 */
public final class BackendOption {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]*");
    private static final Pattern FLAG = Pattern.compile("--[a-z0-9][a-z0-9-]*");

    private final String name;
    private final String description;
    private final Optional<String> defaultValue;
    private final boolean secret;
    private final boolean isSwitch;
    private final boolean selectsBackend;
    private final List<String> flags;

    private BackendOption(Builder b) {
        this.name = b.name;
        this.description = b.description;
        this.defaultValue = Optional.ofNullable(b.defaultValue);
        this.secret = b.secret;
        this.isSwitch = b.isSwitch;
        this.selectsBackend = b.selectsBackend;
        this.flags = List.copyOf(b.flags);
    }

    /**
     * Starts the declaration of option {@code name}: lower case letters, digits, {@code -} and
     * {@code .}, starting with a letter or digit.
     */
    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** One line for {@code --help}. */
    public String description() {
        return description;
    }

    /** The value the backend uses when the option is not set, as shown in {@code --help}. */
    public Optional<String> defaultValue() {
        return defaultValue;
    }

    /** Whether the value is a credential: never logged, echoed or shown. */
    public boolean secret() {
        return secret;
    }

    /** Whether it is a boolean switch: its flags may be given without a value, meaning {@code true}. */
    public boolean isSwitch() {
        return isSwitch;
    }

    /**
     * Whether turning the switch on selects this backend, whatever {@code --proxmox-backend} says
     * (the fake's {@code --use-fake-backend}).
     */
    public boolean selectsBackend() {
        return selectsBackend;
    }

    /** Command-line flags that set this option too, such as {@code --proxmox-api-url}. */
    public List<String> flags() {
        return flags;
    }

    @Override
    public String toString() {
        return "BackendOption[" + name + (flags.isEmpty() ? "" : " " + String.join(",", flags)) + "]";
    }

    /** Declares a {@link BackendOption}. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private String defaultValue;
        private boolean secret;
        private boolean isSwitch;
        private boolean selectsBackend;
        private final List<String> flags = new ArrayList<>();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(
                        "backend option name \"" + name + "\" must be lower case letters, digits, '-' and '.'");
            }
            this.name = name;
        }

        public Builder description(String text) {
            this.description = Objects.requireNonNull(text, "text");
            return this;
        }

        public Builder defaultValue(String value) {
            this.defaultValue = Objects.requireNonNull(value, "value");
            return this;
        }

        public Builder secret() {
            this.secret = true;
            return this;
        }

        public Builder asSwitch() {
            this.isSwitch = true;
            return this;
        }

        /** A switch that, when on, selects the backend; implies {@link #asSwitch()}. */
        public Builder selectsBackend() {
            this.isSwitch = true;
            this.selectsBackend = true;
            return this;
        }

        /** Adds a command-line flag alias, {@code --lower-case-words}. */
        public Builder flag(String flag) {
            Objects.requireNonNull(flag, "flag");
            if (!FLAG.matcher(flag).matches()) {
                throw new IllegalArgumentException("flag alias \"" + flag + "\" of backend option \"" + name
                        + "\" must look like --lower-case-words");
            }
            flags.add(flag);
            return this;
        }

        public BackendOption build() {
            if (secret && isSwitch) {
                throw new IllegalArgumentException("backend option \"" + name + "\": a switch cannot be secret");
            }
            return new BackendOption(this);
        }
    }
}
