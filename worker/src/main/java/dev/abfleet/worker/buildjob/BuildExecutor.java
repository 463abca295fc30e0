package dev.abfleet.worker.buildjob;

import dev.abfleet.proto.fleet.v1.BuildArtifacts;
import dev.abfleet.proto.fleet.v1.BuildAssignment;
import dev.abfleet.proto.fleet.v1.BuildFailure;
import dev.abfleet.proto.fleet.v1.BuildOutput;
import dev.abfleet.proto.fleet.v1.BuildProgress;
import dev.abfleet.proto.fleet.v1.BuildReport;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.KernelBuild;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.build.BuildListener;
import dev.abfleet.worker.build.BuildManifest;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs assigned kernel builds one at a time on a thread of its own: stages the inputs, builds
 * with the kernel builder, uploads image, final config, System.map and log to the controller's
 * store, and reports the outcome (BuildReport) with progress (BuildProgress) on the way. The
 * controller leases the host for the build, so no boot runs meanwhile. A cancel interrupts the
 * build (the builder kills its command) and nothing is reported: the lease is gone. Trouble
 * fetching or uploading is INFRA (the controller retries elsewhere); the builder's own verdict
 * is reported as it is.
 */
public final class BuildExecutor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BuildExecutor.class);
  /** Objects-compiled progress goes out at most this often, in ms; phases always go out. */
  static final long PROGRESS_EVERY_MS = 3000;

  /** The kernel builder (a fake in tests). */
  public interface Builder {
    BuildResult build(BuildSpec spec, BuildListener listener) throws InterruptedException;
  }

  /** Uploads a file to the controller's store; returns its sha256. */
  public interface Upload {
    String upload(Path file) throws IOException, InterruptedException;
  }

  private final Builder builder;
  private final BuildInputsStager stager;
  private final Upload upload;
  private final Consumer<WorkerMessage> out;
  private final LongSupplier clock;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "abfleet-build-executor");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Future<?>> attempts = new ConcurrentHashMap<>();

  /**
   * @param fetch the cached copy of an input, fetched from the store if absent
   * @param inputsRoot where each attempt links its inputs under their names
   */
  public BuildExecutor(Builder builder, BuildInputsStager.Fetch fetch, Path inputsRoot, Upload upload,
      Consumer<WorkerMessage> out, LongSupplier clock) {
    this.builder = builder;
    this.stager = new BuildInputsStager(fetch, inputsRoot);
    this.upload = upload;
    this.out = out;
    this.clock = clock;
  }

  public void submit(BuildAssignment a) {
    if (attempts.containsKey(a.getAttemptId())) {
      return; // the same assignment again (a repeated message): one build
    }
    attempts.put(a.getAttemptId(), thread.submit(() -> {
      try {
        run(a);
      } finally {
        attempts.remove(a.getAttemptId());
      }
    }));
  }

  /** Stops the attempt named by {@code cancel.block_id} at once; others are not this executor's. */
  public void cancel(Cancel cancel) {
    Future<?> f = attempts.get(cancel.getBlockId());
    if (f != null) {
      log.warn("cancelling build attempt {}: {}", cancel.getBlockId(), cancel.getReason());
      f.cancel(true);
    }
  }

  /**
   * Stops every attempt, running or waiting: their lease ended with the stream. The warm tree
   * keeps what was compiled, so a new attempt here picks up where this one stopped.
   */
  public void cancelAll(String reason) {
    attempts.forEach((id, f) -> {
      log.warn("cancelling build attempt {}: {}", id, reason);
      f.cancel(true);
    });
  }

  private void run(BuildAssignment a) {
    log.info("build {} attempt {} (lease epoch {}): {}", a.getBuildId(), a.getAttemptId(), a.getLeaseEpoch(),
        a.getInputs().getSource().getName());
    Progress progress = new Progress(a);
    try {
      progress.phase("fetch");
      BuildSpec spec;
      try {
        spec = stager.stage(a.getAttemptId(), a.getInputs());
      } catch (IOException | RuntimeException e) {
        report(a, failed(BuildFailure.Kind.INFRA, "", "cannot stage the build's inputs: " + e.getMessage(), ""));
        return;
      }
      long start = clock.getAsLong();
      BuildResult result = builder.build(spec, progress);
      long took = clock.getAsLong() - start;
      if (result instanceof BuildResult.Built built) {
        progress.phase("upload");
        report(a, uploaded(built, took));
      } else {
        BuildResult.Failed f = (BuildResult.Failed) result;
        log.warn("build {} attempt {} failed ({}): {}", a.getBuildId(), a.getAttemptId(), f.kind(), f.firstError());
        report(a, failed(BuildFailure.Kind.valueOf(f.kind().name()), f.file(), f.firstError(), uploadQuietly(f.log())));
      }
    } catch (InterruptedException e) {
      log.warn("build {} attempt {} stopped", a.getBuildId(), a.getAttemptId());
      Thread.currentThread().interrupt();
    } finally {
      stager.clean(a.getAttemptId());
    }
  }

  /** The outputs in the store and the report's outcome; trouble uploading is INFRA. */
  private BuildReport.Builder uploaded(BuildResult.Built built, long tookMs) throws InterruptedException {
    try {
      BuildArtifacts artifacts = BuildArtifacts.newBuilder()
          .setImageSha256(upload.upload(built.image()))
          .setConfigSha256(upload.upload(built.config()))
          .setSystemMapSha256(upload.upload(built.systemMap()))
          .setLogSha256(uploadQuietly(built.log()))
          .setImageBytes(Files.size(built.image()))
          .build();
      return BuildReport.newBuilder().setBuilt(BuildOutput.newBuilder()
          .setKernel(provenance(built.manifest())).setArtifacts(artifacts)
          .setBuildMs(built.cached() ? 0 : Math.max(0, tookMs)));
    } catch (IOException e) {
      return failed(BuildFailure.Kind.INFRA, "", "built, but the upload to the controller failed: "
          + e.getMessage(), "");
    }
  }

  static KernelBuild provenance(BuildManifest m) {
    String config = m.configBase().contains("/") ? Path.of(m.configBase()).getFileName().toString() : m.configBase();
    return KernelBuild.newBuilder().setKey(m.key()).setSource(m.sourceLabel()).setSourceDigest(m.sourceDigest())
        .addAllPatches(m.patchNames()).addAllPatchDigests(m.patchDigests()).setConfig(config)
        .setArch(m.arch()).setToolchain(m.toolchain()).setRelease(m.release()).build();
  }

  private String uploadQuietly(Path file) throws InterruptedException {
    if (file == null || !Files.isRegularFile(file)) {
      return "";
    }
    try {
      return upload.upload(file);
    } catch (IOException e) {
      log.warn("cannot upload build log {}: {}", file, e.getMessage());
      return "";
    }
  }

  private static BuildReport.Builder failed(BuildFailure.Kind kind, String file, String firstError, String log) {
    return BuildReport.newBuilder().setFailed(BuildFailure.newBuilder().setKind(kind)
        .setFile(file == null ? "" : file).setFirstError(firstError == null ? "" : firstError).setLogSha256(log));
  }

  private void report(BuildAssignment a, BuildReport.Builder r) {
    out.accept(WorkerMessage.newBuilder().setBuildReport(r.setBuildId(a.getBuildId())
        .setAttemptId(a.getAttemptId()).setLeaseEpoch(a.getLeaseEpoch())).build());
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }

  /** The builder's progress as BuildProgress messages, compile counts at most every few seconds. */
  private final class Progress implements BuildListener {
    private final BuildAssignment a;
    private String phase = "";
    private long sentAtMs = Long.MIN_VALUE / 2;

    Progress(BuildAssignment a) {
      this.a = a;
    }

    @Override
    public void phase(String phase) {
      this.phase = phase;
      log.info("build attempt {}: phase {}", a.getAttemptId(), phase);
      send(0, 0);
    }

    @Override
    public void compiled(int objects, int expected) {
      long now = clock.getAsLong();
      if (now - sentAtMs >= PROGRESS_EVERY_MS) {
        send(objects, expected);
      }
    }

    private void send(int objects, int expected) {
      sentAtMs = clock.getAsLong();
      out.accept(WorkerMessage.newBuilder().setBuildProgress(BuildProgress.newBuilder()
          .setAttemptId(a.getAttemptId()).setLeaseEpoch(a.getLeaseEpoch()).setPhase(phase)
          .setObjects(objects).setObjectsExpected(expected)).build());
    }
  }
}
