package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.internal.scripts.AcquireArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** S6: an acquire whose reply never came is cleaned up, and a late or replayed copy of it is never granted. */
class UnknownOutcomeTests extends PausableRedisTest {

    @Test
    void timedOutAcquireIsRemovedAndAReplayOfItIsRefused() throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .operationTimeout(Duration.ofMillis(300)).maxBackoff(Duration.ofMillis(200)).build());
        client.getLock("warm").acquire(Duration.ZERO).close();
        RedisCommands<String, String> raw = this.clients.raw();

        this.redis.server().pause();
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> client.getLock("unknown").acquire(Duration.ZERO))
            .withMessageContaining("outcome is unknown");
        this.redis.server().resume();

        // Redis executes the buffered acquire after the resume; the clean-up that follows it removes the grant.
        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists("lock:{unknown}") == 0
                && !raw.keys("lock:{unknown}:abandoned:*").isEmpty());
        String tombstone = raw.keys("lock:{unknown}:abandoned:*").get(0);
        String owner = tombstone.substring("lock:{unknown}:abandoned:".length());
        assertThat(raw.pttl(tombstone)).isPositive();

        List<Object> replay = raw.eval(dev.distlock.core.internal.redis.LuaScript.ACQUIRE.body(), ScriptOutputType.MULTI,
                new String[] { "lock:{unknown}", "lock:{unknown}:fence", "lock:{unknown}:queue", tombstone },
                new AcquireArgs(owner, 30_000, 60_000, 30_000, "lock:{unknown}:h:replay", "publish", true, "",
                        AcquireArgs.offer(1_000, 30_000, false))
                    .argv());
        assertThat(replay.get(0)).as("a replayed acquire of the abandoned owner is refused").isEqualTo(0L);
        assertThat(raw.exists("lock:{unknown}")).isZero();

        try (LockLease lease = client.getLock("unknown").acquire(Duration.ZERO)) {
            assertThat(lease.isHeld()).as("other acquisitions are not affected").isTrue();
        }

        // The reentrant lock's first attempt is a plain SET NX, which no tombstone stops: replayed now, it leaves a
        // hold nobody holds, which the next acquire finds to be a ghost by that same tombstone and removes.
        assertThat(raw.set("lock:{unknown}", owner + "|", SetArgs.Builder.nx().px(30_000))).isEqualTo("OK");
        try (LockLease lease = client.getLock("unknown").acquire(Duration.ZERO)) {
            assertThat(raw.get("lock:{unknown}")).as("the ghost was replaced").doesNotStartWith(owner + "|");
        }
    }
}
