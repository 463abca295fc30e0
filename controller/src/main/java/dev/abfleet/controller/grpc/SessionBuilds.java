package dev.abfleet.controller.grpc;

import dev.abfleet.controller.fleet.Fence;

import dev.abfleet.controller.build.BuildEntity;
import dev.abfleet.controller.build.BuildOutcome;
import dev.abfleet.controller.build.BuildView;
import dev.abfleet.controller.fleet.SessionMessage;
import dev.abfleet.controller.plan.BuildJob;
import dev.abfleet.controller.schedule.Scheduler;
import dev.abfleet.controller.schedule.StopBlock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * The kernel builds a host session runs on its worker: sends each attempt down the stream and
 * lets only reports of an attempt assigned here, under its lease epoch, reach the build. The
 * host is free again (BlockDone) once the attempt's report was handled.
 */
final class SessionBuilds {

  /** The worker says how an attempt is going. No reply. */
  record BuildProgressed(String attemptId, long epoch, BuildView.Progress progress) implements SessionMessage {}

  /** The worker says how an attempt ended. No reply. */
  record BuildReported(String buildId, String attemptId, long epoch, BuildOutcome outcome)
      implements SessionMessage {}

  /** The build answered a report (null = not in time: asked again, up to {@link HostSession#REPORT_ATTEMPTS}). */
  record BuildReportHandled(BuildReported report, BuildEntity.Recorded result, int attempt)
      implements SessionMessage {}

  private static final Duration REPORT_TIMEOUT = Duration.ofSeconds(30);

  private final ActorContext<SessionMessage> context;
  private final String hostId;
  private final WorkerStream stream;
  private final ActorRef<Scheduler.Command> scheduler;
  private final ClusterSharding sharding;
  // Attempt id -> the job, until its report was handled.
  private final Map<String, BuildJob> jobs = new HashMap<>();

  SessionBuilds(ActorContext<SessionMessage> context, String hostId, WorkerStream stream,
      ActorRef<Scheduler.Command> scheduler, ClusterSharding sharding) {
    this.context = context;
    this.hostId = hostId;
    this.stream = stream;
    this.scheduler = scheduler;
    this.sharding = sharding;
  }

  void assign(BuildJob job) {
    jobs.put(job.attemptId(), job);
    stream.assignBuild(job);
  }

  /**
   * A stop of a build's lease cancels the build now; a stop at a boot boundary (preemption) lets
   * it finish.
   *
   * @return true when the stopped lease is a build's (nothing for the blocks to keep)
   */
  boolean stop(StopBlock stop) {
    var stopped = jobs.values().stream().filter(j -> Fence.admits(j.leaseEpoch(), stop.epoch())).toList();
    if (!stop.afterCurrentBoot()) {
      stopped.forEach(j -> stream.cancel(j.attemptId(), stop.reason(), false));
    }
    return !stopped.isEmpty();
  }

  void progress(BuildProgressed m) {
    BuildJob job = jobs.get(m.attemptId());
    if (job != null && Fence.admits(job.leaseEpoch(), m.epoch())) {
      sharding.entityRefFor(BuildEntity.TYPE_KEY, job.buildId())
          .tell(new BuildEntity.RecordProgress(m.attemptId(), m.epoch(), m.progress()));
    }
  }

  /** @return why the report is refused (as ReportCheck's reasons); empty = it went to its build */
  Optional<String> report(BuildReported m) {
    var refusal = refusal(jobs.get(m.attemptId()), m);
    if (refusal.isEmpty()) {
      ask(m, 1);
    }
    return refusal;
  }

  static Optional<String> refusal(BuildJob job, BuildReported m) {
    if (job == null || !job.buildId().equals(m.buildId())) {
      return Optional.of(ReportCheck.UNLEASED_BLOCK);
    }
    if (!Fence.admits(job.leaseEpoch(), m.epoch())) {
      return Optional.of(ReportCheck.STALE_EPOCH);
    }
    return Optional.empty();
  }

  void handled(BuildReportHandled m) {
    BuildReported report = m.report();
    if (m.result() == null && m.attempt() < HostSession.REPORT_ATTEMPTS) {
      ask(report, m.attempt() + 1);
      return;
    }
    if (m.result() == BuildEntity.Recorded.STALE) {
      stream.refused(report.attemptId(), ReportCheck.REJECTED_BY_EXPERIMENT);
    } else if (m.result() != null) {
      stream.ack(report.attemptId());
    } else {
      context.getLog().warn("host {}: build attempt {} not acknowledged by its build after {} tries",
          hostId, report.attemptId(), HostSession.REPORT_ATTEMPTS);
    }
    jobs.remove(report.attemptId());
    scheduler.tell(new Scheduler.BlockDone(hostId, report.attemptId(), report.epoch()));
  }

  private void ask(BuildReported m, int attempt) {
    context.ask(BuildEntity.Recorded.class,
        sharding.entityRefFor(BuildEntity.TYPE_KEY, m.buildId()),
        REPORT_TIMEOUT,
        replyTo -> new BuildEntity.RecordReport(m.attemptId(), hostId, m.epoch(), m.outcome(), replyTo),
        (result, failure) -> new BuildReportHandled(m, failure == null ? result : null, attempt));
  }
}
