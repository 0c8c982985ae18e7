package dev.distlock.spring.boot;

import java.util.concurrent.Callable;

/** Calls code that declares checked exceptions where only unchecked ones may leave, such as a supplier. */
public final class Unchecked {

    private Unchecked() {
    }

    /**
     * The result of {@code call}.
     *
     * @throws RuntimeException the one {@code call} threw, as is; a checked one as {@link IllegalStateException}
     */
    public static <T> T call(Callable<T> call) {
        try {
            return call.call();
        }
        catch (RuntimeException ex) {
            throw ex;
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
