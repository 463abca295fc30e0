package dev.abfleet.worker.link;

import dev.abfleet.proto.fleet.v1.FailureKind;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import java.util.Optional;

/** Run reports (RunResult, RunFailure) as the link handles them: by run id, and shrunk when the controller cannot take them. */
final class Reports {
  /** Longest failure message kept in a shrunk report; a failure message is meant to be one line. */
  static final int SHRUNK_MESSAGE_CHARS = 1000;

  private Reports() {}

  /** The run a report is about; empty for every other message. */
  static Optional<String> runId(WorkerMessage m) {
    return switch (m.getKindCase()) {
      case RUN_RESULT -> Optional.of(m.getRunResult().getRunId());
      case RUN_FAILURE -> Optional.of(m.getRunFailure().getRunId());
      case BUILD_REPORT -> Optional.of(m.getBuildReport().getAttemptId());
      default -> Optional.empty();
    };
  }

  /**
   * What can still be said about a run whose report the controller cannot take: a RunResult
   * becomes a HARNESS failure without its samples, a RunFailure loses its console tail and the
   * end of a long message. Either keeps its ids, epoch and telemetry, and says {@code why}.
   */
  static WorkerMessage shrunk(WorkerMessage report, String why) {
    if (report.hasRunResult()) {
      RunResult r = report.getRunResult();
      return WorkerMessage.newBuilder().setRunFailure(RunFailure.newBuilder()
          .setRunId(r.getRunId())
          .setExperimentId(r.getExperimentId())
          .setBlockId(r.getBlockId())
          .setLeaseEpoch(r.getLeaseEpoch())
          .setKind(FailureKind.HARNESS)
          .setMessage(why + "; its " + r.getSamplesCount() + " samples were dropped")
          .setTelemetry(r.getTelemetry()))
          .build();
    }
    if (report.hasRunFailure()) {
      RunFailure f = report.getRunFailure();
      String message = f.getMessage().length() > SHRUNK_MESSAGE_CHARS
          ? f.getMessage().substring(0, SHRUNK_MESSAGE_CHARS) + "..."
          : f.getMessage();
      return WorkerMessage.newBuilder().setRunFailure(f.toBuilder()
          .setMessage(message + "; " + why + "; its console tail was dropped")
          .clearConsoleTail())
          .build();
    }
    if (report.hasBuildReport() && report.getBuildReport().hasFailed()) {
      var f = report.getBuildReport().getFailed();
      String error = f.getFirstError().length() > SHRUNK_MESSAGE_CHARS
          ? f.getFirstError().substring(0, SHRUNK_MESSAGE_CHARS) + "..." : f.getFirstError();
      return WorkerMessage.newBuilder().setBuildReport(report.getBuildReport().toBuilder()
          .setFailed(f.toBuilder().setFirstError(error + "; " + why))).build();
    }
    if (report.hasBuildReport()) {
      return report; // a build's outcome is a few hashes: nothing to drop
    }
    throw new IllegalArgumentException("not a run report: " + report.getKindCase());
  }
}
