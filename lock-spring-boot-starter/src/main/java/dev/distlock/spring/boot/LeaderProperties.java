package dev.distlock.spring.boot;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/** Leader election ({@code distributed-lock.leader.*}, see {@code dev.distlock.spring.leader}). */
public class LeaderProperties {

    /**
     * Group this instance competes to lead, for LeaderCandidate beans that name none; set without a candidate
     * bean, the election runs alone and publishes LeadershipEvents.
     */
    private @Nullable String group;

    /** Pause before a candidate tries again after Redis did not answer. */
    private Duration retryDelay = Duration.ofSeconds(1);

    public @Nullable String getGroup() {
        return this.group;
    }

    public void setGroup(@Nullable String group) {
        this.group = group;
    }

    public Duration getRetryDelay() {
        return this.retryDelay;
    }

    public void setRetryDelay(Duration retryDelay) {
        this.retryDelay = retryDelay;
    }
}
