/** Opt-in HTTP mapping of lock failures for Spring MVC applications: ProblemDetail bodies with 409/423 and 503. */
@NullMarked
package dev.distlock.spring.boot.web;

import org.jspecify.annotations.NullMarked;
