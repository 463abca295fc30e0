package dev.abfleet.controller.fleet;

import dev.abfleet.controller.CborSerializable;

/**
 * A message to the actor that holds a worker host's stream (its session). The scheduling brain
 * only knows sessions by this type; the gRPC edge implements the session.
 */
public interface SessionMessage extends CborSerializable {}
