package dev.stillpoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md stays true to the code's names (issue 28): every name it quotes as code ({@code `Like.this()`})
 * is a name that occurs in the sources, the scripts or the migrations. A class, method or setting renamed or
 * removed without the document following fails here, naming the quoted text. It checks names only; what the
 * document says of them is read by people.
 */
class ArchitectureDocumentTest {

    /** A quoted name: identifiers joined by dots, perhaps called. */
    private static final Pattern QUOTED = Pattern.compile("`([A-Za-z_][A-Za-z0-9_.]*(?:\\(\\))?)`");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Quoted names that are not code names, each with why. */
    private static final Map<String, String> NOT_NAMES = Map.of(
            "withX", "the pattern of the configs' withX methods, not one method",
            "pg_cancel_backend", "a PostgreSQL function an operator may call; Stillpoint itself does not");

    @Test
    void everyNameTheDocumentQuotesAsCodeOccursInTheSources() throws IOException {
        Path root = repositoryRoot();
        String document = Files.readString(root.resolve("ARCHITECTURE.md"), StandardCharsets.UTF_8);
        Set<String> words = wordsOfTheSources(root);
        Map<String, String> missing = new TreeMap<>();
        int checked = 0;
        Matcher m = QUOTED.matcher(document);
        while (m.find()) {
            String quoted = m.group(1);
            if (NOT_NAMES.containsKey(quoted)) {
                continue;
            }
            checked++;
            for (String part : quoted.split("[.()]")) {
                if (!part.isEmpty() && !words.contains(part)) {
                    missing.put(quoted, part);
                    break;
                }
            }
        }
        assertThat(checked).as("quoted names read from ARCHITECTURE.md").isGreaterThan(300);
        assertThat(missing).as("names ARCHITECTURE.md quotes (quoted -> the part no source holds)").isEmpty();
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("ARCHITECTURE.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root, holding ARCHITECTURE.md, above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }

    /** Every identifier-like word of the Java sources, SQL migrations, POMs and shell scripts below the root. */
    private static Set<String> wordsOfTheSources(Path root) throws IOException {
        Set<String> words = new HashSet<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isRegularFile)
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return name.endsWith(".java") || name.endsWith(".sql") || name.endsWith(".sh")
                                || name.equals("pom.xml") || name.equals("stillpoint");
                    })
                    .forEach(files::add);
        }
        for (Path file : files) {
            try {
                Matcher w = WORD.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (w.find()) {
                    words.add(w.group());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + file, e);
            }
        }
        return words;
    }
}
