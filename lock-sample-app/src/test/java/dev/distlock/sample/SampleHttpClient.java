package dev.distlock.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/** Talks to a running sample application over HTTP, the way a user's {@code curl} does. */
final class SampleHttpClient {

    private final RestClient rest;

    SampleHttpClient(int port) {
        this.rest = RestClient.builder()
            .baseUrl("http://localhost:" + port)
            // 4xx/5xx are answers the tests look at, not failures of the client
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
            })
            .build();
    }

    ResponseEntity<ItemSnapshot> createItem(String sku, long stock) {
        return this.rest.post().uri("/items/{sku}?stock={stock}", sku, stock).retrieve().toEntity(ItemSnapshot.class);
    }

    ResponseEntity<ItemSnapshot> item(String sku) {
        return this.rest.get().uri("/items/{sku}", sku).retrieve().toEntity(ItemSnapshot.class);
    }

    /** GET or POST {@code uri} and return the response with its body as text, whatever the status. */
    ResponseEntity<String> exchangeAsText(String method, String uri, Object... variables) {
        RestClient.RequestHeadersUriSpec<?> spec = method.equals("GET") ? this.rest.get() : this.rest.post();
        return spec.uri(uri, variables).retrieve().toEntity(String.class);
    }

    ResponseEntity<Reservation> reserve(String sku, String buyer, String via) {
        return this.rest.post()
            .uri("/items/{sku}/reservations?buyer={buyer}&via={via}", sku, buyer, via)
            .retrieve()
            .toEntity(Reservation.class);
    }

    ResponseEntity<DemoReport> oversellDemo(String sku, int buyers, long stock) {
        return this.rest.post()
            .uri("/demo/oversell?sku={sku}&buyers={buyers}&stock={stock}", sku, buyers, stock)
            .retrieve()
            .toEntity(DemoReport.class);
    }

    ResponseEntity<SemaphoreReport> semaphoreDemo(int workers, int permits) {
        return this.rest.post()
            .uri("/demo/semaphore?workers={workers}&permits={permits}", workers, permits)
            .retrieve()
            .toEntity(SemaphoreReport.class);
    }

    String oversellDemoAsText(String sku, int buyers, long stock) {
        return this.rest.post()
            .uri("/demo/oversell?sku={sku}&buyers={buyers}&stock={stock}&format=text", sku, buyers, stock)
            .retrieve()
            .body(String.class);
    }

    /**
     * Sends {@code count} reservations at once, request {@code i} to {@code clients[i % clients.length]} with
     * {@code vias[i % vias.length]}, and returns the responses in request order. Bounded by {@code deadline}.
     */
    static List<ResponseEntity<Reservation>> reserveConcurrently(List<SampleHttpClient> clients, List<String> vias,
            String sku, int count, Duration deadline) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch gate = new CountDownLatch(1);
            List<Future<ResponseEntity<Reservation>>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                SampleHttpClient client = clients.get(i % clients.size());
                String via = vias.get(i % vias.size());
                String buyer = "buyer-" + i;
                futures.add(pool.submit(() -> {
                    gate.await();
                    return client.reserve(sku, buyer, via);
                }));
            }
            gate.countDown();
            long end = System.nanoTime() + deadline.toNanos();
            List<ResponseEntity<Reservation>> responses = new ArrayList<>();
            for (Future<ResponseEntity<Reservation>> future : futures) {
                responses.add(future.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return responses;
        }
        catch (ExecutionException | TimeoutException ex) {
            throw new AssertionError("A reservation request did not complete: " + ex, ex);
        }
        finally {
            pool.shutdownNow();
        }
    }
}
