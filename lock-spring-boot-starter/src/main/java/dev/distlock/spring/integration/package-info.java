/**
 * Spring Integration on distlock: {@code DistlockLockRegistry}, a {@code LockRegistry} whose locks are distlock's,
 * declared by the starter when spring-integration-core is on the class path and the application has no lock registry
 * of its own.
 */
@NullMarked
package dev.distlock.spring.integration;

import org.jspecify.annotations.NullMarked;
