package dev.distlock.sample;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.leader.LeaderElection;
import dev.distlock.spring.leader.LeaderElections;
import dev.distlock.spring.leader.LeadershipContext;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /leader}: whether this instance leads the {@link ReportGenerator}'s group, with which epoch, and the
 * reports it generated. {@code POST /leader/yield}: this instance gives its term up; the candidate that has waited
 * longest (another instance, or this one again with a greater epoch) leads next.
 */
@RestController
public class LeaderController {

    private final String instanceId;

    private final LeaderElection election;

    private final ReportGenerator generator;

    /**
     * @param client the lock client, asked for this instance's id
     * @param elections the application's leader elections
     * @param generator the candidate that generates the reports
     */
    public LeaderController(RedisLockClient client, LeaderElections elections, ReportGenerator generator) {
        this.instanceId = client.instanceId();
        this.election = elections.election(ReportGenerator.GROUP).orElseThrow();
        this.generator = generator;
    }

    /** This instance in the election of the report generator. */
    @GetMapping("/leader")
    public LeaderView leader() {
        Long epoch = this.election.context().filter(LeadershipContext::isLeader).map(LeadershipContext::epoch)
            .orElse(null);
        return new LeaderView(this.instanceId, ReportGenerator.GROUP, epoch != null, epoch,
                this.generator.reportsGenerated(), this.generator.lastReport());
    }

    /** Gives up this instance's term, if it leads, and answers with the view right after. */
    @PostMapping("/leader/yield")
    public LeaderView yieldLeadership() {
        this.election.yieldLeadership();
        return leader();
    }

    /**
     * This instance in the election.
     *
     * @param instanceId this instance's id
     * @param group the group
     * @param leader whether it leads now
     * @param epoch the epoch of its term, null when it does not lead
     * @param reportsGenerated the reports it generated, in all its terms
     * @param lastReport the last of them
     */
    public record LeaderView(String instanceId, String group, boolean leader, @Nullable Long epoch,
            long reportsGenerated, ReportGenerator.@Nullable Report lastReport) {
    }
}
