package dev.distlock.test.memory;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientOptions;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@link InMemoryLockClient} bean of {@link AutoConfigureInMemoryLocks}, defined before the starter's
 * auto-configuration so that its Redis lock client backs off (it does when any {@link LockClient} bean exists).
 * Imported only by that annotation.
 */
@AutoConfiguration(beforeName = "dev.distlock.spring.boot.DistributedLockAutoConfiguration")
public final class InMemoryLockAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockClient.class)
    InMemoryLockClient inMemoryLockClient(Environment environment) {
        String instanceId = LockClientOptions.defaultInstanceId(environment.getProperty("spring.application.name"));
        return new InMemoryLockClient(LockClientOptions.builder().instanceId(instanceId).build());
    }
}
