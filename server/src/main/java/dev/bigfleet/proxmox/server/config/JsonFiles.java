package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a JSON config file, turning every failure into one line naming the flag and the file. */
final class JsonFiles {
    // a wrong type such as "count": "3" is an error, not silently coerced
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);

    private JsonFiles() {}

    static <T> T read(String flag, Path path, JavaType type) throws ConfigException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ConfigException(flag + " " + path + ": no such file");
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
        try {
            T value = MAPPER.readValue(bytes, type);
            if (value == null) {
                throw new ConfigException(flag + " " + path + ": the file holds JSON null");
            }
            return value;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new ConfigException(flag + " " + path + ": invalid JSON" + where + ": " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "parse error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
