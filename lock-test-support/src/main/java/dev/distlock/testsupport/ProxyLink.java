package dev.distlock.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.distlock.testsupport.FaultProxy.Direction;

/**
 * One connection through a {@link FaultProxy}: a reader and a writer thread per direction, applying the faults the
 * proxy has switched on at the moment each chunk passes.
 */
final class ProxyLink {

    private static final Logger log = LoggerFactory.getLogger(FaultProxy.class);
    private static final Duration POLL = Duration.ofMillis(2);

    private final int id;
    private final ProxyFaults faults;
    private final Set<ProxyLink> links;
    private final Socket client;
    private final Socket server;
    private volatile boolean down;
    /** Whether this connection has sent a subscribe command: it is a pub/sub connection. */
    private volatile boolean subscriber;

    /**
     * @param id the proxy's id, for thread names and logs
     * @param faults the proxy's faults, read as each chunk passes
     * @param links the proxy's open links; this one removes itself when it goes down
     */
    ProxyLink(int id, ProxyFaults faults, Set<ProxyLink> links, Socket client, Socket server) {
        this.id = id;
        this.faults = faults;
        this.links = links;
        this.client = client;
        this.server = server;
    }

    void start() {
        int linkId = client.getPort();
        new Pump(Direction.REQUESTS, client, server, "fault-proxy-" + id + "-" + linkId + "-up").start();
        new Pump(Direction.REPLIES, server, client, "fault-proxy-" + id + "-" + linkId + "-down").start();
    }

    boolean reset() {
        if (down) {
            return false;
        }
        down = true;
        abort(client);
        closeQuietly(server);
        links.remove(this);
        return true;
    }

    /** Closes both sides gracefully (FIN): the client sees the connection end, as when a server or a peer closes it. */
    boolean close() {
        if (down) {
            return false;
        }
        down = true;
        closeQuietly(client);
        closeQuietly(server);
        links.remove(this);
        return true;
    }

    void pumpEnded() {
        // one side closed: close the other so the peer sees it too
        if (!down) {
            down = true;
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }
    }

    /**
     * Moves one direction: the reader frames the stream (to drop pub/sub deliveries, and to tell a subscribing
     * connection), the writer applies delay and the blackholes.
     */
    private final class Pump {

        private final Direction direction;
        private final Socket from;
        private final Socket to;
        private final String name;
        private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        private long lastReleaseNanos;

        Pump(Direction direction, Socket from, Socket to, String name) {
            this.direction = direction;
            this.from = from;
            this.to = to;
            this.name = name;
        }

        void start() {
            Thread writer = new Thread(this::writeLoop, name + "-w");
            writer.setDaemon(true);
            Thread reader = new Thread(() -> readLoop(writer), name + "-r");
            reader.setDaemon(true);
            writer.start();
            reader.start();
        }

        private void readLoop(Thread writer) {
            RespFramer framer = new RespFramer();
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                while (!down) {
                    if (faults.blackhole) {
                        pause();
                        continue;
                    }
                    int read = in.read(buffer);
                    if (read < 0) {
                        break;
                    }
                    if (direction == Direction.REPLIES && faults.halfOpen) {
                        faults.droppedReplyBytes.addAndGet(read);
                        continue;
                    }
                    if (framer == null) {
                        enqueue(Arrays.copyOf(buffer, read));
                    } else if (!forwardFrames(framer, buffer, read)) {
                        framer = null;
                    }
                }
            } catch (IOException e) {
                // closed or reset
            } finally {
                queue.add(Chunk.END);
                if (!writer.isAlive()) {
                    pumpEnded();
                }
            }
        }

        /**
         * Queues the whole frames read so far.
         *
         * @return false if the stream is not RESP: what the framer held is queued, and the rest goes unframed
         */
        private boolean forwardFrames(RespFramer framer, byte[] buffer, int read) {
            try {
                List<byte[]> frames = framer.feed(buffer, read);
                if (direction == Direction.REQUESTS) {
                    // marked before they are queued, so the writer holds the subscribe itself too
                    subscriber |= frames.stream().anyMatch(RespFramer::isSubscribeRequest);
                    enqueueJoined(frames);
                    return true;
                }
                for (byte[] frame : frames) {
                    if (faults.dropPubSub && RespFramer.isPubSubMessage(frame)) {
                        faults.droppedMessages.incrementAndGet();
                    } else {
                        enqueue(frame);
                    }
                }
                return true;
            } catch (RespFramer.NotRespException e) {
                log.debug("fault proxy {}: {} is not RESP ({}); forwarding it unframed", id, name, e.getMessage());
                enqueue(framer.drain());
                return false;
            }
        }

        /** Requests stay in the chunks they were read in (only whole frames: a partial one waits for its rest). */
        private void enqueueJoined(List<byte[]> frames) {
            if (frames.size() == 1) {
                enqueue(frames.get(0));
            } else if (!frames.isEmpty()) {
                ByteArrayOutputStream joined = new ByteArrayOutputStream();
                frames.forEach(joined::writeBytes);
                enqueue(joined.toByteArray());
            }
        }

        private void enqueue(byte[] bytes) {
            long now = System.nanoTime();
            long release = Math.max(now + faults.delayNanos(direction), lastReleaseNanos);
            lastReleaseNanos = release;
            queue.add(new Chunk(bytes, release));
        }

        private void writeLoop() {
            try (OutputStream out = to.getOutputStream()) {
                while (!down) {
                    Chunk chunk = queue.poll(100, TimeUnit.MILLISECONDS);
                    if (chunk == null) {
                        continue;
                    }
                    if (chunk == Chunk.END) {
                        break;
                    }
                    long wait;
                    while ((wait = chunk.releaseNanos - System.nanoTime()) > 0 && !down) {
                        TimeUnit.NANOSECONDS.sleep(Math.min(wait, POLL.toNanos()));
                    }
                    while ((faults.blackhole || (faults.blackholeSubscribers && subscriber)) && !down) {
                        pause();
                    }
                    out.write(chunk.bytes);
                    out.flush();
                }
            } catch (IOException e) {
                // closed or reset
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                pumpEnded();
            }
        }
    }

    static void abort(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException e) {
            // closing anyway
        }
        closeQuietly(socket);
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Chunk(byte[] bytes, long releaseNanos) {

        static final Chunk END = new Chunk(new byte[0], 0);
    }
}
