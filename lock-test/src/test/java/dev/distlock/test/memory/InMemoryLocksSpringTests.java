package dev.distlock.test.memory;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.test.app.ReservationApplication;
import dev.distlock.test.app.Reservations;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code @AutoConfigureInMemoryLocks}: the starter's locks, templates and annotation on the in-memory client. */
@SpringBootTest(classes = ReservationApplication.class)
@AutoConfigureInMemoryLocks
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InMemoryLocksSpringTests {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private InMemoryLockClient locks;

    @Autowired
    private Reservations reservations;

    @Test
    void theStarterRunsOnTheInMemoryClientWithoutARedisLockClient() {
        assertThat(this.context.getBeansOfType(LockClient.class)).containsOnlyKeys("inMemoryLockClient");
        assertThat(this.context.getBeanNamesForType(RedisLockClient.class)).isEmpty();
        assertThat(this.context.getBean(LockTemplate.class).client()).isSameAs(this.locks);
    }

    @Test
    void annotatedMethodRunsUnderItsLock() {
        assertThat(this.reservations.reserve("sku-1")).startsWith("reservation:sku-1#");
        assertThat(this.locks.getLock("reservation:sku-1").isLocked()).isFalse();
    }

    @Test
    void busyLockTakesTheFallbackOrFailsNamingTheHolder() {
        this.locks.holdAsInstance("reservation:sku-2", "shop@host-2");
        assertThat(this.reservations.tryReserve("sku-2")).isEqualTo("sku-2 is busy on shop@host-2");
        assertThatExceptionOfType(LockNotAcquiredException.class)
            .isThrownBy(() -> this.reservations.reserve("sku-2"))
            .withMessageContaining("instance shop@host-2");
    }

    @Test
    void lostLeaseFailsTheCallAfterTheWork() {
        this.locks.loseNextLease("reservation:sku-3");
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> this.reservations.reserve("sku-3"));
    }

    @Test
    @Order(1)
    void aTestThatLeavesALockBusy() {
        this.locks.holdAsInstance("reservation:leaked", "other");
        assertThat(this.reservations.tryReserve("leaked")).contains("is busy");
    }

    @Test
    @Order(2)
    void findsItFreeAfterTheResetBetweenTests() {
        assertThat(this.reservations.tryReserve("leaked")).isEqualTo("reserved leaked");
    }
}
