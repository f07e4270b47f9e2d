package dev.bigfleet.proxmox.ctl;

import com.google.protobuf.ByteString;
import java.util.Base64;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A List revision cursor on the command line: base64, as {@code --output json} and the table's
 * last line print it (standard or URL-safe alphabet).
 */
final class Cursor implements ITypeConverter<ByteString> {
    @Override
    public ByteString convert(String value) {
        String s = value.trim();
        try {
            return ByteString.copyFrom(
                    s.contains("-") || s.contains("_")
                            ? Base64.getUrlDecoder().decode(s)
                            : Base64.getDecoder().decode(s));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("\"" + value + "\" is not a cursor (base64 text)");
        }
    }

    static String text(ByteString cursor) {
        return Base64.getEncoder().encodeToString(cursor.toByteArray());
    }
}
