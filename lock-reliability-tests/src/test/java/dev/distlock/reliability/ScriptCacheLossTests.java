package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.History;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F14 and L5: the script cache is flushed every 100 ms under load, and the server restarts once. */
@DisplayName("F14 SCRIPT FLUSH every 100 ms and a restart under load")
class ScriptCacheLossTests extends SingleServerFaultTest {

    @Test
    void noOperationFailsWithNoscript() throws Exception {
        Duration run = Soak.duration(Duration.ofSeconds(6), Duration.ofMinutes(2));
        History history = new History();
        RedisLockClient first = this.clients.lockClient(redis.uri());
        RedisLockClient second = this.clients.lockClient(redis.uri());
        List<String> locks = List.of("f14-a", "f14-b", "f14-c");
        LoadLoop a = new LoadLoop("f14-first", first::getLock, locks, null, history)
            .start(3, Integer.MAX_VALUE, Duration.ofSeconds(5), 300);
        LoadLoop b = new LoadLoop("f14-second", second::getLock, locks, null, history)
            .start(3, Integer.MAX_VALUE, Duration.ofSeconds(5), 300);
        long flushes = 0;
        long start = System.nanoTime();
        long end = start + run.toNanos();
        boolean restarted = false;
        long sectionsAtRestart = 0;
        while (System.nanoTime() - end < 0) {
            Thread.sleep(100);
            try {
                this.raw.scriptFlush();
                flushes++;
            }
            catch (RuntimeException ex) {
                // the server is restarting
            }
            if (!restarted && System.nanoTime() - start > run.toNanos() / 2) {
                restarted = true;
                sectionsAtRestart = a.sections() + b.sections();
                redis.server().restart();
            }
        }
        a.stop(Duration.ofSeconds(10));
        b.stop(Duration.ofSeconds(10));
        long afterRestart = a.sections() + b.sections() - sectionsAtRestart;
        long noscript = a.errorsContaining("NOSCRIPT") + b.errorsContaining("NOSCRIPT");
        Measured.report("F14", (a.sections() + b.sections()) + " sections with " + flushes
                + " SCRIPT FLUSHes and one restart; " + afterRestart + " sections after the restart; NOSCRIPT failures="
                + noscript + "; other errors: " + a.errors() + " " + b.errors());
        assertThat(noscript).as("operations failed with NOSCRIPT").isZero();
        assertThat(afterRestart).as("progress after the restart").isPositive();
        assertThat(flushes).isGreaterThan(run.toMillis() / 200);
        await().atMost(Clients.LEASE.plusSeconds(3)).untilAsserted(() -> {
            assertThat(first.activeLeaseCount() + second.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
