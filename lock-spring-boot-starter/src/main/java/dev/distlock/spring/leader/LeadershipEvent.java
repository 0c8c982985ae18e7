package dev.distlock.spring.leader;

import org.springframework.context.ApplicationEvent;

/**
 * Published in the application context when this instance was granted leadership of a group, or its leadership was
 * revoked (after the candidate's callback, on the election's thread). Listen with
 * {@code @EventListener(LeadershipEvent.class)} when a property-declared group ({@code distributed-lock.leader.group})
 * has no {@link LeaderCandidate} bean, as Spring Integration's {@code OnGrantedEvent} / {@code OnRevokedEvent}.
 */
public final class LeadershipEvent extends ApplicationEvent {

    private final LeadershipContext context;

    private final boolean granted;

    LeadershipEvent(LeaderElection source, LeadershipContext context, boolean granted) {
        super(source);
        this.context = context;
        this.granted = granted;
    }

    /** The term granted or revoked. */
    public LeadershipContext context() {
        return this.context;
    }

    /** True when the term was granted, false when it was revoked. */
    public boolean isGranted() {
        return this.granted;
    }

    @Override
    public String toString() {
        return (this.granted ? "granted " : "revoked ") + this.context;
    }
}
