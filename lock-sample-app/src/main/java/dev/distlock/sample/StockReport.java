package dev.distlock.sample;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.annotation.DistributedLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A scheduled job that runs on one instance at a time, however many instances run: {@code @DistributedLock} on the
 * {@code @Scheduled} method never waits (the other instances skip the run, logged once at INFO), and
 * {@code holdAtLeast} keeps the lock after the short run so that an instance whose minute starts a little later does
 * not run it again.
 */
@Component
public class StockReport {

    private static final Logger logger = LoggerFactory.getLogger(StockReport.class);

    private final RedisLockClient client;

    /** @param client the lock client, asked for this instance's id */
    public StockReport(RedisLockClient client) {
        this.client = client;
    }

    /** Once a minute, from a minute after the start. */
    @Scheduled(fixedRateString = "${sample.report-period:60s}", initialDelayString = "${sample.report-period:60s}")
    @DistributedLock(name = "stock-report", holdAtLeast = "${sample.report-hold:50s}")
    public void report() {
        logger.info("Stock report ran on instance {}", this.client.instanceId());
    }
}
