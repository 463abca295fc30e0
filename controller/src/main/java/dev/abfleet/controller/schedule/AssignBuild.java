package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.plan.BuildJob;

/** Tells a host session to run this build on its worker; the host is leased for it. */
public record AssignBuild(BuildJob job) implements SessionMessage {}
