package dev.abfleet.controller.schedule;

import dev.abfleet.controller.fleet.SessionMessage;

/**
 * Asks a host session to register its host with the scheduler again: the scheduler singleton
 * restarted (on another node after a failover) and knows connected hosts only from
 * registrations. The session answers with a RegisterHost.
 */
public record IntroduceHost(String why) implements SessionMessage {}
