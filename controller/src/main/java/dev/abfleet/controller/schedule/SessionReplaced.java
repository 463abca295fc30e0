package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.SessionMessage;

/** Tells a host session that a newer connection of the same host took over: close the stream. */
public record SessionReplaced(String hostId) implements SessionMessage {}
