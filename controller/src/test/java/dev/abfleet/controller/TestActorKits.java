package dev.abfleet.controller;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;

/** Local actor test kits that serialize messages, events and state as the controller does (CBOR). */
public final class TestActorKits {
  private static final Config CBOR = ConfigFactory.parseString("""
      pekko.actor.provider = local
      pekko.actor.serialization-bindings {
        "dev.abfleet.controller.CborSerializable" = jackson-cbor
      }
      """);

  private TestActorKits() {}

  /** A kit whose messages go through CBOR. */
  public static ActorTestKit cbor() {
    return ActorTestKit.create(CBOR);
  }

  /** A kit whose persistent actors journal in memory, without snapshots. */
  public static ActorTestKit inMemoryJournal() {
    return ActorTestKit.create(ConfigFactory.parseString("""
        pekko.persistence.journal.plugin = "pekko.persistence.journal.inmem"
        pekko.persistence.snapshot-store.plugin = ""
        """));
  }

  /** A kit for {@link EventSourcedBehaviorTestKit}: its journal, and CBOR. */
  public static ActorTestKit eventSourced() {
    return ActorTestKit.create(EventSourcedBehaviorTestKit.config().withFallback(CBOR));
  }
}
