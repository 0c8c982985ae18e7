package dev.distlock.core.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.jspecify.annotations.Nullable;

import dev.distlock.core.internal.protocol.OwnerTokens;

/**
 * Instance ids: the default one ({@code host:pid}), deriving one from an application name, and the check that an id
 * fits into owner tokens.
 */
public final class InstanceIds {

    /** Longest instance id accepted; it is repeated in every owner token. */
    public static final int MAX_LENGTH = 100;

    private InstanceIds() {
    }

    /** {@code host:pid}, the default when none is configured. */
    public static String defaultId() {
        return derive(null);
    }

    /**
     * {@code application@host:pid}, or {@code host:pid} without an application name; characters an instance id
     * cannot hold (whitespace, {@code '|'}, control characters) become {@code '-'}, and it is cut to
     * {@link #MAX_LENGTH}.
     */
    public static String derive(@Nullable String applicationName) {
        String base = hostName() + ":" + ProcessHandle.current().pid();
        String id = (applicationName == null || applicationName.isBlank()) ? base : applicationName.trim() + "@" + base;
        StringBuilder clean = new StringBuilder(id.length());
        id.codePoints().forEach((c) -> clean.appendCodePoint(allowed(c) ? c : '-'));
        return (clean.length() > MAX_LENGTH) ? clean.substring(clean.length() - MAX_LENGTH) : clean.toString();
    }

    /**
     * Checks an instance id.
     *
     * @throws IllegalArgumentException naming what is wrong with it
     */
    public static String validate(@Nullable String instanceId) {
        if (instanceId == null || instanceId.isEmpty()) {
            throw new IllegalArgumentException("instanceId must not be empty: it tells which instance holds a lock");
        }
        if (instanceId.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("instanceId '" + instanceId + "' is " + instanceId.length()
                    + " characters long, more than the " + MAX_LENGTH + " allowed; it is part of every owner token");
        }
        if (!instanceId.codePoints().allMatch(InstanceIds::allowed)) {
            throw new IllegalArgumentException("instanceId '" + instanceId + "' must not contain whitespace, '|' or"
                    + " control characters: it is part of every owner token");
        }
        return instanceId;
    }

    /** The instance id inside an owner token, or null when the token has not the shape this library mints. */
    public static @Nullable String ofOwnerToken(@Nullable String ownerToken) {
        return OwnerTokens.instanceIdOf(ownerToken);
    }

    private static boolean allowed(int c) {
        return c > ' ' && c != '|' && c != 0x7f && !Character.isWhitespace(c) && !Character.isISOControl(c);
    }

    private static String hostName() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isBlank()) {
            name = System.getenv("COMPUTERNAME");
        }
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            }
            catch (UnknownHostException | SecurityException ex) {
                name = "localhost";
            }
        }
        return name;
    }
}
