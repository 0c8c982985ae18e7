package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Every future a client hands out completes, and a cancelled first attempt leaves no place in a queue behind. */
class ClosingAndCancellingTests extends RedisLockTest {

    @BeforeEach
    void setUp(RedisCommands<String, String> raw) {
    }

    @ParameterizedTest
    @ValueSource(strings = { "reentrant", "write" })
    void anAsyncAcquireWaitingWhenItsClientClosesCompletes(String kind) throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        // A fixed lease: the holder's validity must not depend on its watchdog keeping up on a loaded machine.
        try (LockLease held = lock(holder, kind).acquire(Duration.ZERO, Duration.ofSeconds(60))) {
            CompletableFuture<LockLease> waiting = lock(waiter, kind).acquireAsync(Duration.ofSeconds(60))
                .toCompletableFuture();
            Thread.sleep(300);
            assertThat(waiting).isNotDone();

            waiter.close();

            assertThatExceptionOfType(ExecutionException.class)
                .isThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                .withCauseInstanceOf(LockOperationException.class);
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Test
    void aWriterCancelledDuringItsFirstAttemptDoesNotKeepReadersOut() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient writer = this.clients.create();
        RedisLockClient reader = this.clients.create();
        for (int i = 0; i < 20; i++) {
            LockLease held = holder.getReadWriteLock("rw").writeLock().acquire(Duration.ZERO);
            CompletableFuture<LockLease> waiting = writer.getReadWriteLock("rw").writeLock()
                .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
            waiting.cancel(false);
            // Let the cancelled attempt's reply and clean-up arrive (no waiting writer must stay registered).
            Thread.sleep(50);
            held.close();
            assertThat(this.raw.llen("lock:{rw}:write:queue")).as("round %d: no queued writer left", i).isZero();
            try (LockLease read = reader.getReadWriteLock("rw").readLock().tryAcquire().orElseThrow()) {
                assertThat(read.isHeld()).isTrue();
            }
        }
    }

    private static RedisLock lock(RedisLockClient client, String kind) {
        return "write".equals(kind) ? client.getReadWriteLock("closing").writeLock() : client.getLock("closing");
    }
}
