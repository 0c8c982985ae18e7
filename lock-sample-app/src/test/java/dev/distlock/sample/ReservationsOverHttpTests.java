package dev.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The whole application on a random port, on the embedded redis-server it starts by itself, driven over HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(60)
class ReservationsOverHttpTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @LocalServerPort
    private int port;

    @Autowired
    private StockStore store;

    private SampleHttpClient http;

    @BeforeEach
    void client() {
        this.http = new SampleHttpClient(this.port);
    }

    @Test
    void concurrentLockedReservationsSellExactlyTheStockWithIncreasingFencingTokens() throws Exception {
        assertThat(this.http.createItem("tickets", 10).getStatusCode()).isEqualTo(HttpStatus.CREATED);

        List<ResponseEntity<Reservation>> responses = SampleHttpClient.reserveConcurrently(List.of(this.http),
                List.of("annotation"), "tickets", 40, DEADLINE);

        assertThat(responses).filteredOn((r) -> r.getStatusCode() == HttpStatus.CREATED).hasSize(10)
            .allSatisfy((r) -> assertThat(body(r).outcome()).isEqualTo(Reservation.Outcome.RESERVED));
        assertThat(responses).filteredOn((r) -> r.getStatusCode() == HttpStatus.CONFLICT).hasSize(30)
            .allSatisfy((r) -> assertThat(body(r).outcome()).isEqualTo(Reservation.Outcome.SOLD_OUT));
        assertThat(responses).extracting((r) -> body(r).fencingToken()).doesNotHaveDuplicates()
            .allSatisfy((token) -> assertThat(token).isPositive());

        ItemSnapshot item = body(this.http.item("tickets"));
        assertThat(item.stock()).isZero();
        assertThat(item.sold()).isEqualTo(10);
        assertThat(item.oversold()).isZero();
        assertThat(item.staleWritesRejected()).isZero();
        assertThat(item.sales()).extracting(ItemSnapshot.Sale::fencingToken).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void annotationAndTemplatePathsShareOneLockPerItem() throws Exception {
        this.http.createItem("concert", 8);

        List<ResponseEntity<Reservation>> responses = SampleHttpClient.reserveConcurrently(List.of(this.http),
                List.of("annotation", "template"), "concert", 30, DEADLINE);

        assertThat(responses).filteredOn((r) -> r.getStatusCode() == HttpStatus.CREATED).hasSize(8);
        ItemSnapshot item = body(this.http.item("concert"));
        assertThat(item.stock()).isZero();
        assertThat(item.sold()).isEqualTo(8);
        assertThat(item.sales()).extracting(ItemSnapshot.Sale::fencingToken).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void oversellDemoReportsNoOversellOnTheLockedPathAndRejectsThePausedHoldersWrite() {
        ResponseEntity<DemoReport> response = this.http.oversellDemo("demo-test", 30, 5);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DemoReport report = body(response);
        DemoReport.PathReport locked = report.locked();
        assertThat(locked.reserved()).isEqualTo(5);
        assertThat(locked.soldOut()).isEqualTo(25);
        assertThat(locked.failed()).isZero();
        assertThat(locked.sold()).isEqualTo(5);
        assertThat(locked.remainingStock()).isZero();
        assertThat(locked.oversold()).isZero();
        DemoReport.TokenStats tokens = Objects.requireNonNull(locked.fencingTokens());
        assertThat(tokens.issued()).isEqualTo(30);
        assertThat(tokens.distinct()).isTrue();
        assertThat(tokens.strictlyIncreasingInCommitOrder()).isTrue();
        assertThat(tokens.min()).isLessThan(tokens.max());

        // the unlocked path's outcome depends on timing; it can never sell less than the stock
        assertThat(report.unlocked().sold()).isGreaterThanOrEqualTo(5);
        assertThat(report.unlocked().fencingTokens()).isNull();

        DemoReport.PausedHolderReport paused = report.pausedHolder();
        assertThat(paused.pausedHolderOutcome()).isEqualTo(Reservation.Outcome.REJECTED_STALE_TOKEN);
        assertThat(paused.pausedHolderLeaseLost()).isTrue();
        assertThat(paused.newerHolderOutcome()).isEqualTo(Reservation.Outcome.RESERVED);
        assertThat(paused.newerHolderToken()).isGreaterThan(paused.pausedHolderToken());
        assertThat(paused.sold()).isEqualTo(1);
        assertThat(paused.staleWritesRejected()).isEqualTo(1);
    }

    @Test
    void semaphoreDemoNeverRunsMoreJobsAtOnceThanItHasPermits() {
        SemaphoreReport report = body(this.http.semaphoreDemo(8, 3));
        assertThat(report.finished()).isEqualTo(8);
        assertThat(report.mostRunningAtOnce()).isBetween(1, 3);
        assertThat(report.mostHeldOnRedis()).isBetween(1, 3);
        assertThat(this.http.exchangeAsText("POST", "/demo/semaphore?workers=4&permits=0", "").getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @Test
    void oversellDemoAnswersWithATableWhenAskedForText() {
        String table = this.http.oversellDemoAsText("demo-text", 10, 3);

        assertThat(table).contains("10 concurrent buyers per path, stock 3")
            .containsPattern("(?m)^locked\\s+3\\s+3\\s+0\\s+0\\s+10\\s+\\d+\\.\\.\\d+\\s+yes\\s+0\\s+\\d+ ms$")
            .contains("REJECTED_STALE_TOKEN");
    }

    @Test
    void storageRejectsAWriteWithAnOlderFencingToken() {
        this.store.reset("fenced", 3);

        assertThat(this.store.readStock("fenced", 100, "w-100")).isEqualTo(3);
        this.store.commitSale("fenced", 100, "w-100", 2, "holder-100");
        assertThat(this.store.readStock("fenced", 101, "w-101")).isEqualTo(2);

        assertThatExceptionOfType(StaleFencingTokenException.class)
            .isThrownBy(() -> this.store.commitSale("fenced", 100, "w-100", 1, "paused-holder-100"))
            .satisfies((ex) -> assertThat(ex.newestToken()).isEqualTo(101));
        assertThatExceptionOfType(StaleFencingTokenException.class)
            .isThrownBy(() -> this.store.readStock("fenced", 99, "w-99"));

        this.store.commitSale("fenced", 101, "w-101", 1, "holder-101");
        ItemSnapshot item = body(this.http.item("fenced"));
        assertThat(item.stock()).isEqualTo(1);
        assertThat(item.lastToken()).isEqualTo(101);
        assertThat(item.staleWritesRejected()).isEqualTo(2);
        assertThat(item.sales()).containsExactly(new ItemSnapshot.Sale("holder-100", 100),
                new ItemSnapshot.Sale("holder-101", 101));
    }

    @Test
    void storageRejectsTheSameTokenFromAnotherWriter() {
        this.store.reset("same-token", 3);
        assertThat(this.store.readStock("same-token", 200, "first")).isEqualTo(3);
        this.store.commitSale("same-token", 200, "first", 2, "first-buyer");

        assertThatExceptionOfType(StaleFencingTokenException.class)
            .isThrownBy(() -> this.store.commitSale("same-token", 200, "second", 1, "second-buyer"));
        assertThatExceptionOfType(StaleFencingTokenException.class)
            .isThrownBy(() -> this.store.readStock("same-token", 200, "second"));
        this.store.commitSale("same-token", 200, "first", 1, "first-buyer-again");

        ItemSnapshot item = body(this.http.item("same-token"));
        assertThat(item.stock()).isEqualTo(1);
        assertThat(item.staleWritesRejected()).isEqualTo(2);
    }

    @Test
    void unknownItemIsNotFoundAndMalformedInputIsABadRequest() {
        ResponseEntity<String> unknown = this.http.exchangeAsText("GET", "/items/{sku}", "no-such-item");
        assertThat(unknown.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(unknown.getBody()).contains("create it first with POST /items/no-such-item?stock=N");
        assertThat(this.http.exchangeAsText("POST", "/items/{sku}/reservations", "no-such-item").getStatusCode())
            .isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(this.http.exchangeAsText("POST", "/items/{sku}?stock=1", "bad sku!").getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(this.http.exchangeAsText("POST", "/items/{sku}?stock=-1", "ok").getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
        this.http.createItem("ok", 1);
        ResponseEntity<String> badPath = this.http.exchangeAsText("POST", "/items/{sku}/reservations?via=sideways",
                "ok");
        assertThat(badPath.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badPath.getBody()).contains("via must be annotation, template or unlocked");
        assertThat(this.http.exchangeAsText("POST", "/demo/oversell?buyers=100000", "").getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
    }

    private static <T> T body(ResponseEntity<T> response) {
        return Objects.requireNonNull(response.getBody(), () -> "no body in " + response);
    }
}
