package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class HistoryChecksTests {

    private static LockEvent event(long nanos, String process, LockEvent.Type type, long token, String info) {
        return new LockEvent(nanos, process, "t", type, "L", token, info);
    }

    @Test
    void disjointSectionsPass() {
        History history = new History();
        history.add(event(10, "a", LockEvent.Type.OK, 1, ""));
        history.add(event(20, "a", LockEvent.Type.END, 1, "held=true"));
        history.add(event(21, "b", LockEvent.Type.OK, 2, ""));
        history.add(event(30, "b", LockEvent.Type.END, 2, "held=true"));
        assertThat(HistoryChecks.overlaps(history)).isEmpty();
        assertThat(HistoryChecks.nonIncreasingTokens(history)).isEmpty();
    }

    @Test
    void overlappingSectionsAreFlagged() {
        History history = new History();
        history.add(event(10, "a", LockEvent.Type.OK, 1, ""));
        history.add(event(15, "b", LockEvent.Type.OK, 2, ""));
        history.add(event(20, "a", LockEvent.Type.END, 1, "held=unchecked"));
        history.add(event(30, "b", LockEvent.Type.END, 2, "held=true"));
        assertThat(HistoryChecks.overlaps(history)).hasSize(1).first().asString().contains("token 1", "token 2");
    }

    @Test
    void aSectionThatKnewItsLeaseWasGoneClaimsOnlyItsStart() {
        History history = new History();
        history.add(event(10, "a", LockEvent.Type.OK, 1, ""));
        history.add(event(15, "b", LockEvent.Type.OK, 2, ""));
        history.add(event(20, "a", LockEvent.Type.END, 1, "held=false"));
        history.add(event(30, "b", LockEvent.Type.END, 2, "held=true"));
        assertThat(HistoryChecks.overlaps(history)).isEmpty();
    }

    @Test
    void tokensThatDoNotIncreaseAreFlagged() {
        History history = new History();
        history.add(event(10, "a", LockEvent.Type.OK, 5, ""));
        history.add(event(20, "b", LockEvent.Type.OK, 5, ""));
        assertThat(HistoryChecks.nonIncreasingTokens(history)).hasSize(1);
    }

    @Test
    void eventsRoundTripThroughTheirLineFormAndCanBeAwaited() {
        History history = new History();
        LockEvent event = new LockEvent(123, "w|1", "main", LockEvent.Type.NOTE, "L", 7, "leases=0 waiting=1");
        history.addLine(event.toLine());
        history.addLine("some log line");
        LockEvent parsed = history.await("note", Duration.ofSeconds(1), e -> e.type() == LockEvent.Type.NOTE);
        assertThat(parsed.process()).isEqualTo("w/1");
        assertThat(parsed.value("waiting")).isEqualTo("1");
        assertThat(parsed.has("leases=0")).isTrue();
        assertThat(history.size()).isEqualTo(1);
    }
}
