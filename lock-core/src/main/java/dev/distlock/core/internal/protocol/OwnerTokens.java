package dev.distlock.core.internal.protocol;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * Mints owner tokens {@code <instanceId>:<clientId>:<counter>}: the configured instance id (who holds a lock, for
 * people), 96 random bits drawn once per client (so two clients never mint the same token, and tokens of one client
 * cannot be guessed from outside it), and a per-client counter in base 36 (so two acquisitions of one client never
 * share a token). Only the counter changes per acquisition: no random number is drawn on the hot path.
 *
 * <p>Tokens contain no spaces and no {@code '|'}; the client id and counter contain no {@code ':'}, so the instance id
 * is everything before the second-to-last {@code ':'} even when it contains colons itself.
 */
public final class OwnerTokens {

    private static final int CLIENT_ID_BYTES = 12;

    private final String instanceId;

    private final String clientId;

    private final String prefix;

    private final AtomicLong counter = new AtomicLong();

    public OwnerTokens(String instanceId) {
        this.instanceId = instanceId;
        byte[] random = new byte[CLIENT_ID_BYTES];
        new SecureRandom().nextBytes(random);
        this.clientId = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        this.prefix = instanceId + ":" + this.clientId + ":";
    }

    String instanceId() {
        return this.instanceId;
    }

    public String clientId() {
        return this.clientId;
    }

    public String next() {
        return this.prefix + Long.toString(this.counter.incrementAndGet(), Character.MAX_RADIX);
    }

    /** The instance id inside an owner token, or null when the token has not the shape this class mints. */
    public static @Nullable String instanceIdOf(@Nullable String owner) {
        if (owner == null) {
            return null;
        }
        int counterStart = owner.lastIndexOf(':');
        int clientStart = (counterStart > 0) ? owner.lastIndexOf(':', counterStart - 1) : -1;
        return (clientStart > 0) ? owner.substring(0, clientStart) : null;
    }
}
