package dev.stillpoint.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Export and restore have one public way each, a request record ({@link ExportRequest},
 * {@link RestoreRequest}) shaped like the rest of the API [issue 29]: the positional entry points with
 * seven or eight arguments are package-private, kept for the requests and this package's tests.
 */
class PublicEntryPointsTest {

    private static String[] publicStatics(Class<?> type, String name) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> m.getName().equals(name) && Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
                .map(Method::toGenericString).toArray(String[]::new);
    }

    @Test
    void theRequestRecordsAreTheOnePublicWay() throws Exception {
        assertThat(publicStatics(TableExport.class, "export")).as("public TableExport.export overloads").isEmpty();
        assertThat(publicStatics(TableRestore.class, "restore")).as("public TableRestore.restore overloads").isEmpty();
        assertThat(Modifier.isPublic(TableExport.class.getMethod("to", java.nio.file.Path.class).getModifiers())).isTrue();
        assertThat(Modifier.isPublic(TableRestore.class.getMethod("from", java.nio.file.Path.class).getModifiers())).isTrue();
        assertThat(RestoreRequest.class.getMethod("run", dev.stillpoint.ports.in.Storage.class, CheckedExport.class,
                String.class, String.class)).as("a checked export restored through the request").isNotNull();
    }
}
