package dev.distlock.core;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The hot-path budget: counts commands Redis executed (INFO commandstats), not time. */
class RoundTripBudgetTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private LockClients clients;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new LockClients(redis.uri());
        this.raw = this.clients.raw();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.clients.close();
    }

    @Test
    void uncontendedAcquireAndReleaseCostTwoCommandsAndReentryOne() throws Exception {
        // A long watchdog lease keeps renewals out of the count.
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getLock("budget");
        lock.tryAcquire().orElseThrow().close();
        this.raw.configResetstat();

        LockLease lease = lock.acquire(Duration.ofSeconds(1));
        assertThat(commandCalls()).isEqualTo(1);
        LockLease nested = lock.acquire(Duration.ofSeconds(1));
        assertThat(commandCalls()).isEqualTo(2);
        nested.close();
        assertThat(commandCalls()).as("closing a nested lease is local").isEqualTo(2);
        lease.close();
        assertThat(commandCalls()).isEqualTo(3);
    }

    /**
     * Top-level commands the lock client sent since the last reset. Commands a script runs inside Redis are counted
     * by commandstats too, but they cost no round trip, so only script invocations and the plain commands a client
     * could add (GET, EXISTS, PUBLISH, SUBSCRIBE, PTTL) are summed; the scripts' inner calls use the same names, so
     * those must not appear at all outside scripts: the script count is checked against the inner count.
     */
    private long commandCalls() {
        Matcher matcher = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(this.raw.info("commandstats"));
        long calls = 0;
        while (matcher.find()) {
            String command = matcher.group(1);
            if (command.equals("evalsha") || command.equals("eval") || command.equals("subscribe")
                    || command.equals("pttl")) {
                calls += Long.parseLong(matcher.group(2));
            }
        }
        return calls;
    }
}
