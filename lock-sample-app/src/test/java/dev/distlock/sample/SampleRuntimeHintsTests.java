package dev.distlock.sample;

import java.io.IOException;

import dev.distlock.testsupport.RedisBinary;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The files the sample reads from its class path are in a native image of it, as the AOT processing of
 * {@link SampleApplication}'s {@code @ImportRuntimeHints} collects them.
 */
class SampleRuntimeHintsTests {

    @Test
    void scriptsAndTheRedisServerBinaryAreResourcesOfTheImage() throws IOException {
        RuntimeHints hints = hints();
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath*:dev/distlock/sample/scripts/*.lua");
        assertThat(scripts).isNotEmpty();
        for (Resource script : scripts) {
            String path = "dev/distlock/sample/scripts/" + script.getFilename();
            assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(hints);
        }
        String binary = "redis-server-" + RedisBinary.VERSION + "-linux-amd64";
        assertThat(RuntimeHintsPredicates.resource().forResource(binary)).accepts(hints);
    }

    private static RuntimeHints hints() {
        // the application class as a bean, without the configuration it imports or scans: its @ImportRuntimeHints
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean(SampleApplication.class);
            DefaultGenerationContext generation = new DefaultGenerationContext(
                    new ClassNameGenerator(ClassName.get(SampleRuntimeHintsTests.class)),
                    new InMemoryGeneratedFiles());
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
            return generation.getRuntimeHints();
        }
    }
}
