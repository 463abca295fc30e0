package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.SessionMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.receptionist.Receptionist;

/**
 * How long ago each connected host's worker last spoke, from the session directories of every
 * node (the scheduler is not told of heartbeats: at thousands of hosts that would be thousands
 * of messages a second to one actor). One ask per node, not per host.
 */
public final class HeartbeatAges {
  private HeartbeatAges() {}

  /**
   * Host id -> ms since its worker's last message reached the controller. A host without a live
   * session is absent, and so are the hosts of a node whose directory did not answer within
   * {@code timeout}: the listing is still shown, without their ages.
   */
  public static CompletionStage<Map<String, Long>> of(ActorSystem<?> system, Duration timeout) {
    CompletionStage<Receptionist.Listing> listing = AskPattern.ask(system.receptionist(),
        replyTo -> Receptionist.find(SessionMessage.SESSIONS, replyTo), timeout, system.scheduler());
    return listing.thenCompose(l -> {
      List<CompletableFuture<Map<String, Long>>> each = l.getServiceInstances(SessionMessage.SESSIONS)
          .stream().map(directory -> ask(system, directory, timeout)).toList();
      return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(done -> {
        Map<String, Long> ages = new HashMap<>();
        each.forEach(f -> f.join().forEach((host, ms) -> ages.merge(host, ms, Math::min)));
        return Map.copyOf(ages);
      });
    }).exceptionally(failure -> Map.of());
  }

  private static CompletableFuture<Map<String, Long>> ask(
      ActorSystem<?> system, ActorRef<SessionMessage> directory, Duration timeout) {
    CompletionStage<SessionDirectory.Heard> heard = AskPattern.ask(directory,
        SessionDirectory.ListHeard::new, timeout, system.scheduler());
    return heard.thenApply(SessionDirectory.Heard::silentMs)
        .exceptionally(failure -> Map.of()).toCompletableFuture();
  }
}
