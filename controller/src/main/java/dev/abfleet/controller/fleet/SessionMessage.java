package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * A message to the actor that holds a worker host's stream (its session). The scheduling brain
 * only knows sessions by this type; the gRPC edge implements the session.
 */
public interface SessionMessage extends CborSerializable {
  /**
   * Each node's directory of its live sessions registers under this key (one entry per node,
   * not per host), so that a scheduler singleton that started on another node (failover) can
   * find the hosts still connected elsewhere: told IntroduceHost, a directory passes it on to
   * each of its sessions.
   */
  ServiceKey<SessionMessage> SESSIONS = ServiceKey.create(SessionMessage.class, "host-sessions");
}
