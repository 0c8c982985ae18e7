package dev.distlock.spring.boot.actuate;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DistributedLockActuatorAutoConfigurationTests {

    private RedisServer redis;

    private ApplicationContextRunner contextRunner;

    @BeforeEach
    void startRedis() {
        this.redis = RedisServer.start();
        this.contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                    DistributedLockAutoConfiguration.class, EndpointAutoConfiguration.class,
                    DistributedLockActuatorAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + this.redis.host(),
                    "spring.data.redis.port=" + this.redis.port(),
                    "management.endpoints.web.exposure.include=distributedlocks",
                    "distributed-lock.instance-id=orders-1");
    }

    @AfterEach
    void stopRedis() {
        this.redis.close();
    }

    @Test
    void endpointListsTheLeasesThisInstanceHoldsAndInspectsALockByName() {
        this.contextRunner.run((context) -> {
            DistributedLocksEndpoint endpoint = context.getBean(DistributedLocksEndpoint.class);
            LockTemplate template = context.getBean(LockTemplate.class);
            try (LockLease lease = template.acquire("orders:42")) {
                assertThat(endpoint.leases().leases()).singleElement()
                    .satisfies((held) -> assertThat(held.fencingToken()).as("not asked for yet").isZero());
                long token = lease.fencingToken();
                DistributedLocksEndpoint.LeasesDescriptor leases = endpoint.leases();
                assertThat(leases.instanceId()).isEqualTo("orders-1");
                assertThat(leases.redis()).isEqualTo("127.0.0.1:" + this.redis.port());
                assertThat(leases.connected()).isTrue();
                assertThat(leases.leases()).singleElement().satisfies((held) -> {
                    assertThat(held.name()).isEqualTo("orders:42");
                    assertThat(held.kind()).isEqualTo("reentrant");
                    assertThat(held.fencingToken()).isEqualTo(token);
                    assertThat(held.ownerThread()).isEqualTo(Thread.currentThread().getName());
                    assertThat(held.heldFor()).doesNotStartWith("PT");
                });
                DistributedLocksEndpoint.LockDescriptor lock = endpoint.lock("orders:42");
                assertThat(lock.held()).isTrue();
                assertThat(lock.mode()).isEqualTo("EXCLUSIVE");
                assertThat(lock.ownerInstanceId()).isEqualTo("orders-1");
                assertThat(lock.fencingToken()).isEqualTo(token);
                assertThat(lock.remainingLease()).endsWith("s");
            }
            assertThat(endpoint.leases().leases()).isEmpty();
            assertThat(endpoint.lock("orders:42").held()).isFalse();
        });
    }

    @Test
    void endpointShowsTheSemaphoresPermitsHeldAndByWhom() {
        this.contextRunner.run((context) -> {
            DistributedLocksEndpoint endpoint = context.getBean(DistributedLocksEndpoint.class);
            assertThat(endpoint.lock("exports").semaphore()).as("not a semaphore yet").isNull();
            LockLease permit = context.getBean(RedisLockClient.class).getSemaphore("exports", 3)
                .acquire(Duration.ZERO);
            try (permit) {
                DistributedLocksEndpoint.SemaphoreDescriptor semaphore = endpoint.lock("exports").semaphore();
                assertThat(semaphore).isNotNull();
                assertThat(semaphore.permits()).isEqualTo(3);
                assertThat(semaphore.availablePermits()).isEqualTo(2);
                assertThat(semaphore.holders()).singleElement().satisfies((holder) -> {
                    assertThat(holder.ownerInstanceId()).isEqualTo("orders-1");
                    assertThat(holder.fencingToken()).isEqualTo(permit.fencingToken());
                    assertThat(holder.remainingLease()).endsWith("s");
                });
                assertThat(endpoint.leases().leases()).singleElement()
                    .satisfies((held) -> assertThat(held.kind()).isEqualTo("semaphore"));
            }
            assertThat(endpoint.lock("exports").semaphore().holders()).isEmpty();
        });
    }

    @Test
    void forceReleaseDeletesTheLockAndItsHolderLosesTheLease() {
        this.contextRunner.withPropertyValues("distributed-lock.lease-time=900ms").run((context) -> {
            DistributedLocksEndpoint endpoint = context.getBean(DistributedLocksEndpoint.class);
            LockLease lease = context.getBean(RedisLockClient.class).getLock("stuck").acquire(Duration.ZERO);
            DistributedLocksEndpoint.ForceReleaseDescriptor result = endpoint.forceRelease("stuck");
            assertThat(result.released()).isTrue();
            assertThat(result.previousOwnerInstanceId()).isEqualTo("orders-1");
            assertThat(result.mode()).isEqualTo("EXCLUSIVE");
            assertThat(endpoint.lock("stuck").held()).isFalse();
            await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isHeld());
        });
    }

    @Test
    void healthIsUpWithDetailsDownWhileRedisIsGoneAndUpAgainSoonAfterItReturns() {
        this.contextRunner.run((context) -> {
            BootLine.HealthReport up = BootLine.health(context);
            assertThat(up.status()).isEqualTo("UP");
            assertThat(up.details()).containsEntry("redis", "127.0.0.1:" + this.redis.port())
                .containsEntry("instanceId", "orders-1")
                .containsEntry("leasesLostRecently", 0)
                .containsEntry("watchdogLag", "0ms");

            this.redis.kill9();
            await().atMost(Duration.ofSeconds(5)).until(() -> BootLine.health(context).status().equals("DOWN"));
            assertThat(BootLine.health(context).details().get("error").toString())
                .contains("not connected to Redis at");

            this.redis.restart();
            long back = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> BootLine.health(context).status().equals("UP"));
            // The starter caps Lettuce's reconnect back-off at 1 s (its default grows to 30 s).
            assertThat(Duration.ofNanos(System.nanoTime() - back)).isLessThan(Duration.ofSeconds(3));
        });
    }

    @Test
    void healthCountsLeasesLostRecently() {
        this.contextRunner.withPropertyValues("distributed-lock.lease-time=900ms").run((context) -> {
            RedisLockClient client = context.getBean(RedisLockClient.class);
            LockLease lease = client.getLock("lost").acquire(Duration.ZERO);
            client.getLock("lost").forceUnlock();
            await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isHeld());
            BootLine.HealthReport health = BootLine.health(context);
            assertThat(health.details()).containsEntry("leasesLostRecently", 1);
            assertThat(health.details().get("lastLoss").toString()).startsWith("lost (RENEWAL_REFUSED)");
        });
    }

    @Test
    void healthJoinsTheReadinessGroup() {
        withHealthProbes().run((context) -> {
            assertThat(BootLine.isMember(context, "readiness", "distributedLock")).isTrue();
            assertThat(BootLine.isMember(context, "readiness", "readinessState")).isTrue();
            assertThat(BootLine.isMember(context, "liveness", "distributedLock")).isFalse();
        });
    }

    @Test
    void readinessMembershipCanBeTurnedOff() {
        withHealthProbes().withPropertyValues("distributed-lock.health.readiness=false")
            .run((context) -> assertThat(BootLine.isMember(context, "readiness", "distributedLock")).isFalse());
    }

    /** The health endpoint with Kubernetes probes, and the readiness group defaults of this library applied. */
    private ApplicationContextRunner withHealthProbes() {
        return this.contextRunner
            .withConfiguration(AutoConfigurations.of(BootLine.HEALTH_PROBES))
            .withPropertyValues("management.endpoint.health.probes.enabled=true",
                    "management.endpoints.web.exposure.include=distributedlocks,health")
            .withInitializer((context) -> new ReadinessGroupDefaults()
                .postProcessEnvironment(context.getEnvironment(), new SpringApplication()));
    }

    @Test
    void instanceIdDefaultsToTheApplicationNameHostAndPid() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                    DistributedLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + this.redis.host(),
                    "spring.data.redis.port=" + this.redis.port(), "spring.application.name=order service")
            .run((context) -> assertThat(context.getBean(RedisLockClient.class).instanceId())
                .startsWith("order-service@")
                .endsWith(":" + ProcessHandle.current().pid()));
    }
}
