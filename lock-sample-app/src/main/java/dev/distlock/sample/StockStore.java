package dev.distlock.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The stock of each item, kept in Redis: a hash {@code sample:item:{sku}} (stock, initial stock, newest fencing token
 * seen, stale accesses refused) and a list {@code sample:item:{sku}:sales} of recorded sales in commit order.
 *
 * <p>The fenced methods are the resource side of fencing: each presents the caller's lease token, and the item
 * refuses (with {@link StaleFencingTokenException}) any token older than the newest it has seen, atomically, in a Lua
 * script. The read records the token too, so once a newer holder has read, an older holder can no longer write.
 * The unfenced methods are plain commands with no such check, for the unlocked demonstration path.
 */
@Component
public class StockStore {

    /** SKUs are short and safe to put in keys and URLs. */
    public static final Pattern SKU = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private static final long MISSING = -1;

    private static final long STALE = -2;

    private final StringRedisTemplate redis;

    @SuppressWarnings("rawtypes") // a script's result type is a Class, and List.class is raw
    private final RedisScript<List> fencedRead = script("fenced-read.lua", List.class);

    @SuppressWarnings("rawtypes")
    private final RedisScript<List> fencedCommit = script("fenced-commit.lua", List.class);

    private final RedisScript<Long> resetItem = script("reset-item.lua", Long.class);

    /** @param redis the application's Redis connection */
    public StockStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * Creates the item, or resets it: stock and initial stock set to {@code stock}, sales emptied. The newest fencing
     * token seen is kept, so a holder still working on the old stock cannot write into the new one.
     *
     * @throws IllegalArgumentException if the SKU is malformed or the stock negative
     */
    public void reset(String sku, long stock) {
        requireSku(sku);
        if (stock < 0) {
            throw new IllegalArgumentException("stock must be 0 or more, was " + stock);
        }
        this.redis.execute(this.resetItem, keys(sku), Long.toString(stock));
    }

    /**
     * The item as stored now.
     *
     * @throws UnknownItemException if there is no such item
     */
    public ItemSnapshot snapshot(String sku) {
        requireSku(sku);
        Map<Object, Object> fields = this.redis.opsForHash().entries(itemKey(sku));
        if (fields.isEmpty()) {
            throw new UnknownItemException(sku);
        }
        List<String> entries = Objects.requireNonNullElse(this.redis.opsForList().range(salesKey(sku), 0, -1),
                List.of());
        List<ItemSnapshot.Sale> sales = new ArrayList<>(entries.size());
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            sales.add(new ItemSnapshot.Sale(entry.substring(colon + 1), Long.parseLong(entry.substring(0, colon))));
        }
        long stock = number(fields.get("stock"));
        long initial = number(fields.get("initial"));
        return new ItemSnapshot(sku, stock, initial, sales.size(), Math.max(0, sales.size() - initial),
                number(fields.get("lastToken")), number(fields.get("staleRejected")), List.copyOf(sales));
    }

    /**
     * Reads the stock on behalf of the lock holder with {@code fencingToken}, recording the token (and {@code writer},
     * the holder's id) as the newest seen.
     *
     * @throws StaleFencingTokenException if the item has seen a newer token, or the same token from another writer
     * @throws UnknownItemException if there is no such item
     */
    public long readStock(String sku, long fencingToken, String writer) {
        requireSku(sku);
        return checked(sku, fencingToken, this.redis.execute(this.fencedRead, keys(sku), Long.toString(fencingToken),
                writer));
    }

    /**
     * Records one sale and sets the stock to {@code newStock}, on behalf of the lock holder with {@code fencingToken}.
     *
     * @throws StaleFencingTokenException if the item has seen a newer token, or the same token from another writer;
     * nothing was written
     * @throws UnknownItemException if there is no such item
     */
    public void commitSale(String sku, long fencingToken, String writer, long newStock, String buyer) {
        requireSku(sku);
        checked(sku, fencingToken, this.redis.execute(this.fencedCommit, keys(sku), Long.toString(fencingToken),
                Long.toString(newStock), buyer, writer));
    }

    /**
     * Reads the stock with a plain {@code HGET}: no token, no check.
     *
     * @throws UnknownItemException if there is no such item
     */
    public long readStockUnfenced(String sku) {
        requireSku(sku);
        Object stock = this.redis.opsForHash().get(itemKey(sku), "stock");
        if (stock == null) {
            throw new UnknownItemException(sku);
        }
        return number(stock);
    }

    /** Records one sale and sets the stock with plain {@code HSET} and {@code RPUSH}: no token, no check. */
    public void commitSaleUnfenced(String sku, long newStock, String buyer) {
        requireSku(sku);
        this.redis.opsForHash().put(itemKey(sku), "stock", Long.toString(newStock));
        this.redis.opsForList().rightPush(salesKey(sku), "0:" + buyer);
    }

    /**
     * Checks a SKU before it goes into a key or a lock name.
     *
     * @return {@code sku}
     * @throws IllegalArgumentException if {@code sku} does not match {@link #SKU}
     */
    public static String requireSku(String sku) {
        if (!SKU.matcher(sku).matches()) {
            throw new IllegalArgumentException("SKU '" + sku + "' must be 1 to 64 letters, digits, '-' or '_'");
        }
        return sku;
    }

    private static long checked(String sku, long fencingToken, @Nullable List<?> reply) {
        if (reply == null || reply.size() != 2) {
            throw new IllegalStateException("Unexpected reply from a stock script for '" + sku + "': " + reply);
        }
        long status = number(reply.get(0));
        long value = number(reply.get(1));
        if (status == MISSING) {
            throw new UnknownItemException(sku);
        }
        if (status == STALE) {
            throw new StaleFencingTokenException(sku, fencingToken, value);
        }
        return value;
    }

    private static long number(@Nullable Object value) {
        return (value == null) ? 0 : Long.parseLong(value.toString());
    }

    // one hash tag per item, so both keys of an item live in the same slot on a Redis Cluster
    private static String itemKey(String sku) {
        return "sample:item:{" + sku + "}";
    }

    private static String salesKey(String sku) {
        return itemKey(sku) + ":sales";
    }

    private static List<String> keys(String sku) {
        return List.of(itemKey(sku), salesKey(sku));
    }

    private static <T> RedisScript<T> script(String name, Class<T> resultType) {
        return RedisScript.of(new ClassPathResource("dev/distlock/sample/scripts/" + name), resultType);
    }
}
