package dev.distlock.core.internal.protocol;

import org.jspecify.annotations.Nullable;

/**
 * A thread's holds as a protocol's {@link LockProtocol#prepare prepare} step reads them (the read-to-write upgrade
 * check, a read under the thread's own write). The hold layer's {@code ThreadHolds} implements it.
 */
public interface ThreadHoldsView {

    /** The owner of {@code thread}'s valid hold on {@code holdKey}, or null when it has none. */
    @Nullable String validOwner(String holdKey, Thread thread);

    /** Whether {@code thread} holds {@code holdKey}: its hold there was neither released nor lost. */
    boolean holds(String holdKey, Thread thread);
}
