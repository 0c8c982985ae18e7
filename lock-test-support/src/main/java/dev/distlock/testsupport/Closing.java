package dev.distlock.testsupport;

import java.util.List;

import org.jspecify.annotations.Nullable;

/** Stops every server of a group even when some stops fail. */
final class Closing {

    private Closing() {
    }

    /** Stops all servers in order; failures are added to {@code failure} (if given) or thrown at the end. */
    static void stopAll(List<RedisServer> servers, @Nullable RuntimeException failure) {
        RuntimeException first = failure;
        for (RedisServer server : servers) {
            try {
                server.stop();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (failure == null && first != null) {
            throw first;
        }
    }
}
