package dev.abfleet.controller.noise;

import dev.abfleet.controller.nightly.AaNoise;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.stats.noise.NoiseRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an A/A schedule's run measured ({@link NoiseMeasure}), merged into its host classes'
 * records in the controller's {@link NoiseLedger}, as {@code abfleet calibrate --real} does;
 * every client's report quotes them. Runs off the Nightly actor, so it may wait for the ledger.
 */
public final class LedgerAaNoise implements AaNoise {
  private static final Logger log = LoggerFactory.getLogger(LedgerAaNoise.class);
  private final ActorSystem<?> system;
  private final ActorRef<NoiseLedger.Command> ledger;
  private final Duration askTimeout;

  public LedgerAaNoise(ActorSystem<?> system, ActorRef<NoiseLedger.Command> ledger, Duration askTimeout) {
    this.system = system;
    this.ledger = ledger;
    this.askTimeout = askTimeout;
  }

  /** @throws IllegalStateException the ledger refused or did not answer (Nightly logs it) */
  @Override
  public void record(String schedule, Experiment done, Instant due) {
    for (NoiseRecord measured : NoiseMeasure.of(done, due.atZone(ZoneOffset.UTC).toLocalDate())) {
      NoiseRecord merged = merge(measured);
      log.info("nightly: {}: A/A noise of host class {} recorded in the controller ({}/{} experiments with a"
          + " false positive)", schedule, merged.shownClass(), merged.falsePositives(), merged.experiments());
    }
  }

  private NoiseRecord merge(NoiseRecord measured) {
    try {
      StatusReply<NoiseLedger.Merged> reply = AskPattern.<NoiseLedger.Command, StatusReply<NoiseLedger.Merged>>ask(ledger,
              replyTo -> new NoiseLedger.MergeNoise(measured, replyTo), askTimeout, system.scheduler())
          .toCompletableFuture().get(askTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
      if (reply.isError()) {
        throw new IllegalStateException(reply.getError().getMessage());
      }
      return reply.getValue().record();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while recording the noise of " + measured.hostClass(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the noise ledger did not answer in " + askTimeout.toSeconds() + " s ("
          + (e.getCause() == null ? e : e.getCause()) + ")", e);
    }
  }
}
