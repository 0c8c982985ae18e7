package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.ReplicaAckPolicy;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.aop.DistributedLockAdvisor;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.aop.LockOperationSource;
import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.aspectj.annotation.AnnotationAwareAspectJAutoProxyCreator;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.framework.autoproxy.InfrastructureAdvisorAutoProxyCreator;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SuppressWarnings("try") // leases held open only to keep a lock busy
class DistributedLockAutoConfigurationTests {

    /** Server 0 is the application's Redis, server 1 a separate one for dedicated lock connections. */
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.independent(2);

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(appRedis().host(),
            appRedis().port());

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void defaultWiringLocksOnTheApplicationsRedis() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasSingleBean(RedisLockClient.class)
                .hasSingleBean(LockTemplate.class)
                .hasSingleBean(DistributedLockAdvisor.class)
                .hasSingleBean(LockOperationSource.class)
                .hasSingleBean(SharedLockClient.class)
                .doesNotHaveBean(DedicatedLockConnection.class);
            LockTemplate template = context.getBean(LockTemplate.class);
            try (LockLease lease = template.acquire("wiring")) {
                assertThat(lease.isHeld()).isTrue();
                assertThat(RedisKeys.keys(appRedis().uri(), "*")).contains("lock:{wiring}");
                assertThat(RedisKeys.keys(lockRedis().uri(), "*")).isEmpty();
            }
            assertThat(RedisKeys.keys(appRedis().uri(), "lock:{wiring}")).isEmpty();
        });
    }

    @Test
    void propertiesAreMappedOnceForEveryLockClient() {
        this.contextRunner.withPropertyValues("distributed-lock.redis.url=" + lockRedis().uri()).run((context) -> {
            LockClientSettings settings = context.getBean(LockClientSettings.class);
            assertThat(context.getBean(RedisLockClient.class).options()).isSameAs(settings.clientOptions());
        });
        this.contextRunner.run((context) -> {
            LockClientSettings settings = context.getBean(LockClientSettings.class);
            assertThat(context.getBean(RedisLockClient.class).options()).isSameAs(settings.clientOptions());
        });
    }

    @Test
    void clientAndTemplateFollowTheProperties() {
        this.contextRunner
            .withPropertyValues("distributed-lock.key-prefix=app-locks:", "distributed-lock.lease-time=2s",
                    "distributed-lock.operation-timeout=700ms", "distributed-lock.max-backoff=250ms",
                    "distributed-lock.handoff-offer=1500ms",
                    "distributed-lock.fencing=false", "distributed-lock.wait-time=0",
                    "distributed-lock.lost-lease-policy=ignore", "distributed-lock.fencing-counter-retention=2h",
                    "distributed-lock.max-name-length=64", "distributed-lock.replica-acks.timeout=50ms",
                    "distributed-lock.replica-acks.policy=warn")
            .run((context) -> {
                LockClientOptions options = context.getBean(RedisLockClient.class).options();
                assertThat(options.keyPrefix()).isEqualTo("app-locks:");
                assertThat(options.watchdogLease()).isEqualTo(Duration.ofSeconds(2));
                assertThat(options.operationTimeout()).isEqualTo(Duration.ofMillis(700));
                assertThat(options.maxBackoff()).isEqualTo(Duration.ofMillis(250));
                assertThat(options.handoffOffer()).isEqualTo(Duration.ofMillis(1500));
                assertThat(options.fencing()).isFalse();
                assertThat(options.fencingCounterRetention()).isEqualTo(Duration.ofHours(2));
                assertThat(options.maxNameLength()).isEqualTo(64);
                assertThat(options.replicaAcks()).isZero();
                assertThat(options.replicaAckTimeout()).isEqualTo(Duration.ofMillis(50));
                assertThat(options.replicaAckPolicy()).isEqualTo(ReplicaAckPolicy.WARN);
                assertThatExceptionOfType(IllegalArgumentException.class)
                    .isThrownBy(() -> context.getBean(RedisLockClient.class).getLock("x".repeat(65)))
                    .withMessageContaining("more than the 64 allowed");
                assertThat(context.getBean(DistributedLockProperties.class).getLostLeasePolicy())
                    .isEqualTo(LostLeasePolicy.IGNORE);
                LockTemplate template = context.getBean(LockTemplate.class);
                try (LockLease lease = template.acquire("props")) {
                    assertThat(RedisKeys.keys(appRedis().uri(), "app-locks:*")).contains("app-locks:{props}");
                    // wait-time=0: another thread gets exactly one attempt
                    long started = System.nanoTime();
                    CompletableFuture<Object> other = CompletableFuture
                        .supplyAsync(() -> template.execute("props", (l) -> "ran"));
                    assertThat(other).failsWithin(Duration.ofSeconds(5))
                        .withThrowableOfType(Exception.class)
                        .havingCause()
                        .isInstanceOfSatisfying(LockNotAcquiredException.class,
                                (ex) -> assertThat(ex.waitTime()).isZero());
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
                }
            });
    }

    @Test
    void userBeansReplaceTheAutoConfiguredOnes() {
        this.contextRunner.withUserConfiguration(UserLockBeans.class).run((context) -> {
            assertThat(context).hasSingleBean(RedisLockClient.class).hasSingleBean(LockTemplate.class);
            assertThat(context.getBean(RedisLockClient.class)).isSameAs(context.getBean("myLockClient"));
            assertThat(context.getBean(LockTemplate.class)).isSameAs(context.getBean("myLockTemplate"));
            assertThat(context).doesNotHaveBean(SharedLockClient.class);
            try (LockLease lease = context.getBean(LockTemplate.class).acquire("user")) {
                assertThat(RedisKeys.keys(lockRedis().uri(), "*")).contains("mine:{user}");
                assertThat(RedisKeys.keys(appRedis().uri(), "*")).isEmpty();
            }
        });
    }

    @Test
    void annotationWaitsTheDefaultOfAnApplicationTemplate() {
        this.contextRunner.withUserConfiguration(UserLockBeans.class).withBean(LockedRunner.class).run((context) -> {
            LockTemplate template = context.getBean(LockTemplate.class);
            assertThat(template.defaultWaitTime()).isEqualTo(Duration.ofMillis(100));
            LockedRunner runner = context.getBean(LockedRunner.class);
            try (LockLease held = template.acquire("default-wait:d1")) {
                CompletableFuture<String> other = CompletableFuture.supplyAsync(() -> {
                    try {
                        return runner.defaultWait("d1", () -> "ran");
                    }
                    catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                });
                assertThat(other).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(Exception.class)
                    .havingRootCause()
                    .isInstanceOfSatisfying(LockNotAcquiredException.class,
                            (ex) -> assertThat(ex.waitTime()).isEqualTo(Duration.ofMillis(100)));
            }
        });
    }

    @Test
    void disabledLeavesNoLockBeans() {
        this.contextRunner.withPropertyValues("distributed-lock.enabled=false").run((context) -> {
            assertThat(context).hasNotFailed()
                .doesNotHaveBean(RedisLockClient.class)
                .doesNotHaveBean(LockTemplate.class)
                .doesNotHaveBean(DistributedLockAdvisor.class)
                .doesNotHaveBean(DistributedLockProperties.class)
                .doesNotHaveBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME);
            assertThat(context).hasSingleBean(LettuceConnectionFactory.class);
        });
    }

    @Test
    void dedicatedConnectionKeepsLocksOnItsOwnRedisAndIsShutDownWithTheContext() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.host=" + lockRedis().host(),
                    "distributed-lock.redis.port=" + lockRedis().port(),
                    "distributed-lock.redis.client-name=distlock-dedicated", "distributed-lock.redis.timeout=2s",
                    "distributed-lock.redis.connect-timeout=1s")
            .run((context) -> {
                assertThat(context).hasSingleBean(DedicatedLockConnection.class)
                    .doesNotHaveBean(SharedLockClient.class);
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("dedicated")) {
                    assertThat(RedisKeys.keys(lockRedis().uri(), "*")).contains("lock:{dedicated}");
                    assertThat(RedisKeys.keys(appRedis().uri(), "*")).isEmpty();
                }
                assertThat(RedisKeys.clientList(lockRedis().uri())).contains("name=distlock-dedicated");
            });
        assertThat(RedisKeys.clientList(lockRedis().uri())).doesNotContain("name=distlock-dedicated");
    }

    @Test
    void dedicatedConnectionFromUrl() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.url=redis://" + lockRedis().host() + ":" + lockRedis().port()
                    + "/3")
            .run((context) -> {
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("from-url")) {
                    assertThat(RedisKeys.keys(lockRedis().uri() + "/3", "*")).contains("lock:{from-url}");
                    assertThat(RedisKeys.keys(lockRedis().uri(), "*")).isEmpty();
                }
            });
    }

    @Test
    void clusterApplicationCanKeepLocksOnADedicatedRedis() {
        this.contextRunner
            .withPropertyValues("spring.data.redis.cluster.nodes=" + appRedis().host() + ":" + appRedis().port(),
                    "distributed-lock.redis.host=" + lockRedis().host(),
                    "distributed-lock.redis.port=" + lockRedis().port())
            .run((context) -> {
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("beside-cluster")) {
                    assertThat(RedisKeys.keys(lockRedis().uri(), "*")).contains("lock:{beside-cluster}");
                }
            });
    }

    @Test
    void missingRedisConnectionFactoryFailsWithAClearMessage() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("no unique RedisConnectionFactory")
                .hasMessageContaining("distributed-lock.redis.*"));
    }

    @Test
    void lockClientIsClosedBeforeTheConnectionFactoryStops() {
        this.contextRunner.run((context) -> {
            LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
            SharedLockClient lifecycle = context.getBean(SharedLockClient.class);
            assertThat(lifecycle.getPhase()).isGreaterThan(factory.getPhase());
            assertThat(lifecycle.isRunning()).isTrue();
            String clientsBefore = RedisKeys.clientList(appRedis().uri());
            context.stop();
            assertThat(lifecycle.isRunning()).isFalse();
            assertThat(factory.isRunning()).isFalse();
            assertThat(countLines(RedisKeys.clientList(appRedis().uri())))
                .isLessThan(countLines(clientsBefore));
            LockTemplate template = context.getBean(LockTemplate.class);
            assertThatExceptionOfType(LockException.class)
                .isThrownBy(() -> template.execute("after-stop", (lease) -> "ran"));
        });
    }

    @Test
    void adviceOrderFollowsTheProperty() {
        this.contextRunner.run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
            .isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER));
        this.contextRunner.withPropertyValues("distributed-lock.advice-order=42")
            .run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42));
    }

    @Test
    void annotatedBeansAreProxiedWithoutAspectJAutoProxying() {
        this.contextRunner.withUserConfiguration(LockedBeanConfiguration.class).run((context) -> {
            assertThat(context.getBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME))
                .isExactlyInstanceOf(InfrastructureAdvisorAutoProxyCreator.class);
            assertLockedCallWorks(context.getBean(LockedBean.class));
        });
    }

    @Test
    void annotatedBeansAreProxiedWithAspectJAutoProxying() {
        this.contextRunner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
            .withUserConfiguration(LockedBeanConfiguration.class)
            .run((context) -> {
                assertThat(context.getBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME))
                    .isInstanceOf(AnnotationAwareAspectJAutoProxyCreator.class);
                assertLockedCallWorks(context.getBean(LockedBean.class));
            });
    }

    private static void assertLockedCallWorks(LockedBean bean) {
        assertThat(AopUtils.isAopProxy(bean)).isTrue();
        assertThat(bean.currentLockName("42")).isEqualTo("proxied:42");
        assertThat(LockContext.currentLease()).isEmpty();
    }

    private static long countLines(String text) {
        return text.lines().filter((line) -> !line.isBlank()).count();
    }

    private static RedisServer appRedis() {
        return redis.server(0);
    }

    private static RedisServer lockRedis() {
        return redis.server(1);
    }

    @Configuration(proxyBeanMethods = false)
    static class UserLockBeans {

        @Bean(destroyMethod = "shutdown")
        RedisClient myRedisClient() {
            return RedisClient.create(lockRedis().uri());
        }

        @Bean
        RedisLockClient myLockClient(RedisClient myRedisClient) {
            return RedisLockClient.create(myRedisClient, LockClientOptions.builder().keyPrefix("mine:").build());
        }

        @Bean
        LockTemplate myLockTemplate(RedisLockClient myLockClient) {
            return new LockTemplate(myLockClient, Duration.ofMillis(100), null, LostLeasePolicy.FAIL);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LockedBeanConfiguration {

        @Bean
        LockedBean lockedBean() {
            return new LockedBean();
        }
    }

    static class LockedBean {

        @DistributedLock(name = "proxied", key = "#id", waitTime = "1s")
        String currentLockName(String id) {
            return LockContext.currentLease().map(LockLease::name).orElse("no lease");
        }
    }
}
