package dev.distlock.core.internal;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Mints owner tokens: a random id of this client plus 128 random bits per acquisition, so an owner can neither be
 * guessed nor confused with another acquisition of the same thread.
 */
final class OwnerTokens {

    private final SecureRandom random = new SecureRandom();

    private final String clientId;

    OwnerTokens() {
        this.clientId = randomBase64(6);
    }

    String clientId() {
        return this.clientId;
    }

    String next() {
        return this.clientId + ":" + randomBase64(16);
    }

    private String randomBase64(int bytes) {
        byte[] buffer = new byte[bytes];
        this.random.nextBytes(buffer);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer);
    }
}
