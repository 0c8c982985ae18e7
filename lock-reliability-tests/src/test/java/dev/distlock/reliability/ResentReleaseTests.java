package dev.distlock.reliability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * S2 and S6: a release whose reply is lost to a connection reset. The release ran on Redis; Lettuce re-sends it after
 * reconnecting, and that second run finds the key gone. The critical section ran entirely under a valid lease, so the
 * release must succeed, not report the lease as lost.
 */
@DisplayName("release re-sent after a connection reset")
class ResentReleaseTests extends SingleServerFaultTest {

    @Test
    void aReleaseThatRanBeforeTheResetIsNotReportedAsLost() throws Exception {
        // An operation timeout longer than the test's reset, so the release's reply is awaited across the reconnect.
        RedisLockClient client = this.clients.lockClient(proxy().uri(), Clients.fastOptions()
            .watchdogLease(Duration.ofSeconds(30)).operationTimeout(Duration.ofSeconds(5)).build());
        LockLease lease = client.getLock("resent").acquire(Duration.ZERO);

        proxy().halfOpen();
        CompletableFuture<Void> released = lease.closeAsync().toCompletableFuture();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
            .until(() -> this.raw.exists("lock:{resent}") == 0);
        assertThat(released).as("the reply was lost").isNotDone();
        proxy().pass();
        // A graceful close: Lettuce keeps the release and sends it again once reconnected.
        proxy().closeAll();

        assertThat(released).as("the release after the re-sent run").succeedsWithin(Duration.ofSeconds(10));
        assertThat(client.activeLeaseCount()).isZero();
        Measured.report("S6", "release re-sent after a connection reset: completed normally (the re-sent run found "
                + "the key gone; " + proxy().resetConnections() + " connections closed)");
    }
}
