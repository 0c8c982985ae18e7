package dev.distlock.spring.boot;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.leader.LeaderCandidate;
import dev.distlock.spring.leader.LeaderElections;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;

/**
 * Leader election: a {@link LeaderElections} bean, started with the context and stopped (leadership given up) when it
 * closes, when the application declares a {@link LeaderCandidate} bean or sets {@code distributed-lock.leader.group}.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnBean(RedisLockClient.class)
@Conditional(LeaderElectionAutoConfiguration.CandidateOrGroup.class)
public final class LeaderElectionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LeaderElections leaderElections(RedisLockClient redisLockClient, ObjectProvider<LeaderCandidate> candidates,
            DistributedLockProperties properties, ApplicationEventPublisher publisher) {
        LeaderProperties leader = properties.getLeader();
        return new LeaderElections(redisLockClient, candidates.orderedStream().toList(), leader.getGroup(),
                leader.getRetryDelay(), publisher);
    }

    /** A candidate bean, or a group property. */
    static final class CandidateOrGroup extends AnyNestedCondition {

        CandidateOrGroup() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnBean(LeaderCandidate.class)
        static final class CandidateBean {

        }

        @ConditionalOnProperty("distributed-lock.leader.group")
        static final class GroupProperty {

        }
    }
}
