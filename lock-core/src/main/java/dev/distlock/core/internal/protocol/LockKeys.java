package dev.distlock.core.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * Redis key and channel names of one lock. Every name shares one Redis Cluster hash tag, so multi-key scripts stay in
 * one slot. A user name with braces would break the tag, so such names are tagged by their SHA-1 instead:
 * {@code prefix{h:<sha1>}name}. That form cannot collide with a plain {@code prefix{name}} because a plain name has no
 * braces and the hashed form always contains one after the tag.
 *
 * @param name the user's lock name
 * @param lockKey the key that holds the owner token
 * @param fenceKey the key that holds the last fencing token
 * @param channel the pub/sub channel a release is published on
 */
public record LockKeys(String name, String lockKey, String fenceKey, String channel) {

    /** Validates the name and derives its keys. */
    public static LockKeys of(String prefix, @Nullable String name, int maxNameLength) {
        validateName(name, maxNameLength);
        String base = (name.indexOf('{') >= 0 || name.indexOf('}') >= 0)
                ? prefix + "{h:" + sha1(name) + "}" + name
                : prefix + "{" + name + "}";
        return new LockKeys(name, base, base + ":fence", base + ":released");
    }

    /** The list of waiters queued for {@link #lockKey()}, in arrival order. */
    public String queueKey() {
        return this.lockKey + ":queue";
    }

    /** Marks an abandoned acquisition of {@code owner} so that it is never granted later. */
    public String tombstoneKey(String owner) {
        return this.lockKey + ":abandoned:" + owner;
    }

    /** A key of this lock's hash tag that no lock kind uses, for scripts that take a key they do not need. */
    String unusedKey() {
        return this.lockKey + ":none";
    }

    static void validateName(@Nullable String name, int maxNameLength) {
        if (name == null) {
            throw new IllegalArgumentException("Lock name must not be null");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("Lock name must not be blank, was '" + name + "'");
        }
        if (name.length() > maxNameLength) {
            throw new IllegalArgumentException("Lock name is " + name.length() + " characters long, more than the "
                    + maxNameLength + " allowed (starts with '" + name.substring(0, Math.min(40, name.length()))
                    + "...'); hash long keys before using them as lock names");
        }
    }

    private static String sha1(String value) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-1 is required by every Java runtime", ex);
        }
    }
}
