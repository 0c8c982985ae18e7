package dev.distlock.sample;

import java.util.Locale;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Items and reservations over HTTP.
 *
 * <ul>
 * <li>{@code POST /items/{sku}?stock=N}: create the item, or reset it to N units;</li>
 * <li>{@code GET /items/{sku}}: the item as stored, with its sales and the newest fencing token it has seen;</li>
 * <li>{@code POST /items/{sku}/reservations[?buyer=name][&via=annotation|template|unlocked]}: reserve one unit;
 * 201 when reserved, 409 when sold out or refused for a stale token. {@code via} picks the path (default
 * {@code annotation}); {@code unlocked} exists to show oversell and must never be used for real.</li>
 * </ul>
 */
@RestController
@RequestMapping("/items")
public class ItemController {

    /** Largest stock an item may be given. */
    static final long MAX_STOCK = 1_000_000;

    private final StockStore store;

    private final ReservationService reservations;

    /**
     * @param store the stock storage
     * @param reservations the reservation paths
     */
    public ItemController(StockStore store, ReservationService reservations) {
        this.store = store;
        this.reservations = reservations;
    }

    /** Creates or resets an item. */
    @PostMapping("/{sku}")
    public ResponseEntity<ItemSnapshot> create(@PathVariable String sku, @RequestParam long stock) {
        if (stock < 0 || stock > MAX_STOCK) {
            throw new IllegalArgumentException("stock must be 0 to " + MAX_STOCK + ", was " + stock);
        }
        this.store.reset(sku, stock);
        return ResponseEntity.status(HttpStatus.CREATED).body(this.store.snapshot(sku));
    }

    /** The item as stored. */
    @GetMapping("/{sku}")
    public ItemSnapshot get(@PathVariable String sku) {
        return this.store.snapshot(sku);
    }

    /** Reserves one unit through the chosen path. */
    @PostMapping("/{sku}/reservations")
    public ResponseEntity<Reservation> reserve(@PathVariable String sku, @RequestParam(required = false) @Nullable
            String buyer, @RequestParam(defaultValue = "annotation") String via) {
        StockStore.requireSku(sku);
        String who = (buyer != null && !buyer.isBlank()) ? buyer
                : "buyer-" + UUID.randomUUID().toString().substring(0, 8);
        Reservation reservation = switch (via.toLowerCase(Locale.ROOT)) {
            case "annotation" -> this.reservations.reserve(sku, who);
            case "template" -> this.reservations.reserveWithTemplate(sku, who);
            case "unlocked" -> this.reservations.reserveUnlocked(sku, who);
            default -> throw new IllegalArgumentException(
                    "via must be annotation, template or unlocked, was '" + via + "'");
        };
        HttpStatus status = (reservation.outcome() == Reservation.Outcome.RESERVED) ? HttpStatus.CREATED
                : HttpStatus.CONFLICT;
        return ResponseEntity.status(status).body(reservation);
    }
}
