package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading where a shard channel went from the {@code MOVED} reply of a node that no longer serves its slot. */
class ShardSubscriptionsTests {

    @Test
    void aMovedReplyNamesTheNodeThatServesTheSlotNow() {
        RedisCommandExecutionException moved = new RedisCommandExecutionException("MOVED 3999 127.0.0.1:6381");
        assertThat(ShardNode.movedTo(new CompletionException(moved)))
            .isEqualTo(new ShardNode("127.0.0.1", 6381));
        assertThat(ShardNode.movedTo(new RedisCommandExecutionException("MOVED 1 [::1]:7000")))
            .isEqualTo(new ShardNode("[::1]", 7000));
    }

    @Test
    void otherFailuresNameNoNode() {
        assertThat(ShardNode.movedTo(new RedisConnectionException("Connection refused"))).isNull();
        assertThat(ShardNode.movedTo(new RedisCommandExecutionException("ASK 3999 127.0.0.1:6381")))
            .isNull();
        assertThat(ShardNode.movedTo(new RedisCommandExecutionException("MOVED 3999 :6381"))).isNull();
        assertThat(ShardNode.movedTo(new RedisCommandExecutionException("MOVED 3999 host:port"))).isNull();
    }
}
