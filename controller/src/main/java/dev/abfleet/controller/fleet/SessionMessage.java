package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * A message to the actor that holds a worker host's stream (its session). The scheduling brain
 * only knows sessions by this type; the gRPC edge implements the session.
 */
public interface SessionMessage extends CborSerializable {
  /**
   * Every live session on every node registers under this key, so that a scheduler singleton
   * that started on another node (failover) can find the hosts still connected elsewhere.
   */
  ServiceKey<SessionMessage> SESSIONS = ServiceKey.create(SessionMessage.class, "host-sessions");
}
