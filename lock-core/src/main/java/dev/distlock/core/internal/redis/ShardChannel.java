package dev.distlock.core.internal.redis;

import org.jspecify.annotations.Nullable;

/** Where one channel of {@link ShardSubscriptions} is subscribed, and what it learned of nodes that lost its slot. */
final class ShardChannel {

    /** The node the channel is subscribed on, or being subscribed on; null while it is on none. */
    volatile @Nullable ShardNode node;

    /** A node known to have lost the slot (it dropped the channel or answered MOVED): a view naming it is stale. */
    volatile @Nullable ShardNode left;

    volatile int staleViews;

    /** Subscriptions that failed in a row; past {@code STALE_VIEWS} only a topology change tries again. */
    volatile int failures;

    void left(ShardNode node) {
        if (!node.equals(this.left)) {
            this.left = node;
            this.staleViews = 0;
        }
    }
}
