package dev.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator of the sample sees over HTTP: the {@code distributedLock} health component, the leases this
 * instance holds while a reservation is in progress, and the lock meters. Each reservation works for 2 s here, so one
 * can be watched while it holds its lock.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.work-delay=2s")
@Timeout(60)
class ActuatorOverHttpTests {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    @LocalServerPort
    private int port;

    @Test
    void healthHasTheDistributedLockComponentUpAndInTheReadinessGroup() {
        ResponseEntity<Map<String, Object>> health = get("/actuator/health");
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        Map<String, Object> component = map(map(body(health).get("components")).get("distributedLock"));
        assertThat(component.get("status")).isEqualTo("UP");
        assertThat(map(component.get("details"))).containsKeys("redis", "instanceId", "heldLeases", "watchdogLag");

        ResponseEntity<Map<String, Object>> readiness = get("/actuator/health/readiness");
        assertThat(readiness.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(map(body(readiness).get("components"))).containsKey("distributedLock");
    }

    @Test
    void distributedLocksListsTheLeaseOfAReservationInProgressAndNothingAfterIt() {
        SampleHttpClient http = new SampleHttpClient(this.port);
        http.createItem("slow", 1);

        CompletableFuture<ResponseEntity<Reservation>> slow = CompletableFuture
            .supplyAsync(() -> http.reserve("slow", "patient", "annotation"));
        try {
            Map<String, Object> lease = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> leaseNamed("stock:slow"), Objects::nonNull);
            assertThat(lease.get("kind")).isEqualTo("reentrant");
            assertThat(((Number) Objects.requireNonNull(lease.get("fencingToken"))).longValue()).isPositive();
            assertThat(lease.get("watchdog")).isEqualTo(true);
            assertThat(String.valueOf(lease.get("heldFor"))).matches("\\d+(\\.\\d+)?(ns|us|ms|s|m|h)");

            Map<String, Object> inspected = body(get("/actuator/distributedlocks/stock:slow"));
            assertThat(inspected.get("held")).isEqualTo(true);
            assertThat(inspected.get("ownerInstanceId")).asString().startsWith("distlock-sample@");
        }
        finally {
            ResponseEntity<Reservation> done = slow.orTimeout(30, TimeUnit.SECONDS).join();
            assertThat(done.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        }
        assertThat(leaseNamed("stock:slow")).isNull();
        assertThat(body(get("/actuator/distributedlocks/stock:slow")).get("held")).isEqualTo(false);
    }

    @Test
    void metricsCountTheAcquisitionsOfTheAnnotatedLock() {
        SampleHttpClient http = new SampleHttpClient(this.port);
        http.createItem("metered", 0);
        http.reserve("metered", "counted", "annotation");

        ResponseEntity<Map<String, Object>> acquire = get("/actuator/metrics/distlock.acquire?tag=name:stock");
        assertThat(acquire.getStatusCode()).isEqualTo(HttpStatus.OK);
        List<?> measurements = (List<?>) body(acquire).get("measurements");
        assertThat(measurements).anySatisfy((m) -> {
            assertThat(map(m).get("statistic")).isEqualTo("COUNT");
            assertThat(((Number) Objects.requireNonNull(map(m).get("value"))).doubleValue()).isGreaterThanOrEqualTo(1);
        });
    }

    @Test
    void deleteWhileForceReleaseIsOffSaysWhichPropertyTurnsItOn() {
        ResponseEntity<String> refused = RestClient.create("http://localhost:" + this.port).delete()
            .uri("/actuator/distributedlocks/stock:any")
            .retrieve()
            .onStatus((status) -> true, (request, response) -> {
            })
            .toEntity(String.class);
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(refused.getBody()).contains("management.endpoint.distributedlocks.access=unrestricted")
            .contains("keeps running");
    }

    private Map<String, Object> leaseNamed(String name) {
        List<?> leases = (List<?>) body(get("/actuator/distributedlocks")).get("leases");
        return Objects.requireNonNull(leases).stream().map(ActuatorOverHttpTests::map)
            .filter((lease) -> name.equals(lease.get("name"))).findFirst().orElse(null);
    }

    private ResponseEntity<Map<String, Object>> get(String path) {
        return RestClient.create("http://localhost:" + this.port).get().uri(path).retrieve()
            .onStatus((status) -> true, (request, response) -> {
            })
            .toEntity(JSON);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) Objects.requireNonNull(value);
    }

    private static <T> T body(ResponseEntity<T> response) {
        return Objects.requireNonNull(response.getBody(), () -> "no body in " + response);
    }
}
