/** Failure analyzers: a short "APPLICATION FAILED TO START" report for invalid lock declarations and unreachable Redis. */
@NullMarked
package dev.distlock.spring.boot.diagnostics;

import org.jspecify.annotations.NullMarked;
