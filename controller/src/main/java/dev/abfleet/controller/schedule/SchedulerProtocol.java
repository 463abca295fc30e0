package dev.abfleet.controller.schedule;

import dev.abfleet.controller.CborSerializable;
import dev.abfleet.controller.fleet.HostCapabilities;
import dev.abfleet.controller.fleet.HostSelector;
import dev.abfleet.controller.fleet.HostPage;
import dev.abfleet.controller.fleet.HostView;
import dev.abfleet.controller.fleet.SessionMessage;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What the scheduler is told and answers: its commands and replies. {@link Scheduler}
 * implements this interface, so they are named {@code Scheduler.RequestHosts} and so on; they
 * live here to keep the behaviour's file about behaviour. Its persisted events stay nested in
 * {@link Scheduler} (their class names are journal manifests).
 */
public interface SchedulerProtocol {
  public sealed interface Command extends CborSerializable
      permits RegisterHost, HostDisconnected, RequestHosts, WithdrawDemand, BlockDone, ListHosts,
          DrainHost, UndrainHost, ReleaseHost, CheckSelector, GetStanding, GetQueue, RunHandled,
          Scheduler.PlanAnswered, Scheduler.LeaseExpired, Scheduler.CoolDownOver, Scheduler.Flush,
          NoiseObserved, Scheduler.SessionsFound, ReportRejected {}

  /** A worker's session holds the host's stream now; replaces an older session. No reply. */
  public record RegisterHost(HostCapabilities capabilities, ActorRef<SessionMessage> session)
      implements Command {}

  /** The session's stream ended or went silent; the host's lease is released. No reply. */
  public record HostDisconnected(String hostId, ActorRef<SessionMessage> session)
      implements Command {}

  /**
   * The experiment wants hosts (idempotent; also re-arms it after NoBlockNeeded and refreshes
   * {@code openPairs}, the pairs it still needs; 0 = no cap). No reply.
   */
  public record RequestHosts(
      String experimentId,
      HostSelector selector,
      String priority,
      ActorRef<LeaseHolder.Message> experiment,
      int openPairs)
      implements Command {

    public RequestHosts(String experimentId, HostSelector selector, String priority,
        ActorRef<LeaseHolder.Message> experiment) {
      this(experimentId, selector, priority, experiment, 0);
    }
  }

  /** The experiment wants no more hosts. No reply. */
  public record WithdrawDemand(String experimentId) implements Command {}

  /** The worker finished the block; frees the host if {@code epoch} is current. No reply. */
  public record BlockDone(String hostId, String blockId, long epoch) implements Command {}

  /** Replies {@link Hosts}: the hosts of {@code page} and the whole fleet's counts. */
  public record ListHosts(HostPage page, ActorRef<Hosts> replyTo) implements Command {
    /** Every known host. */
    public ListHosts(ActorRef<Hosts> replyTo) {
      this(HostPage.ALL, replyTo);
    }
  }

  /** @param listing the page asked for, sorted by host id, and the fleet's counts */
  public record Hosts(HostPage.Listing listing) implements CborSerializable {
    public List<HostView> hosts() {
      return listing.hosts();
    }
  }

  /** The host finishes its block and takes no new lease; replies a {@link HostReply}. */
  public record DrainHost(String hostId, String reason, ActorRef<HostReply> replyTo)
      implements Command {}

  /** The host takes leases again; replies a {@link HostReply}. */
  public record UndrainHost(String hostId, ActorRef<HostReply> replyTo) implements Command {}

  /** Ends the host's quarantine and failure streak; replies a {@link HostReply}. */
  public record ReleaseHost(String hostId, ActorRef<HostReply> replyTo) implements Command {}

  public sealed interface HostReply extends CborSerializable permits HostChanged, UnknownHost {}

  /** The host as ListHosts shows it after the change. */
  public record HostChanged(HostView host) implements HostReply {}

  /** No host with this id was seen since the controller started. */
  public record UnknownHost(String hostId, List<String> known) implements HostReply {}

  /** Replies {@link SelectorCheck}: can any host known since start ever run this selector? */
  public record CheckSelector(HostSelector selector, ActorRef<SelectorCheck> replyTo)
      implements Command {}

  /** @param problem why no known host can run the selector; empty = some host can (or none known) */
  public record SelectorCheck(String problem) implements CborSerializable {}

  /** Replies {@link Queue}: the experiments waiting in line for a host, by priority. */
  public record GetQueue(ActorRef<Queue> replyTo) implements Command {}

  /** @param waitingByPriority experiments whose place in line is 1 or more, by priority */
  public record Queue(java.util.Map<String, Integer> waitingByPriority) implements CborSerializable {}

  /** Replies the experiment's {@link Standing} in the line for hosts. */
  public record GetStanding(String experimentId, ActorRef<Standing> replyTo) implements Command {}

  /**
   * @param queuePosition 0 = holds a host or does not wait; N = N-th in line
   * @param hostsHeld hosts leased to the experiment now
   */
  public record Standing(int queuePosition, int hostsHeld) implements CborSerializable {}

  /**
   * A boot's report on the host was handled by its experiment. INFRA failures in a row
   * quarantine the host (within the policy's cap); any other outcome ends the streak. A host
   * whose boots are often {@code interfered} is flagged noisy. No reply.
   *
   * @param interfered the worker marked the boot's window interfered (host busy with other processes)
   */
  public record RunHandled(String hostId, boolean infra, String message, boolean interfered)
      implements Command {}

  /**
   * A completed experiment's paired noise per host (the experiment's PairNoise):
   * a host whose noise drifted well past its history is quarantined (within the cap). No reply.
   */
  public record NoiseObserved(String experimentId, Map<String, double[]> residualsByHost)
      implements Command {}

  /**
   * A session refused a report of the host (reason as in {@code ReportAck.refused}): counted
   * per host in memory for ListHosts, not persisted. No reply.
   */
  public record ReportRejected(String hostId, String reason) implements Command {}
}
