/** Micrometer Observation of distributed locks: held leases, lost leases and failed renewals. */
@NullMarked
package dev.distlock.spring.boot.observation;

import org.jspecify.annotations.NullMarked;
