package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F6 and S3: a slow network (the proxy adds 200 ms +- 100 ms each way) between the client and Redis. */
@DisplayName("F6 network delay 200 ms +- 100 ms")
class SlowNetworkValidityTests extends SingleServerFaultTest {

    @Test
    void reportedValidityNeverExceedsTheServersRemainingTtl() throws Exception {
        RedisLockClient client = this.clients.lockClient(proxy().uri(),
                Clients.fastOptions().operationTimeout(Duration.ofSeconds(3)).build());
        proxy().delay(Duration.ofMillis(200), Duration.ofMillis(100));
        List<LockLease> leases = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            leases.add((i % 2 == 0) ? client.getLock("f6-" + i).acquire(Duration.ofSeconds(5))
                    : client.getLock("f6-" + i).acquire(Duration.ofSeconds(5), Duration.ofMillis(2_500)));
        }
        int samples = 0;
        int violations = 0;
        long smallestMarginMicros = Long.MAX_VALUE;
        String firstViolation = null;
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        while (System.nanoTime() - until < 0) {
            for (int i = 0; i < leases.size(); i++) {
                LockLease lease = leases.get(i);
                long before = System.nanoTime();
                long reported = lease.remainingValidity().toNanos();
                long pttl = this.raw.pttl("lock:{f6-" + i + "}");
                long after = System.nanoTime();
                if (reported == 0) {
                    continue;
                }
                samples++;
                // the server's remaining TTL at 'before' is at most pttl + (after - before), 1 ms for PTTL rounding
                long serverAtMost = (pttl < 0) ? 0 : (pttl + 1) * 1_000_000 + (after - before);
                smallestMarginMicros = Math.min(smallestMarginMicros, (pttl * 1_000_000 - reported) / 1_000);
                if (reported > serverAtMost) {
                    violations++;
                    if (firstViolation == null) {
                        firstViolation = "lease f6-" + i + " reported " + reported / 1_000 + " us, server pttl " + pttl
                                + " ms";
                    }
                }
            }
            Thread.sleep(20);
        }
        Measured.report("F6", samples + " samples of remainingValidity() vs server PTTL under 200+-100 ms delay: "
                + violations + " above the PTTL; smallest margin PTTL - reported = "
                + String.format(java.util.Locale.ROOT, "%.1f ms", smallestMarginMicros / 1000.0)
                + "; watchdog leases held=" + leases.stream().filter(LockLease::isHeld).count() + "/6 after 4 s");
        assertThat(violations).as("first: %s", firstViolation).isZero();
        assertThat(samples).isGreaterThan(100);
        assertThat(leases.get(0).isHeld()).as("watchdog keeps a lease under 200+-100 ms delay").isTrue();
        proxy().pass();
        for (LockLease lease : leases) {
            if (lease.isHeld()) {
                lease.close();
            }
        }
    }

    @Test
    void aGrantThatArrivesAfterItsValidityIsNotReportedAsAcquired() throws Exception {
        RedisLockClient client = this.clients.lockClient(proxy().uri(),
                Clients.fastOptions().operationTimeout(Duration.ofSeconds(3)).build());
        client.getLock("f6-warm").acquire(Duration.ZERO).close();
        // 400 ms each way: the grant of a 500 ms lease reaches the client after the lease is over
        proxy().delay(Duration.ofMillis(400), Duration.ZERO);
        long start = System.nanoTime();
        Optional<LockLease> lease;
        String outcome;
        try {
            lease = client.getLock("f6-short").tryAcquire(Duration.ZERO, Duration.ofMillis(500));
            outcome = lease.map((l) -> "returned a lease (isHeld=" + l.isHeld() + ", remaining "
                    + l.remainingValidity().toMillis() + " ms)").orElse("returned empty");
        }
        catch (LockOperationException ex) {
            lease = Optional.empty();
            outcome = "failed with LockOperationException";
        }
        Measured.report("F6", "acquire of a 500 ms lease over a 800 ms round trip " + outcome + " after "
                + Measured.millis(start, System.nanoTime()));
        proxy().pass();
        assertThat(lease).as("a grant whose validity ended before it arrived must not be reported as acquired: "
                + outcome).isEmpty();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(client.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
