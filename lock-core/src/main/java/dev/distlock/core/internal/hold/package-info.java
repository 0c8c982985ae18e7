/**
 * After the grant: a {@code Hold} per ownership (owner token, fencing token, validity on the monotonic clock), handed
 * out as a {@code DefaultLockLease} or {@code MultiLease}; the {@code LeaseWatchdog} renews watchdog leases and checks
 * fixed ones in batches and marks a hold lost when Redis refuses or its validity passes; {@code LeaseRegistry} lists
 * held leases and tells listeners; {@code ThreadHolds} keeps each thread's holds (reentrancy, upgrade check); {@code HoldRelease} runs the owner-checked release, and {@code BackgroundCleanup}
 * retries what Redis did not answer and abandons acquisitions whose outcome is unknown. Not API; may change in any
 * release.
 */
@NullMarked
package dev.distlock.core.internal.hold;

import org.jspecify.annotations.NullMarked;
