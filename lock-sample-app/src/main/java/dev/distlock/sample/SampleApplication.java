package dev.distlock.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Entry point of the sample. Without any {@code spring.data.redis.*} setting it starts its own redis-server (see
 * {@link EmbeddedRedisInitializer}); with one, it uses that Redis.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
@ImportRuntimeHints(SampleRuntimeHints.class)
public class SampleApplication {

    /**
     * Starts the application.
     *
     * @param args Spring Boot command-line arguments, e.g. {@code --server.port=8081}
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
