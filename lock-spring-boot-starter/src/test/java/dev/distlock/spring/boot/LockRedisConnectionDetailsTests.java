package dev.distlock.spring.boot;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connection-details beans: a {@link LockRedisConnectionDetails} gives the locks a dedicated connection and wins over
 * the {@code distributed-lock.redis.*} address; Boot's own Redis connection details drive the shared connection.
 */
@SuppressWarnings("try") // leases held open only to look at the keys
class LockRedisConnectionDetailsTests {

    /** Server 0 is the application's Redis, server 1 the locks' own. */
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.independent(2);

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(appRedis().host(),
            appRedis().port());

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void connectionDetailsWinOverTheDedicatedAddressAndKeepItsOtherSettings() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.host=" + appRedis().host(),
                    "distributed-lock.redis.port=" + appRedis().port(),
                    "distributed-lock.redis.client-name=distlock-details")
            .withBean(LockRedisConnectionDetails.class, () -> new LockRedisConnectionDetails() {

                @Override
                public Standalone getStandalone() {
                    return new Standalone(lockRedis().host(), lockRedis().port(), 2);
                }
            })
            .run((context) -> {
                assertThat(context.getBean(LockConnectionDescription.class)).isEqualTo(new LockConnectionDescription(
                        lockRedis().host() + ":" + lockRedis().port() + " (standalone)",
                        LockConnectionDescription.DETAILS));
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("from-details")) {
                    assertThat(RedisKeys.keys(lockRedis().uri() + "/2", "*")).contains("lock:{from-details}");
                    assertThat(RedisKeys.keys(appRedis().uri() + "/2", "*")).isEmpty();
                    assertThat(RedisKeys.keys(appRedis().uri(), "*")).isEmpty();
                }
                assertThat(RedisKeys.clientList(lockRedis().uri())).contains("name=distlock-details");
            });
    }

    @Test
    void connectionDetailsAloneGiveTheLocksADedicatedConnection() {
        this.contextRunner.withBean(LockRedisConnectionDetails.class, () -> new LockRedisConnectionDetails() {

            @Override
            public Standalone getStandalone() {
                return Standalone.of(lockRedis().host(), lockRedis().port());
            }
        }).run((context) -> {
            assertThat(context).hasSingleBean(DedicatedLockConnection.class).doesNotHaveBean(SharedLockClient.class);
            try (LockLease lease = context.getBean(LockTemplate.class).acquire("details-only")) {
                assertThat(RedisKeys.keys(lockRedis().uri(), "*")).contains("lock:{details-only}");
                assertThat(RedisKeys.keys(appRedis().uri(), "*")).isEmpty();
            }
        });
    }

    @Test
    void connectionDetailsWithoutAnAddressFailNamingWhatToReturn() {
        this.contextRunner.withBean(LockRedisConnectionDetails.class, () -> new LockRedisConnectionDetails() {
        }).run((context) -> assertThat(context).getFailure()
            .rootCause()
            .hasMessageContaining("LockRedisConnectionDetails bean")
            .hasMessageContaining("exactly one of getStandalone(), getSentinel() and getCluster()"));
    }

    @Test
    void bootsRedisConnectionDetailsDriveTheSharedConnection() {
        ApplicationContextRunner appOnLockServerProperties = LockContextRunners.withRedis(lockRedis().host(),
                lockRedis().port());
        BootLine.withRedisConnectionDetails(appOnLockServerProperties, appRedis().host(), appRedis().port())
            .run((context) -> {
                assertThat(context).hasSingleBean(SharedLockClient.class)
                    .doesNotHaveBean(DedicatedLockConnection.class);
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("shared-details")) {
                    assertThat(RedisKeys.keys(appRedis().uri(), "*")).contains("lock:{shared-details}");
                    assertThat(RedisKeys.keys(lockRedis().uri(), "*")).isEmpty();
                }
            });
    }

    private static RedisServer appRedis() {
        return redis.server(0);
    }

    private static RedisServer lockRedis() {
        return redis.server(1);
    }
}
