package dev.distlock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out loopback ports that are free right now, never the same one twice in a JVM.
 *
 * <p>Ports come from {@code [10000, 22000)}, below Linux's ephemeral range (32768+) so that client sockets
 * cannot take them, and {@code port + 10000} (the Redis Cluster bus port) is checked free too. Another process
 * may still take a port between this check and redis-server's bind: {@link RedisServer} retries on that.
 */
final class PortAllocator {

    static final int FIRST = 10_000;
    static final int LAST_EXCLUSIVE = 22_000;
    static final int CLUSTER_BUS_OFFSET = 10_000;
    private static final int MAX_ATTEMPTS = 1_000;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private PortAllocator() {
    }

    /**
     * A port that no one listens on now and that this JVM has not handed out before.
     *
     * @throws RedisServerException if none was found within a bounded number of tries
     */
    static int next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            int port = random.nextInt(FIRST, LAST_EXCLUSIVE);
            if (isFree(port) && isFree(port + CLUSTER_BUS_OFFSET) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new RedisServerException("No free loopback port found in [" + FIRST + ", " + LAST_EXCLUSIVE
                + ") after " + MAX_ATTEMPTS + " tries");
    }

    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
