package dev.abfleet.controller;

/**
 * Marker for messages, events and state that Pekko serializes with jackson-cbor (bound in
 * application.conf). Everything persisted or sent between nodes implements it.
 */
public interface CborSerializable {}
