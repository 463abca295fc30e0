package dev.abfleet.controller.experiment;

import dev.abfleet.controller.TestActorKits;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.schedule.Scheduler;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * One experiment entity "e1" under the event-sourced test kit (events serialized with CBOR, as
 * in production) and a probe standing in for the scheduler; a fresh entity for every test.
 */
abstract class EntityTestKit {
  // One actor system per test class (started and shut down around each class).
  static ActorTestKit kit;
  static final HostCapabilities HOST = new HostCapabilities("h1", "x86_64", 2, 4096, Map.of(),
      Map.of("qemu", List.of("tcg")), "", "", "");

  TestProbe<Scheduler.Command> scheduler;
  EventSourcedBehaviorTestKit<ExperimentEntity.Command, ExperimentEvent, ExperimentState> entity;

  @BeforeAll
  static void start() {
    kit = TestActorKits.eventSourced();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    scheduler = kit.createTestProbe();
    entity = EventSourcedBehaviorTestKit.create(kit.system(), ExperimentEntity.create("e1", scheduler.ref()));
  }
}
