/**
 * Implementation of the lock client: scripts, key naming, the watchdog, waiting. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal;

import org.jspecify.annotations.NullMarked;
