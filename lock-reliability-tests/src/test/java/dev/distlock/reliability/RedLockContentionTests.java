package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedLockClient;
import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F24: two RedLock clients contending for one lock with one of five masters down. A release wakes the other client's
 * waiter, and the releaser's immediate re-acquire joins the waiters instead of barging, so both make progress.
 */
@DisplayName("F24 RedLock: two clients contending with 1 of 5 masters down")
class RedLockContentionTests {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

    @RegisterExtension
    final RedisExtension redis = RedisExtension.independent(5);

    @RegisterExtension
    final Clients clients = new Clients();

    private RedLockClient redLock() {
        List<RedisClient> masters = new ArrayList<>();
        for (String uri : this.redis.uris()) {
            masters.add(this.clients.redisClient(uri));
        }
        LockClientOptions options = Clients.fastOptions().build();
        return RedLockClient.create(masters, options, NODE_TIMEOUT);
    }

    @Test
    void bothClientsMakeProgressWithOneMasterDown() throws Exception {
        try (RedLockClient first = redLock(); RedLockClient second = redLock()) {
            contend(first, second);
        }
    }

    private void contend(RedLockClient first, RedLockClient second) throws Exception {
        RedisCommands<String, String> counter = this.clients.raw(this.redis.server(0).uri());
        this.redis.server(4).kill9();
        History history = new History();
        List<String> locks = List.of("f24");
        Duration run = Soak.duration(Duration.ofSeconds(5), Duration.ofMinutes(2));
        LoadLoop a = new LoadLoop("f24-first", first::getLock, locks, counter, history)
            .start(1, Integer.MAX_VALUE, Duration.ofSeconds(5), 300);
        LoadLoop b = new LoadLoop("f24-second", second::getLock, locks, counter, history)
            .start(1, Integer.MAX_VALUE, Duration.ofSeconds(5), 300);
        Thread.sleep(run.toMillis());
        a.stop(Duration.ofSeconds(15));
        b.stop(Duration.ofSeconds(15));
        List<String> overlaps = HistoryChecks.overlaps(history);
        FencedCounter.Result result = FencedCounter.check(counter, "f24");
        long total = a.sections() + b.sections();
        double firstShare = (total == 0) ? 0 : (double) a.sections() / total;
        Measured.report("F24", "2 RedLock clients on 1 lock, 1 of 5 masters down, " + run.toSeconds() + " s: "
                + a.sections() + " + " + b.sections() + " sections (" + Math.round(firstShare * 100) + " % / "
                + Math.round((1 - firstShare) * 100) + " %), " + Math.round(total / (double) run.toSeconds())
                + " grants/s, not acquired " + a.notAcquired() + " + " + b.notAcquired() + ", longest gap "
                + Math.max(a.longestGap().toMillis(), b.longestGap().toMillis()) + " ms, overlaps " + overlaps.size()
                + ", fenced writes rejected " + result.rejected() + ", errors " + a.errors() + " " + b.errors());
        assertThat(overlaps).isEmpty();
        assertThat(result.violations()).isEmpty();
        assertThat(total).as("sections in %s", run).isGreaterThan(10);
        assertThat(a.sections()).as("first client's grants").isGreaterThanOrEqualTo(total / 5);
        assertThat(b.sections()).as("second client's grants").isGreaterThanOrEqualTo(total / 5);
    }
}
