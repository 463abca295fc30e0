package dev.abfleet.worker.guest;

/**
 * A results line that is not valid guest protocol; it yields no sample.
 *
 * @param lineNumber 1-based line number in the results channel
 * @param message what is wrong, with the offending value
 */
public record ParseError(int lineNumber, String message) {}
