package dev.distlock.core.internal.waiting;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where this client's waiters stand in a lock's queue: only waiters still expecting a handoff count. */
class HandoffRoomTests {

    private final List<String> events = new ArrayList<>();

    private final HandoffRooms.Room room = new HandoffRooms.Room("lock:{a}:h:vm:1", (orphan) -> { });

    @Test
    void aPlaceReportedAfterItsWaiterWasForgottenIsNotKept() {
        this.room.expect("early", waiter("early"));
        this.room.expect("late", waiter("late"));
        assertThat(this.room.standsAt("late", 3)).as("alone in the room: it checks").isTrue();
        // The early waiter's queueing reply comes after it was granted and forgotten (another thread finished it).
        this.room.forget("early");

        this.room.standsAt("early", 1);
        this.room.dropIfGone("early");

        assertThat(this.room.isQueued()).as("the late waiter still stands in the queue").isTrue();
        assertThat(this.events).as("the late waiter is told it checks again once the stale place is gone")
            .containsExactly("late became checker");
        this.room.forget("late");
        assertThat(this.room.isQueued()).as("nobody of this client stands in the queue").isFalse();
    }

    @Test
    void aPlaceOfAWaiterStillExpectedIsKept() {
        this.room.expect("only", waiter("only"));
        this.room.standsAt("only", 0);

        this.room.dropIfGone("only");

        assertThat(this.room.isQueued()).isTrue();
        assertThat(this.events).isEmpty();
    }

    @Test
    void theWaiterFurthestAheadChecks() {
        this.room.expect("second", waiter("second"));
        this.room.expect("first", waiter("first"));
        assertThat(this.room.standsAt("second", 2)).isTrue();
        assertThat(this.room.standsAt("first", 0)).isTrue();
        assertThat(this.room.standsAt("second", 1)).as("still behind the first").isFalse();

        this.room.forget("first");

        assertThat(this.events).containsExactly("second became checker");
    }

    private HandoffRooms.Waiter waiter(String name) {
        return new HandoffRooms.Waiter() {

            @Override
            public void handedOver(Handoff handoff) {
                HandoffRoomTests.this.events.add(name + " handed over");
            }

            @Override
            public void clientClosed() {
                HandoffRoomTests.this.events.add(name + " closed");
            }

            @Override
            public void becameChecker() {
                HandoffRoomTests.this.events.add(name + " became checker");
            }
        };
    }
}
