package dev.distlock.spring.boot;

import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** A dedicated connection authenticates with a password or an ACL user, and a wrong one fails the start clearly. */
class DedicatedConnectionAuthenticationTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults()
        .withArgs("--requirepass", "s3cret", "--user", "locker", "on", ">l0cker", "~lock:*", "&lock:*", "+@all"));

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class))
        .withPropertyValues("distributed-lock.redis.host=" + redis.host(),
                "distributed-lock.redis.port=" + redis.port());

    @Test
    void passwordAuthenticates() {
        this.contextRunner.withPropertyValues("distributed-lock.redis.password=s3cret").run(this::locks);
    }

    @Test
    void aclUserFromTheUrlAuthenticates() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.url=redis://locker:l0cker@" + redis.host() + ":" + redis.port())
            .run(this::locks);
    }

    @Test
    void wrongPasswordFailsTheStartSayingWhatToCheck() {
        this.contextRunner.withPropertyValues("distributed-lock.redis.password=wrong").run((context) -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                .contains("Could not connect to Redis for distributed locks")
                .contains("password");
        });
    }

    private void locks(ApplicationContext context) {
        try (LockLease lease = context.getBean(LockTemplate.class).acquire("authenticated")) {
            assertThat(lease.isHeld()).isTrue();
        }
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable current = failure; current != null; current = current.getCause()) {
            messages.add(String.valueOf(current.getMessage()));
        }
        return String.join("\n", messages);
    }
}
