package dev.stillpoint.cli;

import dev.stillpoint.domain.error.StorageException;
import dev.stillpoint.domain.request.RequestKey;
import dev.stillpoint.itemjson.ItemJson;
import java.io.InputStream;
import picocli.CommandLine.Option;

/**
 * The key of {@code get-item} and {@code delete-item}, exactly one of {@code --key-json '{...}'} and
 * {@code --key-file FILE|-}: DynamoDB JSON of the key attributes, handed to the storage as the request's
 * key [V3], so a missing, extra or mistyped attribute is refused as DynamoDB refuses it.
 */
final class KeyInput {

    @Option(names = "--key-json", paramLabel = "JSON", required = true,
            description = "The key in DynamoDB JSON, e.g. '{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}'.")
    String json;

    @Option(names = "--key-file", paramLabel = "FILE|-", required = true,
            description = "A file (or - for stdin) holding the key in DynamoDB JSON.")
    String file;

    /** The key as the request gives it: every attribute the JSON holds, none dropped or checked here. */
    RequestKey key(InputStream stdin) {
        if (json != null) {
            try {
                return new RequestKey(ItemJson.decode(json).attributes());
            } catch (StorageException e) {
                throw InputText.located("--key-json", e);
            }
        }
        return new RequestKey(InputText.read(file, stdin).single().attributes());
    }
}
