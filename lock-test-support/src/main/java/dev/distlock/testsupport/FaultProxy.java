package dev.distlock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on a loopback port in front of one Redis, with faults that can be switched on and off while
 * connections are open. Clients connect to {@link #uri()} instead of the server.
 *
 * <p>Faults (each independent; {@link #pass()} clears them all):
 * <ul>
 *   <li>{@link #delay(Direction, Duration, Duration)}: every chunk is held for {@code base ± jitter} before it is
 *       written on; order is kept (a chunk is never written before an earlier one).</li>
 *   <li>{@link #blackhole()}: nothing moves in either direction, connections stay open and new ones are accepted,
 *       like a network partition; bytes already read wait and flow again after {@link #pass()} (TCP retransmits,
 *       nothing is lost).</li>
 *   <li>{@link #halfOpen()}: requests reach the server, replies are discarded. Bytes are lost, so the client's
 *       protocol state is broken: call {@link #resetAll()} before healing.</li>
 *   <li>{@link #blackholeSubscribers()}: like {@link #blackhole()}, but only on connections that have sent a
 *       {@code SUBSCRIBE}, {@code PSUBSCRIBE} or {@code SSUBSCRIBE} (the pub/sub connections), the subscribe that
 *       marks one included; every other connection keeps flowing.</li>
 *   <li>{@link #dropPubSubMessages(boolean)}: pub/sub deliveries ({@code message}, {@code pmessage},
 *       {@code smessage}) are discarded whole; every other reply (including subscribe confirmations) passes, so
 *       connections stay in sync.</li>
 *   <li>{@link #resetAll()}: closes every open connection with a TCP RST on the client side;
 *       {@link #closeAll()} closes them gracefully (FIN), after which Lettuce re-sends the commands that were in
 *       flight.</li>
 * </ul>
 *
 * <p>Listens on {@code 127.0.0.1} only. {@link #close()} stops accepting and resets every connection; its threads
 * are daemons. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {

    /** A direction of traffic through the proxy. */
    public enum Direction {
        /** Client to server. */
        REQUESTS,
        /** Server to client. */
        REPLIES
    }

    private static final Logger log = LoggerFactory.getLogger(FaultProxy.class);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final int id = IDS.incrementAndGet();
    private final Set<ProxyLink> links = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;

    private final ProxyFaults faults = new ProxyFaults();

    private volatile boolean closed;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();

    private FaultProxy(String targetHost, int targetPort, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "fault-proxy-" + id + "-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Starts a proxy in front of a server.
     *
     * @param server the server to forward to
     * @return a running proxy in pass-through mode
     */
    public static FaultProxy start(RedisServer server) {
        return start(server.host(), server.port());
    }

    /**
     * Starts a proxy on a free loopback port in front of {@code host:port}.
     *
     * @param host the target host (loopback)
     * @param port the target port
     * @return a running proxy in pass-through mode
     * @throws RedisServerException if no port could be bound
     */
    public static FaultProxy start(String host, int port) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int listenPort = PortAllocator.next();
            try {
                ServerSocket socket = new ServerSocket();
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort), 128);
                FaultProxy proxy = new FaultProxy(host, port, socket);
                proxy.acceptor.start();
                log.debug("fault proxy {} listening on {} for {}:{}", proxy.id, listenPort, host, port);
                return proxy;
            } catch (IOException e) {
                last = new RedisServerException("Could not bind the fault proxy to port " + listenPort, e);
            }
        }
        throw last;
    }

    /** The loopback port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** The proxy as a Redis URI, e.g. {@code redis://127.0.0.1:12345}. */
    public String uri() {
        return "redis://" + RedisServer.HOST + ":" + port();
    }

    /** Clears every fault: traffic flows unchanged. Connections broken by {@link #halfOpen()} stay broken. */
    public void pass() {
        faults.pass();
    }

    /**
     * Holds every chunk in both directions for {@code base ± jitter} (uniform), keeping order.
     *
     * @param base the mean delay, zero or more
     * @param jitter the largest deviation from it, zero or more, at most {@code base}
     */
    public void delay(Duration base, Duration jitter) {
        delay(Direction.REQUESTS, base, jitter);
        delay(Direction.REPLIES, base, jitter);
    }

    /**
     * Holds every chunk in one direction for {@code base ± jitter} (uniform), keeping order.
     *
     * @param direction which traffic
     * @param base the mean delay, zero or more
     * @param jitter the largest deviation from it, zero or more, at most {@code base}
     */
    public void delay(Direction direction, Duration base, Duration jitter) {
        faults.delay(direction, base, jitter);
    }

    /** Stops all traffic without closing anything, until {@link #pass()}. */
    public void blackhole() {
        faults.blackhole = true;
    }

    /**
     * Stops all traffic on pub/sub connections without closing them, until {@link #pass()}: a connection counts as
     * one from the first subscribe command it sends, and that command is held too, so a subscription made meanwhile
     * stays unconfirmed. Other connections are unaffected.
     */
    public void blackholeSubscribers() {
        faults.blackholeSubscribers = true;
    }

    /** Forwards requests and discards replies, until {@link #pass()}; reset connections before healing. */
    public void halfOpen() {
        faults.halfOpen = true;
    }

    /**
     * Discards (or stops discarding) pub/sub deliveries on every connection.
     *
     * @param drop true to discard them
     */
    public void dropPubSubMessages(boolean drop) {
        faults.dropPubSub = drop;
    }

    /**
     * Closes every open connection gracefully (FIN to the client and to the server); counted as resets.
     *
     * @return how many connections were closed
     */
    public int closeAll() {
        int count = 0;
        for (ProxyLink link : List.copyOf(links)) {
            if (link.close()) {
                count++;
            }
        }
        resets.addAndGet(count);
        return count;
    }

    /**
     * Closes every open connection abruptly (RST to the client, close to the server).
     *
     * @return how many connections were reset
     */
    public int resetAll() {
        int count = 0;
        for (ProxyLink link : List.copyOf(links)) {
            if (link.reset()) {
                count++;
            }
        }
        resets.addAndGet(count);
        return count;
    }

    /** Connections accepted so far. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Connections currently open. */
    public int openConnections() {
        return links.size();
    }

    /** Connections closed by {@link #resetAll()} so far. */
    public long resetConnections() {
        return resets.get();
    }

    /** Pub/sub deliveries discarded so far. */
    public long droppedPubSubMessages() {
        return faults.droppedMessages.get();
    }

    /** Reply bytes discarded by {@link #halfOpen()} so far. */
    public long droppedReplyBytes() {
        return faults.droppedReplyBytes.get();
    }

    /** Stops accepting and resets every connection; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            log.debug("closing the listener of fault proxy {} failed", id, e);
        }
        resetAll();
        try {
            acceptor.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[" + port() + " -> " + targetHost + ":" + targetPort + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("fault proxy {} stopped accepting", id, e);
                }
                return;
            }
            Socket server = new Socket();
            try {
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                server.connect(new InetSocketAddress(targetHost, targetPort), 2_000);
            } catch (IOException e) {
                // the target is down: the client sees its connection reset, like connection refused
                log.debug("fault proxy {} could not reach {}:{}: {}", id, targetHost, targetPort, e.toString());
                ProxyLink.abort(client);
                ProxyLink.closeQuietly(server);
                continue;
            }
            accepted.incrementAndGet();
            ProxyLink link = new ProxyLink(id, faults, links, client, server);
            links.add(link);
            link.start();
        }
    }
}
