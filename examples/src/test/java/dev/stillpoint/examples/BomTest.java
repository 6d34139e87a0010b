package dev.stillpoint.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The BOM names every published module of the reactor, at the reactor's version, and nothing else. */
class BomTest {

    /** Modules that are not artifacts an embedder links: the BOM itself and these examples. */
    private static final Set<String> UNPUBLISHED = Set.of("bom", "examples");

    @Test
    void theBomListsEveryPublishedModuleAtTheReactorsVersion() throws IOException {
        String parent = Files.readString(Path.of("..", "pom.xml"));
        String bom = Files.readString(Path.of("..", "bom", "pom.xml"));
        Set<String> modules = new TreeSet<>();
        for (String module : all(parent, "<module>([^<]+)</module>")) {
            if (!UNPUBLISHED.contains(module)) {
                String pom = Files.readString(Path.of("..", module, "pom.xml"));
                modules.add(all(pom.substring(pom.indexOf("</parent>")), "<artifactId>([^<]+)</artifactId>").get(0));
            }
        }
        Set<String> listed = new TreeSet<>(all(bom, "<artifactId>(stillpoint-[^<]+)</artifactId>"));
        listed.remove("stillpoint-bom");
        assertThat(listed).as("artifacts the BOM manages").isEqualTo(modules);
        String version = all(parent, "<version>([^<]+)</version>").get(0);
        assertThat(new TreeSet<>(all(bom, "<version>([^<]+)</version>"))).as("versions the BOM names")
                .containsExactly(version);
    }

    private static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.results().map(r -> r.group(1)).toList();
    }
}
