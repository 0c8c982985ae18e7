package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.internal.time.Durations;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class KeyNamingTests extends RedisLockTest {

    @ParameterizedTest
    @ValueSource(strings = { "orders:42", "{orders}", "}x{", "a}b", "{", "}", "заказ:42", "注文{1}", "🔒" })
    void everyKeyOfALockSharesOneClusterSlot(String name, RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        try (LockLease lease = client.getLock(name).acquire(Duration.ZERO)) {
            lease.fencingToken();
            List<String> keys = raw.keys("*");
            assertThat(keys).hasSize(2);
            assertThat(keys).extracting(SlotHash::getSlot).containsOnly(SlotHash.getSlot(keys.get(0)));
        }
        assertThat(raw.keys("lock:*")).hasSize(1).allMatch((key) -> key.endsWith(":fence"));
        raw.flushall();
    }

    @Test
    void namesWithBracesDoNotCollideWithTheirHashedForm(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        try (LockLease braces = client.getLock("a{b}").acquire(Duration.ZERO);
                LockLease plain = client.getLock("ab").acquire(Duration.ZERO)) {
            braces.fencingToken();
            plain.fencingToken();
            assertThat(raw.keys("lock:*")).hasSize(4);
        }
    }

    @Test
    void subMillisecondPartsRoundUpInsteadOfDown(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        assertThat(Durations.ceilMillis(Duration.ofNanos(1))).isOne();
        assertThat(Durations.ceilMillis(Duration.ofMillis(10).plusNanos(1))).isEqualTo(11);
        try (LockLease lease = client.getLock("rounded").acquire(Duration.ZERO, Duration.ofMillis(500)
            .plusNanos(1))) {
            assertThat(raw.pttl("lock:{rounded}")).isBetween(400L, 501L);
        }
    }

    @Test
    void leaseTooShortToEverBeHeldIsRejected(RedisLockClient client, RedisCommands<String, String> raw) {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
            .isThrownBy(() -> client.getLock("tiny").acquire(Duration.ZERO, Duration.ofNanos(1)))
            .withMessageContaining("shorter than the minimum PT0.01S");
        assertThat(raw.exists("lock:{tiny}")).isZero();
    }

    @Test
    void keyPrefixIsConfigurable(RedisCommands<String, String> raw, LockClients clients) throws Exception {
        RedisLockClient prefixed = clients.create(LockClientOptions.builder().keyPrefix("myapp:locks:").build());
        try (LockLease lease = prefixed.getLock("job").acquire(Duration.ZERO)) {
            assertThat(raw.exists("myapp:locks:{job}")).isOne();
        }
    }
}
