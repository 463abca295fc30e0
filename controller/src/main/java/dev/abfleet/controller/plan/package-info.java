/**
 * What a host is told to run: a {@link dev.abfleet.controller.plan.Block} of boots ({@link
 * dev.abfleet.controller.plan.RunPlan}) and the values they carry (artifacts, benchmark,
 * workload, guest setup). Experiments build blocks, the scheduler hands them to host sessions,
 * the gRPC edge converts them for the worker; this package depends on none of them.
 *
 * <p>These records are also nested in persisted experiment events and snapshots. Jackson writes
 * nested values by field name (only the top-level class is the journal manifest), so moving them
 * here from {@code experiment} and {@code schedule} left existing journals readable; {@code
 * JournalCompatibilityTest} reads events written before the move. Renaming a field would not be.
 */
package dev.abfleet.controller.plan;
