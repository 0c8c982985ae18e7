package dev.distlock.sample;

/** No item with this SKU exists; create it with {@code POST /items/{sku}?stock=N}. */
public class UnknownItemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param sku the SKU that was asked for */
    public UnknownItemException(String sku) {
        super("No item '" + sku + "': create it first with POST /items/" + sku + "?stock=N");
    }
}
