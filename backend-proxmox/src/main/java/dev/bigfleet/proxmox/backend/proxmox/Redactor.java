package dev.bigfleet.proxmox.backend.proxmox;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Removes secrets from text that leaves the backend (a hook's stderr, an error message): the API
 * token secret, and the bootstrap blob in full, as base64, line by line, and word by word for
 * words that look like credentials (a hook that echoes a fragment of its input must not put the
 * join token into last_error).
 */
final class Redactor {
    static final String MASK = "<redacted>";
    private static final int MIN_FRAGMENT = 8;
    /** Blob words at least this long that contain a digit are treated as credentials. */
    private static final int MIN_SECRET_WORD = 12;

    private final Supplier<List<String>> tokenSecrets;
    private final List<String> secrets;

    private Redactor(Supplier<List<String>> tokenSecrets, List<String> secrets) {
        this.tokenSecrets = tokenSecrets;
        this.secrets = List.copyOf(secrets);
    }

    static Redactor of(String tokenSecret) {
        return new Redactor(() -> List.of(tokenSecret), List.of());
    }

    /** Scrubs every secret the token has held (a rotated token file leaves old secrets behind). */
    static Redactor of(Supplier<List<String>> tokenSecrets) {
        return new Redactor(tokenSecrets, List.of());
    }

    /** This redactor plus the blob of one Configure. */
    Redactor withBlob(byte[] blob) {
        List<String> more = new ArrayList<>(secrets);
        if (blob.length >= MIN_FRAGMENT) {
            String text = new String(blob, StandardCharsets.UTF_8);
            more.add(text);
            more.add(Base64.getEncoder().encodeToString(blob));
            for (String line : text.split("\\R", -1)) {
                String l = line.strip();
                if (l.length() >= MIN_FRAGMENT) {
                    more.add(l);
                }
            }
            for (String word : text.split("[\\s\"'=,;]+", -1)) {
                if (word.length() >= MIN_SECRET_WORD && word.chars().anyMatch(Character::isDigit)) {
                    more.add(word);
                }
            }
        }
        return new Redactor(tokenSecrets, more);
    }

    String scrub(String text) {
        List<String> all = new ArrayList<>(tokenSecrets.get());
        all.addAll(secrets);
        // longest first, so a fragment never leaves the rest of a longer secret behind
        all.sort(Comparator.comparingInt(String::length).reversed());
        String out = text;
        for (String s : all) {
            if (!s.isEmpty() && out.contains(s)) {
                out = out.replace(s, MASK);
            }
        }
        return out;
    }
}
