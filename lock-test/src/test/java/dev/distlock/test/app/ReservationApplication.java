package dev.distlock.test.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A small application with a locked service, as a user's would be: what the lock-test tests test. */
@SpringBootApplication
public class ReservationApplication {
}
