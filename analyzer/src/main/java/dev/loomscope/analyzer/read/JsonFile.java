package dev.loomscope.analyzer.read;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JSON file another tool wrote (JMH's results, the JDK's thread dumps), read within Jackson's stream limits: nesting,
 * names and numbers beyond them are refused as not that tool's file, in one line that says what to give instead.
 */
public final class JsonFile {
    private JsonFile() {}

    /**
     * The file's tree; {@code what} names the kind of file expected ("a JMH result") and {@code hint} what to give
     * ("give JMH's -rf json output").
     */
    public static JsonNode read(Path file, String what, String hint) {
        String where = file.toString();
        if (Files.isDirectory(file) || Files.exists(file) && !Files.isRegularFile(file)) {
            throw new BadDataException(where + ": not a file (" + hint + ")");
        }
        if (!Files.exists(file)) {
            throw new BadDataException(where + ": no such file (" + hint + ")");
        }
        try {
            return new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(file.toFile());
        } catch (StreamConstraintsException e) {
            // nested too deep, a name or number too long: no such file looks like that
            throw new BadDataException(where + ": not " + what + ": "
                    + e.getOriginalMessage().lines().findFirst().orElse("over JSON's limits") + " (" + hint + ")");
        } catch (JsonProcessingException e) {
            throw new BadDataException(where + ": not JSON"
                    + (e.getLocation() == null
                            ? ""
                            : " at line " + e.getLocation().getLineNr()) + " (" + hint + ")");
        } catch (IOException e) {
            throw new BadDataException(where + ": cannot read: " + e.getMessage() + " (check the file's permissions)");
        }
    }
}
