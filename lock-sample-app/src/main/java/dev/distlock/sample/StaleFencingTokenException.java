package dev.distlock.sample;

/**
 * The storage refused an access because a newer lock holder has already been there: the caller's lease has expired
 * (a long pause, say) and someone else holds the lock now. Nothing was written.
 */
public class StaleFencingTokenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long fencingToken;

    private final long newestToken;

    /**
     * @param sku the item
     * @param fencingToken the token the caller presented
     * @param newestToken the newest token the item has seen
     */
    public StaleFencingTokenException(String sku, long fencingToken, long newestToken) {
        super("Item '" + sku + "' refused fencing token " + fencingToken + ": it has already seen the newer token "
                + newestToken + ", so this caller's lock lease has expired");
        this.fencingToken = fencingToken;
        this.newestToken = newestToken;
    }

    /** The token the caller presented. */
    public long fencingToken() {
        return this.fencingToken;
    }

    /** The newest token the item had seen. */
    public long newestToken() {
        return this.newestToken;
    }
}
