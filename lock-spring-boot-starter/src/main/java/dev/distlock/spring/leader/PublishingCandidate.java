package dev.distlock.spring.leader;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/** A candidate that also publishes a {@link LeadershipEvent} after each of the user's callbacks. */
final class PublishingCandidate implements LeaderCandidate {

    private final LeaderCandidate delegate;

    private final ApplicationEventPublisher publisher;

    private final Supplier<LeaderElection> election;

    PublishingCandidate(LeaderCandidate delegate, ApplicationEventPublisher publisher,
            Supplier<LeaderElection> election) {
        this.delegate = delegate;
        this.publisher = publisher;
        this.election = election;
    }

    @Override
    public @Nullable String group() {
        return this.delegate.group();
    }

    @Override
    public void onGranted(LeadershipContext context) {
        this.delegate.onGranted(context);
        this.publisher.publishEvent(new LeadershipEvent(this.election.get(), context, true));
    }

    @Override
    public void onRevoked(LeadershipContext context) {
        try {
            this.delegate.onRevoked(context);
        }
        finally {
            this.publisher.publishEvent(new LeadershipEvent(this.election.get(), context, false));
        }
    }
}
