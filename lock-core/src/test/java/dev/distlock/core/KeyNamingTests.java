package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.internal.Durations;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class KeyNamingTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private LockClients clients;

    private RedisLockClient client;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new LockClients(redis.uri());
        this.client = this.clients.create();
        this.raw = this.clients.raw();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.clients.close();
    }

    @ParameterizedTest
    @ValueSource(strings = { "orders:42", "{orders}", "}x{", "a}b", "{", "}", "заказ:42", "注文{1}", "🔒" })
    void everyKeyOfALockSharesOneClusterSlot(String name) throws Exception {
        try (LockLease lease = this.client.getLock(name).acquire(Duration.ZERO)) {
            List<String> keys = this.raw.keys("*");
            assertThat(keys).hasSize(2);
            assertThat(keys).extracting(SlotHash::getSlot).containsOnly(SlotHash.getSlot(keys.get(0)));
        }
        assertThat(this.raw.keys("lock:*")).hasSize(1).allMatch((key) -> key.endsWith(":fence"));
        this.raw.flushall();
    }

    @Test
    void namesWithBracesDoNotCollideWithTheirHashedForm() throws Exception {
        try (LockLease braces = this.client.getLock("a{b}").acquire(Duration.ZERO);
                LockLease plain = this.client.getLock("ab").acquire(Duration.ZERO)) {
            assertThat(this.raw.keys("lock:*")).hasSize(4);
        }
    }

    @Test
    void subMillisecondPartsRoundUpInsteadOfDown() throws Exception {
        assertThat(Durations.ceilMillis(Duration.ofNanos(1))).isOne();
        assertThat(Durations.ceilMillis(Duration.ofMillis(10).plusNanos(1))).isEqualTo(11);
        try (LockLease lease = this.client.getLock("rounded").acquire(Duration.ZERO, Duration.ofMillis(500)
            .plusNanos(1))) {
            assertThat(this.raw.pttl("lock:{rounded}")).isBetween(400L, 501L);
        }
    }

    @Test
    void leaseTooShortToEverBeHeldIsRejected() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
            .isThrownBy(() -> this.client.getLock("tiny").acquire(Duration.ZERO, Duration.ofNanos(1)))
            .withMessageContaining("shorter than the minimum PT0.01S");
        assertThat(this.raw.exists("lock:{tiny}")).isZero();
    }

    @Test
    void keyPrefixIsConfigurable() throws Exception {
        RedisLockClient prefixed = this.clients.create(LockClientOptions.builder().keyPrefix("myapp:locks:").build());
        try (LockLease lease = prefixed.getLock("job").acquire(Duration.ZERO)) {
            assertThat(this.raw.exists("myapp:locks:{job}")).isOne();
        }
    }
}
