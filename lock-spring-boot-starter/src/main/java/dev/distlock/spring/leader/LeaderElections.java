package dev.distlock.spring.leader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.core.RedisLockClient;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * The application's leader elections, one per group: the bean the starter declares when the application has
 * {@link LeaderCandidate} beans or sets {@code distributed-lock.leader.group}. Started and stopped with the
 * application context (stopping gives leadership up, see {@link LeaderElection}); every grant and revocation is also
 * published as a {@link LeadershipEvent}.
 */
public final class LeaderElections implements SmartLifecycle {

    private final Map<String, LeaderElection> byGroup = new LinkedHashMap<>();

    /**
     * One election per candidate; a group named by {@code defaultGroup} that no candidate competes in gets a
     * candidate that only publishes events.
     *
     * @param client the lock client
     * @param candidates the application's candidates
     * @param defaultGroup the group of candidates that name none ({@code distributed-lock.leader.group})
     * @param retryDelay the pause before trying again when Redis did not answer
     * @param publisher where the {@link LeadershipEvent}s go
     * @throws IllegalStateException if a candidate has no group, or two candidates compete for the same group
     */
    public LeaderElections(RedisLockClient client, List<LeaderCandidate> candidates, @Nullable String defaultGroup,
            Duration retryDelay, ApplicationEventPublisher publisher) {
        Map<String, LeaderCandidate> candidateByGroup = new LinkedHashMap<>();
        for (LeaderCandidate candidate : candidates) {
            String group = (candidate.group() != null) ? candidate.group() : defaultGroup;
            if (group == null || group.isBlank()) {
                throw new IllegalStateException("The LeaderCandidate " + candidate.getClass().getName() + " names no"
                        + " group: return one from its group() method, or set distributed-lock.leader.group");
            }
            LeaderCandidate other = candidateByGroup.putIfAbsent(group, candidate);
            if (other != null) {
                throw new IllegalStateException("Two LeaderCandidates compete for group '" + group + "' in this"
                        + " application (" + other.getClass().getName() + " and " + candidate.getClass().getName()
                        + "): an instance leads a group once; give them different groups, or let one candidate do"
                        + " both jobs");
            }
        }
        if (defaultGroup != null && !defaultGroup.isBlank()) {
            candidateByGroup.putIfAbsent(defaultGroup, (context) -> {
            });
        }
        for (Map.Entry<String, LeaderCandidate> entry : candidateByGroup.entrySet()) {
            AtomicReference<LeaderElection> election = new AtomicReference<>();
            election.set(new LeaderElection(client, entry.getKey(),
                    new PublishingCandidate(entry.getValue(), publisher, election::get), retryDelay));
            this.byGroup.put(entry.getKey(), election.get());
        }
    }

    /** The election of a group, if this application competes in it. */
    public Optional<LeaderElection> election(String group) {
        return Optional.ofNullable(this.byGroup.get(group));
    }

    /** Every election of this application, in declaration order. */
    public List<LeaderElection> elections() {
        return List.copyOf(this.byGroup.values());
    }

    /** Whether this instance leads {@code group} now; false for a group it does not compete in. */
    public boolean isLeader(String group) {
        LeaderElection election = this.byGroup.get(group);
        return election != null && election.isLeader();
    }

    @Override
    public void start() {
        this.byGroup.values().forEach(LeaderElection::start);
    }

    @Override
    public void stop() {
        List<LeaderElection> reversed = new ArrayList<>(this.byGroup.values());
        java.util.Collections.reverse(reversed);
        reversed.forEach(LeaderElection::stop);
    }

    @Override
    public boolean isRunning() {
        return this.byGroup.values().stream().anyMatch(LeaderElection::isRunning);
    }

    @Override
    public int getPhase() {
        return LeaderElection.DEFAULT_PHASE;
    }
}
