package dev.distlock.spring.boot;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two {@code @ServiceConnection} Redis containers, the application's and the locks' (typed
 * {@link LockRedisConnectionDetails}): each connection goes to its own. The containers are redis-servers the test
 * support started, so this runs without Docker; {@code DedicatedRedisServiceConnectionTests} does the same on Docker.
 */
@SpringBootTest(classes = LockRedisServiceConnectionTests.TestApplication.class)
@SuppressWarnings("try") // a lease held open only to look at the keys
class LockRedisServiceConnectionTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.independent(2);

    @ServiceConnection
    static final LocalRedisContainer appRedis = new LocalRedisContainer(() -> redis.server(0));

    @ServiceConnection(type = LockRedisConnectionDetails.class)
    static final LocalRedisContainer lockRedis = new LocalRedisContainer(() -> redis.server(1));

    @Autowired
    private LockTemplate lockTemplate;

    @Autowired
    private StringRedisTemplate redisTemplate;

    @Autowired
    private LockConnectionDescription description;

    @Test
    void locksGoToTheTypedContainerAndTheApplicationToThePlainOne() {
        this.redisTemplate.opsForValue().set("app-key", "app");
        try (LockLease lease = this.lockTemplate.acquire("typed-service-connection")) {
            assertThat(RedisKeys.keys(redis.server(1).uri(), "*")).contains("lock:{typed-service-connection}")
                .doesNotContain("app-key");
            assertThat(RedisKeys.keys(redis.server(0).uri(), "*")).containsExactly("app-key");
        }
        assertThat(this.description.source()).isEqualTo(LockConnectionDescription.DETAILS);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {
    }
}
