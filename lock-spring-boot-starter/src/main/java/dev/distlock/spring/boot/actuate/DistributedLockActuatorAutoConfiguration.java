package dev.distlock.spring.boot.actuate;

import java.time.Clock;
import java.time.Duration;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.spring.leader.LeaderElections;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator support for distributed locks: the {@code distributedlocks} endpoint and the {@code distributedLock}
 * health contributor (put in the readiness group by {@link ReadinessGroupDefaults}), when Spring Boot Actuator is on the class path.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(RedisLockClient.class)
public final class DistributedLockActuatorAutoConfiguration {

    /** Leases lost within this window show in the health details. */
    static final Duration LOSS_WINDOW = Duration.ofMinutes(5);

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    DistributedLocksEndpoint distributedLocksEndpoint(RedisLockClient redisLockClient,
            ObjectProvider<LeaderElections> leaderElections) {
        return new DistributedLocksEndpoint(redisLockClient, leaderElections.getIfAvailable());
    }

    /** A 405 that names the property when DELETE (force-release) is refused on the read-only endpoint. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
    @ConditionalOnAvailableEndpoint(DistributedLocksEndpoint.class)
    static class ForceReleaseOffConfiguration {

        @Bean
        ForceReleaseOffResolver distributedLockForceReleaseOffResolver() {
            return new ForceReleaseOffResolver();
        }
    }

    /** Spring Boot 4: health types in {@code org.springframework.boot.health}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Boot4HealthConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnEnabledHealthIndicator("distributedLock")
        static class Enabled {

            @Bean
            RecentLeaseLosses distributedLockRecentLosses(RedisLockClient redisLockClient) {
                return recentLosses(redisLockClient);
            }

            @Bean
            @ConditionalOnMissingBean(name = "distributedLockHealthIndicator")
            DistributedLockHealthIndicator distributedLockHealthIndicator(RedisLockClient redisLockClient,
                    RecentLeaseLosses distributedLockRecentLosses) {
                return new DistributedLockHealthIndicator(
                        new LockHealthCheck(redisLockClient, distributedLockRecentLosses));
            }
        }
    }

    /** Spring Boot 3.5: health types in {@code org.springframework.boot.actuate.health}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class Boot3HealthConfiguration {

        @Configuration(proxyBeanMethods = false)
        @org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator("distributedLock")
        static class Enabled {

            @Bean
            RecentLeaseLosses distributedLockRecentLosses(RedisLockClient redisLockClient) {
                return recentLosses(redisLockClient);
            }

            @Bean
            @ConditionalOnMissingBean(name = "distributedLockHealthIndicator")
            Boot3LockHealthIndicator distributedLockHealthIndicator(RedisLockClient redisLockClient,
                    RecentLeaseLosses distributedLockRecentLosses) {
                return new Boot3LockHealthIndicator(new LockHealthCheck(redisLockClient, distributedLockRecentLosses));
            }
        }
    }

    private static RecentLeaseLosses recentLosses(RedisLockClient redisLockClient) {
        RecentLeaseLosses losses = new RecentLeaseLosses(LOSS_WINDOW, Clock.systemUTC());
        redisLockClient.addEventListener(losses);
        return losses;
    }
}
