package dev.distlock.test.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.test.app.ReservationApplication;
import dev.distlock.test.app.Reservations;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code @AutoConfigureEmbeddedRedis}: the application and the starter on a real redis-server of the test's own. */
@SuppressWarnings("try") // leases held open only to keep a lock busy
class EmbeddedRedisSpringTests {

    @Nested
    @SpringBootTest(classes = ReservationApplication.class, properties = "spring.data.redis.port=1")
    @AutoConfigureEmbeddedRedis
    class SharedConnection {

        @Autowired
        private EmbeddedRedis redis;

        @Autowired
        private RedisLockClient client;

        @Autowired
        private StringRedisTemplate redisTemplate;

        @Autowired
        private Reservations reservations;

        @Test
        void locksAndTheApplicationUseTheEmbeddedServer() {
            assertThat(this.client.redisTarget()).isEqualTo("127.0.0.1:" + this.redis.port());
            assertThat(this.client.isConnected()).isTrue();
            this.redisTemplate.opsForValue().set("greeting", "hello");
            assertThat(this.redisTemplate.opsForValue().get("greeting")).isEqualTo("hello");
        }

        @Test
        void annotatedMethodTakesARealLock() {
            String first = this.reservations.reserve("sku-1");
            String second = this.reservations.reserve("sku-1");
            assertThat(first).startsWith("reservation:sku-1#");
            assertThat(token(second)).isGreaterThan(token(first));
            assertThat(this.client.inspect("reservation:sku-1").held()).isFalse();
        }

        @Test
        void busySkuTakesTheFallback() throws Exception {
            try (LockLease held = this.client.getLock("reservation:sku-2").acquire(Duration.ZERO)) {
                assertThat(CompletableFuture.supplyAsync(() -> this.reservations.tryReserve("sku-2")).get())
                    .isEqualTo("sku-2 is busy on " + this.client.instanceId());
            }
        }

        private static long token(String reply) {
            return Long.parseLong(reply.substring(reply.indexOf('#') + 1));
        }
    }

    @Nested
    @SpringBootTest(classes = ReservationApplication.class)
    @TestPropertySource(properties = { "distributed-lock.redis.host=redis.invalid",
            "distributed-lock.redis.ssl.enabled=true" })
    @AutoConfigureEmbeddedRedis
    class DedicatedConnection {

        @Autowired
        private EmbeddedRedis redis;

        @Autowired
        private RedisLockClient client;

        @Test
        void dedicatedLockConnectionIsPointedAtTheEmbeddedServerToo() {
            assertThat(this.client.redisTarget()).isEqualTo("127.0.0.1:" + this.redis.port());
            assertThat(this.client.inspect("anything").held()).isFalse();
        }
    }
}
