package dev.distlock.spring.boot.observation;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DistributedLockObservationAutoConfigurationTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class, DistributedLockObservationAutoConfiguration.class))
        .withBean(TestObservationRegistry.class, () -> this.registry)
        .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                "distributed-lock.lease-time=900ms");

    @Test
    void aHoldIsObservedFromGrantToReleaseWithLowCardinalityTags() {
        this.contextRunner.run((context) -> {
            try (LockLease lease = context.getBean(RedisLockClient.class).getLock("orders:7").acquire(Duration.ZERO)) {
                assertThat(context.getBean(LockObservations.class).openHolds()).isEqualTo(1);
            }
            assertThat(context.getBean(LockObservations.class).openHolds()).isZero();
            TestObservationRegistryAssert.assertThat(this.registry)
                .hasObservationWithNameEqualTo(LockObservations.HOLD)
                .that()
                .hasBeenStarted()
                .hasBeenStopped()
                .hasLowCardinalityKeyValue("lock.kind", "reentrant")
                .hasHighCardinalityKeyValue("lock.name", "orders:7")
                .doesNotHaveLowCardinalityKeyValueWithKey("lock.name");
        });
    }

    @Test
    void aLostLeaseEndsItsHoldWithAnErrorAndIsObservedOnItsOwn() {
        this.contextRunner.run((context) -> {
            RedisLockClient client = context.getBean(RedisLockClient.class);
            LockLease lease = client.getLock("lost").acquire(Duration.ZERO);
            client.getLock("lost").forceUnlock();
            await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isHeld());
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> TestObservationRegistryAssert
                .assertThat(this.registry)
                .hasObservationWithNameEqualTo(LockObservations.LEASE_LOST)
                .that()
                .hasLowCardinalityKeyValue("lock.loss.reason", "renewal_refused"));
            TestObservationRegistryAssert.assertThat(this.registry)
                .hasObservationWithNameEqualTo(LockObservations.HOLD)
                .that()
                .hasBeenStopped()
                .assertThatError()
                .isNotNull();
        });
    }

    @Test
    void observationCanBeTurnedOff() {
        this.contextRunner.withPropertyValues("distributed-lock.observation.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(LockObservations.class));
    }
}
