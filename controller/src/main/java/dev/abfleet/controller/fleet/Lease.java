package dev.abfleet.controller.fleet;

/** An exclusive claim of one host by one experiment; {@code epoch} orders claims per host. */
public record Lease(String hostId, long epoch, String experimentId) {}
