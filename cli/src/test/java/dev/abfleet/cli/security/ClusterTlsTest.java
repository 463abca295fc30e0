package dev.abfleet.cli.security;

import static dev.abfleet.cli.security.TlsController.abfleet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.PekkoConfig;
import dev.abfleet.controller.security.Security;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster port under TLS: mutual TLS keyed by the fleet CA. The rogues are bare actor
 * systems with a node's Pekko configuration ({@link PekkoConfig#of}) but none of the checks
 * {@link ControllerNode#start} makes of its own settings, as an attacker's build would be.
 */
class ClusterTlsTest {
  // Long enough for a join to succeed on a busy 2-core machine (the good node needs ~1-2 s).
  private static final Duration JOIN_WAIT = Duration.ofSeconds(10);

  @TempDir static Path dir;
  private static Path fleet;
  private static Path other;
  private static ControllerNode victim;

  @BeforeAll
  static void startVictim() {
    fleet = dir.resolve("fleet");
    other = dir.resolve("other");
    abfleet("certs", "init", "--dir", fleet.toString());
    abfleet("certs", "init", "--dir", other.toString());
    for (String node : List.of("a", "b", "c")) {
      abfleet("certs", "issue", "--controller", node, "--san", "127.0.0.1", "--dir", fleet.toString());
    }
    abfleet("certs", "issue", "--controller", "rogue", "--san", "127.0.0.1", "--dir", other.toString());
    abfleet("certs", "issue", "--worker", "host-1", "--dir", fleet.toString());
    victim = ControllerNode.start(tls(fleet, "a", List.of()));
  }

  @AfterAll
  static void stop() {
    if (victim != null) {
      victim.close();
    }
  }

  @Test
  void admitsANodeWithAControllerCertificateOfTheFleetCa() {
    try (ControllerNode b = ControllerNode.start(tls(fleet, "b", List.of(victim.nodeAddress())))) {
      assertThat(victim.clusterMembers()).contains(b.nodeAddress());
    }
  }

  @Test
  void refusesANodeWithACertificateFromAnotherCa() {
    assertRogueStaysOut(tls(other, "rogue", List.of(victim.nodeAddress())));
  }

  @Test
  void refusesANodeThatPresentsAWorkerCertificateOfTheFleetCa() {
    Security security = new Security(new Security.Tls(fleet.resolve("ca.pem"), fleet.resolve("host-1.pem"),
        fleet.resolve("host-1-key.pem")), Security.AuthMode.TOKENS, dir.resolve("w.token"));
    assertRogueStaysOut(ControllerSettings.inMemory().withSecurity(security)
        .withCluster("127.0.0.1", 0, List.of(victim.nodeAddress())));
  }

  @Test
  void refusesAPlaintextNodeEvenWithInsecureCluster() {
    assertRogueStaysOut(ControllerSettings.inMemory().withInsecureCluster(true)
        .withCluster("127.0.0.1", 0, List.of(victim.nodeAddress())));
  }

  @Test
  void refusesToStartWithAWorkerCertificateAsItsOwn() {
    Security security = new Security(new Security.Tls(fleet.resolve("ca.pem"), fleet.resolve("host-1.pem"),
        fleet.resolve("host-1-key.pem")), Security.AuthMode.TOKENS, dir.resolve("w2.token"));
    assertThatThrownBy(() -> ControllerNode.start(ControllerSettings.inMemory().withSecurity(security)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lacks clientAuth or serverAuth usage")
        .hasMessageContaining("abfleet certs issue --controller");
  }

  @Test
  void aBareSystemWithAGoodCertificateJoins() throws InterruptedException {
    // The control of the rogue tests: the same bare system and wait, with a fleet certificate.
    ActorSystem<Void> good = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME,
        PekkoConfig.of(tls(fleet, "c", List.of(victim.nodeAddress()))));
    try {
      assertThat(upWithin(good, JOIN_WAIT)).isTrue();
      assertThat(victim.clusterMembers()).contains(good.address().toString());
    } finally {
      stopSystem(good);
    }
  }

  /**
   * Terminates a test's own actor system, waiting at most 30 s: once its coordinated shutdown
   * timed out, a system's termination never completed, and an unbounded wait hung the build.
   */
  private static void stopSystem(ActorSystem<?> system) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Left to the test JVM's exit; what the test checks was decided before.
    }
  }

  private static void assertRogueStaysOut(ControllerSettings rogueSettings) {
    ActorSystem<Void> rogue = ActorSystem.create(Behaviors.empty(), PekkoConfig.SYSTEM_NAME,
        PekkoConfig.of(rogueSettings));
    try {
      assertThat(upWithin(rogue, JOIN_WAIT)).as("rogue became a member").isFalse();
      assertThat(victim.clusterMembers()).doesNotContain(rogue.address().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      stopSystem(rogue);
    }
  }

  private static boolean upWithin(ActorSystem<Void> system, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      if (Cluster.get(system).selfMember().status() == MemberStatus.up()) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  private static ControllerSettings tls(Path certs, String name, List<String> seeds) {
    Security security = new Security(new Security.Tls(certs.resolve("ca.pem"), certs.resolve(name + ".pem"),
        certs.resolve(name + "-key.pem")), Security.AuthMode.TOKENS, dir.resolve(name + ".token"));
    return ControllerSettings.inMemory().withSecurity(security).withCluster("127.0.0.1", 0, seeds);
  }
}
