package dev.distlock.spring.boot;

import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import static org.assertj.core.api.Assertions.assertThat;

/** The start fails when the lock advice would run inside the transaction advice, and says how to fix it. */
class TransactionAdviceOrderTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(redis.host(),
            redis.port());

    @Test
    void defaultOrderRunsOutsideTransactions() {
        this.contextRunner.withUserConfiguration(DefaultTransactions.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void adviceOrderLevelWithTheTransactionAdvisorFailsTheStart() {
        this.contextRunner.withUserConfiguration(DefaultTransactions.class)
            .withPropertyValues("distributed-lock.advice-order=" + Ordered.LOWEST_PRECEDENCE)
            .run((context) -> assertThat(context).getFailure()
                .hasMessageContaining("@DistributedLock advice would run inside @Transactional")
                .hasMessageContaining("distributed-lock.advice-order is " + Ordered.LOWEST_PRECEDENCE)
                .hasMessageContaining("Set distributed-lock.advice-order to a number lower than "
                        + Ordered.LOWEST_PRECEDENCE));
    }

    @Test
    void transactionsOrderedBeforeTheLockFailTheStart() {
        this.contextRunner.withUserConfiguration(EarlyTransactions.class)
            .run((context) -> assertThat(context).getFailure()
                .hasMessageContaining("has order 0")
                .hasMessageContaining("@EnableTransactionManagement(order = ...)"));
    }

    @Test
    void noTransactionsNoCheck() {
        this.contextRunner.withPropertyValues("distributed-lock.advice-order=" + Ordered.LOWEST_PRECEDENCE)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class DefaultTransactions {

        @Bean
        PlatformTransactionManager transactionManager() {
            return new NoResourceTransactionManager();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement(order = 0)
    static class EarlyTransactions {

        @Bean
        PlatformTransactionManager transactionManager() {
            return new NoResourceTransactionManager();
        }
    }

    /** A transaction manager without a resource: enough for the advisors to exist. */
    static final class NoResourceTransactionManager extends AbstractPlatformTransactionManager {

        private static final long serialVersionUID = 1L;

        @Override
        protected Object doGetTransaction() {
            return new Object();
        }

        @Override
        protected void doBegin(Object transaction, TransactionDefinition definition) {
        }

        @Override
        protected void doCommit(DefaultTransactionStatus status) {
        }

        @Override
        protected void doRollback(DefaultTransactionStatus status) {
        }
    }
}
