package dev.distlock.spring.boot;

import java.util.stream.Collectors;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisTopologyExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** A dedicated {@code distributed-lock.redis.sentinel.*} connection finds the master through real Sentinels. */
class DedicatedSentinelConnectionTests {

    @RegisterExtension
    static final RedisTopologyExtension<RedisSentinelSet> sentinels = RedisTopologyExtension.sentinel(1);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                DistributedLockAutoConfiguration.class));

    @Test
    void locksAreTakenOnTheMasterTheSentinelsName() {
        RedisSentinelSet set = sentinels.get();
        String nodes = set.sentinels()
            .stream()
            .map((sentinel) -> sentinel.host() + ":" + sentinel.port())
            .collect(Collectors.joining(","));
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.sentinel.master=" + RedisSentinelSet.MASTER_NAME,
                    "distributed-lock.redis.sentinel.nodes=" + nodes)
            .run((context) -> {
                assertThat(context).hasSingleBean(DedicatedLockConnection.class);
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("via-sentinel")) {
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(RedisKeys.keys(set.master().uri(), "*")).contains("lock:{via-sentinel}");
                }
            });
    }
}
