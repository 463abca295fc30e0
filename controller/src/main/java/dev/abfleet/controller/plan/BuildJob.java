package dev.abfleet.controller.plan;

/**
 * One attempt of a kernel build on a leased host.
 *
 * @param attemptId unique per attempt: the idempotency key of the worker's report
 * @param leaseEpoch the host's lease epoch; reports under another epoch are refused
 */
public record BuildJob(String buildId, String attemptId, String hostId, long leaseEpoch,
    BuildInputs inputs) {}
