package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.plan.Block;

/** Tells a host session to run this block on its worker; the host is leased for it. */
public record AssignBlock(Block block) implements SessionMessage {}
