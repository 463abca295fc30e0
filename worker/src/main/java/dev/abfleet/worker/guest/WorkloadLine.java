package dev.abfleet.worker.guest;

/**
 * One line a workload printed on its standard output, as fleetbench forwarded it.
 *
 * @param lineNumber 1-based line of the results channel that carried it
 * @param text the line, without its newline
 * @param cut the workload's line was longer than fleetbench forwards (4096 bytes) and was cut
 */
public record WorkloadLine(int lineNumber, String text, boolean cut) {}
