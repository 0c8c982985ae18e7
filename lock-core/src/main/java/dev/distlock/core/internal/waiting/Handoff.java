package dev.distlock.core.internal.waiting;

import dev.distlock.core.internal.protocol.Grant;
import org.jspecify.annotations.Nullable;

/**
 * The announcement that a queued lock was handed to a waiter: the hold written for it, {@code owner|fencingToken}, or
 * {@code owner|-} when the waiter left its token to its holder's request ({@code lib/offer.lua}).
 *
 * @param owner the waiter's owner token, now written to the lock key
 * @param fencingToken the token minted for it, or {@link Grant#UNMINTED_HANDED_OVER}
 */
public record Handoff(String owner, long fencingToken) {

    /** Parses a message; null when it is not a handoff announcement. */
    static @Nullable Handoff parse(String message) {
        int bar = message.lastIndexOf('|');
        if (bar <= 0) {
            return null;
        }
        String token = message.substring(bar + 1);
        if (token.isEmpty()) {
            return null;
        }
        try {
            return new Handoff(message.substring(0, bar), Grant.parseToken(token));
        }
        catch (NumberFormatException ex) {
            return null;
        }
    }
}
