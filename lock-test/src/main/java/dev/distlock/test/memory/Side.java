package dev.distlock.test.memory;

/** Which side of a name's state a hold takes. */
enum Side {

    /** The reentrant, fair or multi-lock of a name: one holder. */
    EXCLUSIVE,

    /** A reader of the read/write lock of a name: shared with other readers. */
    READ,

    /** The writer of the read/write lock of a name: excludes readers and other writers. */
    WRITE
}
