package dev.distlock.core.internal.redis;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.CommandListenerWriter;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.CommandExpiryWriter;

/**
 * Lettuce's own command timeout, put to the lock client's operation timeout on a connection of ours.
 *
 * <p>Where the Lettuce client times its commands out with the connection's timeout (its {@link TimeoutOptions}: on by
 * default since Lettuce 7, and in every client Spring Boot builds), every command written on the connection already
 * carries a timer entry that fails it when that timeout passes. A second entry of the lock client's own for the same
 * call doubles the timer work of the hot path (each entry is a write to the timer's queue shared by every calling
 * thread, and a cancellation on the reply's thread). So on such a connection the lock client sets the connection's
 * timeout to its operation timeout and leaves the timing to Lettuce; elsewhere (timeouts off, a timeout per command
 * type, a Lettuce whose writer this class does not recognise) it keeps timing its calls itself. One difference remains:
 * during a server maintenance Lettuce is notified of (Redis Software and Cloud), Lettuce 7 extends the timeout by its
 * relaxed timeout ({@code TimeoutOptions.getRelaxedTimeout()}), which the lock's own timer would not.
 */
final class CommandExpiry {

    private CommandExpiry() {
    }

    /**
     * Sets {@code connection}'s command timeout to {@code timeout} where Lettuce enforces it on every command.
     *
     * @param options the options of the client that opened {@code connection}
     * @param timeout the operation timeout; zero leaves the connection as it is
     * @return whether every command written on {@code connection} from now on fails after {@code timeout}
     */
    static boolean enforce(ClientOptions options, StatefulConnection<?, ?> connection, Duration timeout) {
        if (timeout.isZero() || timeout.isNegative()) {
            return false;
        }
        TimeoutOptions timeouts = options.getTimeoutOptions();
        if (!timeouts.isTimeoutCommands() || !timeouts.isApplyConnectionTimeout()
                || !(connection instanceof RedisChannelHandler<?, ?> handler)) {
            return false;
        }
        try {
            RedisChannelWriter writer = handler.getChannelWriter();
            if (writer instanceof CommandListenerWriter listening) {
                writer = listening.getDelegate();
            }
            if (!(writer instanceof CommandExpiryWriter expiring)) {
                return false;
            }
            expiring.setTimeout(timeout);
            connection.setTimeout(timeout);
            return true;
        }
        catch (LinkageError olderLettuce) {
            // A Lettuce without these types or methods: the lock client times its calls itself.
            return false;
        }
    }
}
