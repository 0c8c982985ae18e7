/**
 * Durations, checked and written for people ({@code DurationFormat}: {@code 1.5s}, never {@code PT1.5S}): the bottom
 * of the internal packages, used by every layer, the public API and the starter. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.time;

import org.jspecify.annotations.NullMarked;
