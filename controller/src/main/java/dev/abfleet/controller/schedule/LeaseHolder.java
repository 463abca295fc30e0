package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.plan.Block;
import dev.abfleet.controller.plan.BuildJob;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What the scheduler tells whoever asked it for hosts ({@link SchedulerProtocol.RequestHosts}):
 * plan a block for a host leased to you, and your lease is gone. The scheduler only knows its
 * demands by {@code ActorRef<LeaseHolder.Message>}; an experiment entity hands it a message
 * adapter, so this package never names the experiment's own protocol.
 */
public final class LeaseHolder {
  private LeaseHolder() {}

  public sealed interface Message extends CborSerializable permits PlanBlock, LeaseLost {}

  /**
   * The host is leased to the holder; replies a {@link PlanReply}.
   *
   * @param otherHostsMatch another usable host matches the selector, so a pair that failed on
   *     this host (INFRA) can wait for it
   */
  public record PlanBlock(String hostId, long epoch, HostCapabilities capabilities,
      boolean otherHostsMatch, ActorRef<PlanReply> replyTo) implements Message {
    public PlanBlock(String hostId, long epoch, HostCapabilities capabilities,
        ActorRef<PlanReply> replyTo) {
      this(hostId, epoch, capabilities, false, replyTo);
    }
  }

  public sealed interface PlanReply extends CborSerializable permits BlockPlanned, BuildPlanned, NoBlockNeeded {}

  /** The block the host's session runs under the lease. */
  public record BlockPlanned(Block block) implements PlanReply {}

  /** A kernel build the host's session runs under the lease (the holder is a build). */
  public record BuildPlanned(BuildJob job) implements PlanReply {}

  /**
   * Nothing to run on this host: the lease can go to someone else.
   *
   * @param wantsOtherHost false = every pair is done or in flight; true = the open pairs avoid
   *     this host (INFRA failures there) and wait for another matching host
   */
  public record NoBlockNeeded(String experimentId, boolean wantsOtherHost) implements PlanReply {
    public NoBlockNeeded(String experimentId) {
      this(experimentId, false);
    }
  }

  /** The lease (host, epoch) is gone; a block planned under it is abandoned. No reply. */
  public record LeaseLost(String hostId, long epoch, String reason) implements Message {}
}
