package dev.distlock.spring.boot;

import com.redis.testcontainers.RedisContainer;
import dev.distlock.core.LockTemplate;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter on a Redis started by Testcontainers and wired through {@code @ServiceConnection}: the lock client reuses
 * the connection Boot derives from the container. Needs Docker; skipped (not failed) without it.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = RedisServiceConnectionTests.TestApplication.class)
class RedisServiceConnectionTests {

    @Container
    @ServiceConnection
    static final RedisContainer redis = new RedisContainer(
            RedisContainer.DEFAULT_IMAGE_NAME.withTag(RedisContainer.DEFAULT_TAG));

    @Autowired
    private LockTemplate lockTemplate;

    @Test
    void locksRunOnTheServiceConnectionsRedis() {
        String result = this.lockTemplate.execute("service-connection", (lease) -> {
            assertThat(RedisKeys.keys(redis.getRedisURI(), "*")).contains("lock:{service-connection}");
            return "ran with token " + lease.fencingToken();
        });
        assertThat(result).startsWith("ran with token");
        assertThat(RedisKeys.keys(redis.getRedisURI(), "lock:{service-connection}")).isEmpty();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
