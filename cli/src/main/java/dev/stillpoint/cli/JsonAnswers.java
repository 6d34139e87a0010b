package dev.stillpoint.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/** DynamoDB JSON text set into a {@code --json} answer as JSON, not as a string of it [X3]. */
final class JsonAnswers {

    private JsonAnswers() {
    }

    /** The tree of {@code text}, which ItemJson wrote (so it parses). */
    static JsonNode tree(String text) {
        try {
            return CliCommand.JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("item text did not parse as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
