package dev.distlock.core;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LockTemplateTests extends RedisLockTest {

    private RedisLockClient client;

    @BeforeEach
    void setUp() throws Exception {
        this.client = this.clients.create();
    }

    @Test
    void executeRunsHoldingTheLockAndReleasesAfterwards() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        String result = template.execute("template", (lease) -> {
            assertThat(lease.isHeld()).isTrue();
            assertThat(this.raw.get("lock:{template}")).isNotNull();
            return "done:" + lease.fencingToken();
        });
        assertThat(result).startsWith("done:");
        assertThat(this.raw.exists("lock:{template}")).isZero();
    }

    @Test
    void checkedExceptionsPassThroughAndTheLockIsReleased() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        assertThatExceptionOfType(IOException.class).isThrownBy(() -> template.execute("failing", (lease) -> {
            throw new IOException("disk full");
        })).withMessage("disk full");
        assertThat(this.raw.exists("lock:{failing}")).isZero();
    }

    @Test
    void tryExecuteIsEmptyWhenTheLockStaysBusy() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        try (LockLease held = this.clients.create().getLock("busy").acquire(Duration.ZERO)) {
            Optional<String> result = template.tryExecute("busy", Duration.ZERO, (lease) -> "ran");
            assertThat(result).isEmpty();
        }
        assertThat(template.tryExecute("busy", Duration.ZERO, (lease) -> "ran")).contains("ran");
    }

    @Test
    void executeThrowsNotAcquiredWithoutRunningTheCallback() throws Exception {
        LockTemplate template = new LockTemplate(this.client, Duration.ofMillis(100), null, LostLeasePolicy.FAIL);
        try (LockLease held = this.clients.create().getLock("contended").acquire(Duration.ZERO)) {
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> template.execute("contended", (lease) -> {
                    throw new AssertionError("must not run");
                }));
        }
    }

    @Test
    void executeWithPermitRunsHoldingAPermitAndReturnsIt() throws Exception {
        LockTemplate template = new LockTemplate(this.client, Duration.ofMillis(200), null, LostLeasePolicy.FAIL);
        RedisSemaphore semaphore = this.client.getSemaphore("template-permits", 1);
        String result = template.executeWithPermit(semaphore, (permit) -> {
            assertThat(semaphore.holders()).singleElement()
                .satisfies((holder) -> assertThat(holder.fencingToken()).isEqualTo(permit.fencingToken()));
            assertThatExceptionOfType(LockNotAcquiredException.class).as("the only permit is held")
                .isThrownBy(() -> template.executeWithPermit(semaphore, (other) -> "must not run"));
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(semaphore.availablePermits()).isEqualTo(1);
    }

    @Test
    void aPermitLostDuringTheCallbackFailsTheCallByDefault() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        RedisSemaphore semaphore = this.client.getSemaphore("lost-permit", 2);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> template.executeWithPermit(semaphore,
                (permit) -> {
                    this.raw.del("lock:{lost-permit}:permits");
                    Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
                    return "result that must not be trusted";
                })).withMessageContaining("'lost-permit'");
    }

    @Test
    void leaseLostDuringTheCallbackFailsTheCallByDefault() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> template.execute("lost", (lease) -> {
            this.raw.del("lock:{lost}");
            Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
            return "result that must not be trusted";
        })).withMessageContaining("'lost'");
    }

    @Test
    void interruptPolicyInterruptsTheCallbackWhenTheLeaseIsLost() throws Exception {
        LockTemplate template = new LockTemplate(this.client, Duration.ZERO, null, LostLeasePolicy.INTERRUPT);
        assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> template.execute("interrupt", (lease) -> {
            this.raw.del("lock:{interrupt}");
            Thread.sleep(10_000);
            return "not reached";
        }));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void ignorePolicyReturnsTheResultOfALostLease() throws Exception {
        LockTemplate template = new LockTemplate(this.client, Duration.ZERO, null, LostLeasePolicy.IGNORE);
        String result = template.execute("ignored", (lease) -> {
            this.raw.del("lock:{ignored}");
            Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
            return "idempotent work";
        });
        assertThat(result).isEqualTo("idempotent work");
    }

    @Test
    void tryWithResourcesLeaseStyle() throws Exception {
        LockTemplate template = new LockTemplate(this.client);
        try (LockLease lease = template.acquire("resource")) {
            assertThat(lease.isHeld()).isTrue();
        }
        assertThat(this.raw.exists("lock:{resource}")).isZero();
    }
}
