package dev.distlock.spring.annotation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The annotation package is what applications compile against; the advice ({@code aop}) and the auto-configuration
 * ({@code boot}) depend on it, never the other way round. A plain scan of its main sources for references to the
 * starter's other packages, in import lines and fully qualified names alike.
 */
class AnnotationPackageImportsTests {

    private static final Pattern STARTER_REFERENCE = Pattern.compile("dev\\.distlock\\.spring\\.(\\w+)\\.\\w+");

    @Test
    void annotationTypesReferToNoOtherStarterPackage() throws IOException {
        List<String> references = new ArrayList<>();
        for (Path file : annotationSources()) {
            Matcher reference = STARTER_REFERENCE.matcher(Files.readString(file));
            while (reference.find()) {
                if (!reference.group(1).equals("annotation")) {
                    references.add(file.getFileName() + " -> " + reference.group());
                }
            }
        }
        assertThat(references).as("references from the annotation package to the starter's machinery").isEmpty();
    }

    private static List<Path> annotationSources() throws IOException {
        Path root = Path.of("src/main/java/dev/distlock/spring/annotation");
        assertThat(root).as("run from the lock-spring-boot-starter module directory").isDirectory();
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> sources = files.filter((p) -> p.toString().endsWith(".java")).toList();
            assertThat(sources).hasSizeGreaterThanOrEqualTo(5);
            return sources;
        }
    }
}
