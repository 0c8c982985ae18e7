package dev.distlock.core;

import java.time.Duration;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReplicaAckTests {

    /** Fresh master and replica per test: tests stop the replica. */
    @RegisterExtension
    final RedisExtension redis = RedisExtension.withReplicas(1);

    private LockClients clients;

    private RedisCommands<String, String> master;

    @BeforeEach
    void setUp() {
        this.clients = new LockClients(this.redis.uri());
        this.master = this.clients.raw();
    }

    @AfterEach
    void tearDown() {
        this.clients.close();
    }

    /** Waits 500 ms for an acknowledgement that cannot come (no replica connected). */
    private RedisLockClient client(ReplicaAckPolicy policy) {
        return client(policy, Duration.ofMillis(500));
    }

    private RedisLockClient client(ReplicaAckPolicy policy, Duration ackTimeout) {
        return this.clients.create(LockClientOptions.builder().replicaAcks(1, ackTimeout, policy).build());
    }

    @Test
    void grantAcknowledgedByTheReplicaIsKept() throws Exception {
        // A connected replica acknowledges within milliseconds; 2 s leaves room for a loaded machine (500 ms once
        // did not, with another build beside the suite).
        RedisLockClient client = client(ReplicaAckPolicy.FAIL, Duration.ofSeconds(2));
        try (LockLease lease = client.getLock("acked").acquire(Duration.ZERO)) {
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void grantWithNoReplicaConnectedIsReleasedAndFailsUnderFail() {
        RedisLockClient client = client(ReplicaAckPolicy.FAIL);
        this.redis.server(1).stop();
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> client.getLock("unacked").acquire(Duration.ZERO))
            .withMessageContaining("only 0 of 1 required replicas");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2))
            .until(() -> this.master.exists("lock:{unacked}") == 0);
        assertThat(client.activeLeaseCount()).isZero();
    }

    @Test
    void grantWithNoReplicaConnectedIsKeptWithAWarningUnderWarn() throws Exception {
        RedisLockClient client = client(ReplicaAckPolicy.WARN);
        this.redis.server(1).stop();
        try (LockLease lease = client.getLock("warned").acquire(Duration.ZERO)) {
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void handedOverGrantThatNoReplicaAcknowledgedFailsAndIsReleasedUnderFail() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = client(ReplicaAckPolicy.FAIL);
        LockLease held = holder.getLock("handed").acquire(Duration.ZERO, Duration.ofSeconds(30));
        java.util.concurrent.CompletableFuture<LockLease> waited = waiter.getLock("handed")
            .acquireAsync(Duration.ofSeconds(20)).toCompletableFuture();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
            .until(() -> this.master.llen("lock:{handed}:queue") == 1);
        this.redis.server(1).stop();

        held.close();

        assertThat(waited).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
            .havingRootCause().withMessageContaining("only 0 of 1 required replicas");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
            .until(() -> this.master.exists("lock:{handed}") == 0);
        assertThat(waiter.activeLeaseCount()).isZero();
    }
}
