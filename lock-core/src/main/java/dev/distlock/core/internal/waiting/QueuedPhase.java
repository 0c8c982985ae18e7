package dev.distlock.core.internal.waiting;

/**
 * Where a {@link QueuedAcquisition} stands; it has one method per phase. Every phase but {@link #DONE} ends in DONE
 * at the deadline or when the caller gives up. A handoff's confirmation may overlap a check already on its way: the
 * first of them to complete the result decides ({@link QueuedOutcome}).
 */
enum QueuedPhase {

    /**
     * An attempt is on its way: the first, a check on the place, or one that queues again. Its reply leads to DONE
     * (a grant, no reply, or a refusal at the deadline or of a caller that does not wait), QUEUED, SUBSCRIBING (not
     * listening yet), BACKING_OFF, or ATTEMPTING again (skipped while queued).
     */
    ATTEMPTING,

    /** Listening on the wake channel before queueing, the deadline armed: then ATTEMPTING. */
    SUBSCRIBING,

    /** Refused without a place after entering the room (a tombstone, nobody listening): a back-off, then ATTEMPTING. */
    BACKING_OFF,

    /** Holding a place in the queue, asleep: the announcement leads to CONFIRMING, the check timer to ATTEMPTING. */
    QUEUED,

    /** Offered the lock, confirming the offer: DONE with the grant, or ATTEMPTING again when the offer lapsed. */
    CONFIRMING,

    /** The result is complete: a grant, or given up (the place is left). Final. */
    DONE
}
