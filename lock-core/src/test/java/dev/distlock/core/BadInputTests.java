package dev.distlock.core;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BadInputTests extends RedisLockTest {

    private RedisLockClient client;

    @BeforeEach
    void setUp() {
        this.client = this.clients.create();
    }

    @AfterEach
    void tearDown() throws Exception {
        assertThat(this.raw.dbsize()).as("nothing written to Redis").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "\t\n" })
    void blankNamesAreRejected(String name) {
        assertThatIllegalArgumentException().isThrownBy(() -> this.client.getLock(name))
            .withMessageContaining("must not be blank");
    }

    @Test
    void oversizedNameUnderASmallLimitGetsTheSameClearMessage() {
        RedisLockClient strict = this.clients.create(LockClientOptions.builder().maxNameLength(8).build());
        assertThatIllegalArgumentException().isThrownBy(() -> strict.getLock("orders:12345"))
            .withMessageContaining("12 characters")
            .withMessageContaining("8 allowed")
            .withMessageContaining("starts with 'orders:12345...'");
        assertThatIllegalArgumentException().isThrownBy(() -> strict.getLock("x".repeat(100)))
            .withMessageContaining("starts with '" + "x".repeat(40) + "...'");
    }

    @Test
    void nullNameIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.client.getLock(null))
            .withMessageContaining("must not be null");
    }

    @Test
    void oversizedNameIsRejectedBeforeTheNetwork() {
        String name = "x".repeat(1025);
        assertThatIllegalArgumentException().isThrownBy(() -> this.client.getLock(name))
            .withMessageContaining("1025 characters")
            .withMessageContaining("1024 allowed");
    }

    @Test
    void zeroAndNegativeLeasesAreRejected() {
        RedisLock lock = this.client.getLock("durations");
        assertThatIllegalArgumentException().isThrownBy(() -> lock.acquire(Duration.ofSeconds(1), Duration.ZERO))
            .withMessageContaining("leaseTime must be positive");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> lock.tryAcquire(Duration.ZERO, Duration.ofMillis(-1)))
            .withMessageContaining("leaseTime must be positive");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> lock.acquireAsync(Duration.ZERO, Duration.ofSeconds(-5)))
            .withMessageContaining("leaseTime must be positive");
    }

    @Test
    void negativeWaitIsRejectedWithAHint() {
        RedisLock lock = this.client.getLock("durations");
        assertThatIllegalArgumentException().isThrownBy(() -> lock.acquire(Duration.ofMillis(-1)))
            .withMessageContaining("waitTime must not be negative")
            .withMessageContaining("zero for a single attempt");
        assertThatIllegalArgumentException().isThrownBy(() -> lock.acquireAsync(Duration.ofSeconds(-1)))
            .withMessageContaining("waitTime must not be negative");
    }

    @Test
    void absurdlyLongLeaseIsRejected() {
        RedisLock lock = this.client.getLock("durations");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE)))
            .withMessageContaining("longer than the maximum");
    }

    @Test
    void closedClientRefusesToAcquire() {
        RedisLockClient closed = this.clients.create();
        closed.close();
        closed.close();
        org.assertj.core.api.Assertions.assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> closed.getLock("after-close").acquire(Duration.ZERO))
            .withMessageContaining("closed");
    }

    @Test
    void invalidOptionsNameTheSetting() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> LockClientOptions.builder().watchdogLease(Duration.ofMillis(100)).build())
            .withMessageContaining("watchdogLease");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> LockClientOptions.builder().keyPrefix("locks{x}:").build())
            .withMessageContaining("keyPrefix");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> LockClientOptions.builder().operationTimeout(Duration.ZERO).build())
            .withMessageContaining("operationTimeout");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> LockClientOptions.builder().operationTimeout(Duration.ofSeconds(1))
                .replicaAcks(1, Duration.ofSeconds(2), ReplicaAckPolicy.FAIL).build())
            .withMessageContaining("replicaAckTimeout");
    }

    @Test
    void refusedOptionCarriesItsNameValueAndRequirementWithDurationsAsWritten() {
        assertThatExceptionOfType(InvalidLockOptionException.class)
            .isThrownBy(() -> LockClientOptions.builder().watchdogLease(Duration.ofMillis(100)).build())
            .satisfies((ex) -> {
                assertThat(ex.option()).isEqualTo("watchdogLease");
                assertThat(ex.value()).isEqualTo(Duration.ofMillis(100));
                assertThat(ex.requirement()).startsWith("must be at least 300ms, was 100ms: ");
                assertThat(ex.relatedOption()).isNull();
                assertThat(ex).hasMessage("watchdogLease " + ex.requirement());
            });
        assertThatExceptionOfType(InvalidLockOptionException.class)
            .isThrownBy(() -> LockClientOptions.builder().watchdogLease(Duration.ofDays(400)).build())
            .withMessage("watchdogLease must be at most 365 days, was 400d");
        assertThatExceptionOfType(InvalidLockOptionException.class)
            .isThrownBy(() -> LockClientOptions.builder().operationTimeout(Duration.ofSeconds(1))
                .replicaAcks(1, Duration.ofSeconds(2), ReplicaAckPolicy.FAIL).build())
            .satisfies((ex) -> {
                assertThat(ex.option()).isEqualTo("replicaAckTimeout");
                assertThat(ex.requirement()).startsWith("must be shorter than operationTimeout (1s), was 2s");
                assertThat(ex.relatedOption()).isEqualTo("operationTimeout");
            });
        assertThatExceptionOfType(InvalidLockOptionException.class)
            .isThrownBy(() -> LockClientOptions.builder().instanceId("two words").build())
            .satisfies((ex) -> {
                assertThat(ex.option()).isEqualTo("instanceId");
                assertThat(ex.requirement()).startsWith("'two words' must not contain whitespace");
            });
    }
}
