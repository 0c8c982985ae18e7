/**
 * Leader election on distributed locks: one instance of a group leads, holding the lock {@code leader:<group>} with a
 * watchdog lease; its candidate is told when it leads ({@code LeaderCandidate.onGranted}, with the term's epoch, the
 * lock's fencing token) and when it no longer does ({@code onRevoked}, as soon as the lease is lost, before another
 * instance can lead). Stopping gives leadership up at once.
 *
 * <p>How it fits together. {@code LeaderElection} runs one group's election on a thread of its own: it waits in line
 * for the lock, makes each granted lease a {@code Term} (the {@code LeadershipContext} the candidate sees), waits for
 * the term to end (loss listener, yield or stop), tells the candidate and releases. {@code LeaderElections} is the
 * bean that holds the application's elections; {@code PublishingCandidate} adds the {@code LeadershipEvent}s.
 *
 * <p>API: {@code LeaderCandidate}, {@code LeadershipContext}, {@code LeaderElection}, {@code LeaderElections} and
 * {@code LeadershipEvent}; everything else is package-private.
 */
@NullMarked
package dev.distlock.spring.leader;

import org.jspecify.annotations.NullMarked;
