package dev.abfleet.worker.guest;

/**
 * An {@code error} event: the harness could not measure {@code metric} and went on with the
 * next one.
 *
 * @param lineNumber 1-based line of the results channel
 * @param metric the metric that failed ("" if the harness did not name one)
 * @param message the harness's message
 */
public record HarnessError(int lineNumber, String metric, String message) {}
