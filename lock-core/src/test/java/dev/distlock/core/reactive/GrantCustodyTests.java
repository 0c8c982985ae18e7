package dev.distlock.core.reactive;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every order of grant, emission and cancel leaves each lease with exactly one owner. */
class GrantCustodyTests {

    private final CountingLease lease = new CountingLease();

    private final GrantCustody custody = new GrantCustody();

    @Test
    void grantThenDeliveryHandsTheLeaseOverAndALaterCancelKeepsOut() {
        this.custody.granted(this.lease);
        assertThat(this.custody.deliver()).isTrue();
        this.custody.abandon();
        assertThat(this.lease.closes).hasValue(0);
    }

    @Test
    void deliveryBeforeTheGrantCallbackHandsTheLeaseOver() {
        assertThat(this.custody.deliver()).isTrue();
        this.custody.granted(this.lease);
        this.custody.abandon();
        assertThat(this.lease.closes).hasValue(0);
    }

    @Test
    void cancelAfterTheGrantReleasesTheUndeliveredLease() {
        this.custody.granted(this.lease);
        this.custody.abandon();
        assertThat(this.lease.closes).hasValue(1);
        assertThat(this.custody.deliver()).isFalse();
        assertThat(this.lease.closes).hasValue(1);
    }

    @Test
    void grantAfterTheCancelIsReleasedOnArrival() {
        this.custody.abandon();
        assertThat(this.custody.deliver()).isFalse();
        this.custody.granted(this.lease);
        assertThat(this.lease.closes).hasValue(1);
    }

    @Test
    void cancelBetweenGrantCallbackAndEmissionReleasesOnce() {
        this.custody.granted(this.lease);
        this.custody.abandon();
        this.custody.abandon();
        assertThat(this.custody.deliver()).isFalse();
        assertThat(this.lease.closes).hasValue(1);
    }

    /** A lease that only counts its releases. */
    private static final class CountingLease implements LockLease {

        final AtomicInteger closes = new AtomicInteger();

        @Override
        public String name() {
            return "custody";
        }

        @Override
        public long fencingToken() {
            return 1;
        }

        @Override
        public boolean isHeld() {
            return this.closes.get() == 0;
        }

        @Override
        public Duration remainingValidity() {
            return Duration.ZERO;
        }

        @Override
        public void addLossListener(LeaseLossListener listener) {
        }

        @Override
        public void close() {
            this.closes.incrementAndGet();
        }

        @Override
        public CompletionStage<Void> closeAsync() {
            close();
            return CompletableFuture.completedFuture(null);
        }
    }
}
