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
 * The locks on their own Redis container, {@code @ServiceConnection(type = LockRedisConnectionDetails.class)}, beside
 * the application's plain {@code @ServiceConnection} one. Needs Docker; skipped (not failed) without it.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = DedicatedRedisServiceConnectionTests.TestApplication.class)
class DedicatedRedisServiceConnectionTests {

    @Container
    @ServiceConnection
    static final RedisContainer appRedis = new RedisContainer(
            RedisContainer.DEFAULT_IMAGE_NAME.withTag(RedisContainer.DEFAULT_TAG));

    @Container
    @ServiceConnection(type = LockRedisConnectionDetails.class)
    static final RedisContainer lockRedis = new RedisContainer(
            RedisContainer.DEFAULT_IMAGE_NAME.withTag(RedisContainer.DEFAULT_TAG));

    @Autowired
    private LockTemplate lockTemplate;

    @Test
    void locksRunOnTheTypedServiceConnectionsRedis() {
        String result = this.lockTemplate.execute("dedicated-service-connection", (lease) -> {
            assertThat(RedisKeys.keys(lockRedis.getRedisURI(), "*")).contains("lock:{dedicated-service-connection}");
            assertThat(RedisKeys.keys(appRedis.getRedisURI(), "*")).isEmpty();
            return "ran";
        });
        assertThat(result).isEqualTo("ran");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
