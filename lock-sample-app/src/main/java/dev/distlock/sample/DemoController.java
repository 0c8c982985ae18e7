package dev.distlock.sample;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /demo/oversell?buyers=50&stock=10[&sku=demo]}: runs the {@link OversellDemo} and returns its report as
 * JSON, or with {@code &format=text} as the plain-text table the application also logs.
 * {@code POST /demo/semaphore?workers=8&permits=3}: runs the {@link SemaphoreDemo}.
 */
@RestController
public class DemoController {

    private final OversellDemo demo;

    private final SemaphoreDemo semaphoreDemo;

    /**
     * @param demo the oversell demonstration
     * @param semaphoreDemo the semaphore demonstration
     */
    public DemoController(OversellDemo demo, SemaphoreDemo semaphoreDemo) {
        this.demo = demo;
        this.semaphoreDemo = semaphoreDemo;
    }

    /** Runs {@code workers} jobs at once that may run at most {@code permits} at a time, and reports. */
    @PostMapping("/demo/semaphore")
    public SemaphoreReport semaphore(@RequestParam(defaultValue = "8") int workers,
            @RequestParam(defaultValue = "3") int permits) throws InterruptedException {
        if (workers < 1 || workers > SemaphoreDemo.MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be 1 to " + SemaphoreDemo.MAX_WORKERS + ", was "
                    + workers);
        }
        if (permits < 1 || permits > workers) {
            throw new IllegalArgumentException("permits must be 1 to workers (" + workers + "), was " + permits);
        }
        return this.semaphoreDemo.run(workers, permits);
    }

    /** Runs the demonstration on {@code sku} (reset first) and returns the report as JSON. */
    @PostMapping("/demo/oversell")
    public DemoReport oversell(@RequestParam(defaultValue = "50") int buyers,
            @RequestParam(defaultValue = "10") long stock, @RequestParam(defaultValue = "demo") String sku) {
        if (buyers < 1 || buyers > ConcurrentBuyers.MAX_BUYERS) {
            throw new IllegalArgumentException("buyers must be 1 to " + ConcurrentBuyers.MAX_BUYERS + ", was " + buyers);
        }
        if (stock < 0 || stock > ItemController.MAX_STOCK) {
            throw new IllegalArgumentException("stock must be 0 to " + ItemController.MAX_STOCK + ", was " + stock);
        }
        StockStore.requireSku(sku);
        return this.demo.run(sku, buyers, stock);
    }

    /** Same as {@link #oversell}, answered with the plain-text table. */
    @PostMapping(path = "/demo/oversell", params = "format=text", produces = MediaType.TEXT_PLAIN_VALUE)
    public String oversellAsText(@RequestParam(defaultValue = "50") int buyers,
            @RequestParam(defaultValue = "10") long stock, @RequestParam(defaultValue = "demo") String sku) {
        return DemoTable.format(oversell(buyers, stock, sku)) + System.lineSeparator();
    }
}
