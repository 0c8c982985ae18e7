package dev.distlock.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** What the auto-configuration tests start from: an application whose Redis is a test server, with the locks. */
public final class LockContextRunners {

    private LockContextRunners() {
    }

    /** Spring Data Redis and {@link DistributedLockAutoConfiguration}, with {@code spring.data.redis.*} set. */
    public static ApplicationContextRunner withRedis(String host, int port) {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                    DistributedLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + host, "spring.data.redis.port=" + port);
    }
}
