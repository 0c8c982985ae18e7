/**
 * Actuator support for distributed locks: the {@code distributedlocks} endpoint (leases this instance holds, a lock's
 * inspection, an opt-in force-release) and the {@code distributedLock} health contributor.
 */
@NullMarked
package dev.distlock.spring.boot.actuate;

import org.jspecify.annotations.NullMarked;
