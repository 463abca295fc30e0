package dev.abfleet.worker.buildjob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.BuildAssignment;
import dev.abfleet.proto.fleet.v1.BuildFailure;
import dev.abfleet.proto.fleet.v1.BuildFile;
import dev.abfleet.proto.fleet.v1.BuildInputs;
import dev.abfleet.proto.fleet.v1.Cancel;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import dev.abfleet.worker.build.BuildListener;
import dev.abfleet.worker.build.BuildManifest;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build executor with a fake builder and a fake store. */
class BuildExecutorTest {
  static final String SRC = "a".repeat(64);
  static final String PATCH = "b".repeat(64);

  final BlockingQueue<WorkerMessage> out = new LinkedBlockingQueue<>();
  final Map<String, Path> stored = new ConcurrentHashMap<>();
  volatile BuildSpec seen;

  static BuildAssignment assignment() {
    return BuildAssignment.newBuilder().setBuildId("c".repeat(64)).setAttemptId("ccc-a1").setLeaseEpoch(7)
        .setInputs(BuildInputs.newBuilder()
            .setSource(BuildFile.newBuilder().setName("linux-6.1.tar.xz").setSha256(SRC))
            .addPatches(BuildFile.newBuilder().setName("fix.patch").setSha256(PATCH))
            .setConfigBase("abfleet-minimal").setArch("x86_64"))
        .build();
  }

  BuildExecutor executor(Path dir, BuildExecutor.Builder builder) throws IOException {
    Path cache = Files.createDirectories(dir.resolve("cache"));
    Files.writeString(cache.resolve(SRC), "tarball");
    Files.writeString(cache.resolve(PATCH), "patch");
    BuildInputsStager.Fetch fetch = sha -> {
      Path p = cache.resolve(sha);
      if (!Files.exists(p)) {
        throw new IOException("the controller's store does not hold " + sha);
      }
      return p;
    };
    BuildExecutor.Upload upload = file -> {
      String sha = Integer.toHexString(file.getFileName().toString().hashCode());
      stored.put(sha, file);
      return sha;
    };
    return new BuildExecutor((spec, listener) -> {
      seen = spec;
      return builder.build(spec, listener);
    }, fetch, dir.resolve("inputs"), upload, out::add, System::currentTimeMillis);
  }

  static BuildResult.Built built(Path dir) throws IOException {
    Path a = Files.createDirectories(dir.resolve("artifacts"));
    for (String f : List.of("bzImage", "config", "System.map", "build.log")) {
      Files.writeString(a.resolve(f), f);
    }
    BuildManifest m = new BuildManifest("k".repeat(64), "linux-6.1.tar.xz", SRC, List.of("fix.patch"), List.of(PATCH),
        "abfleet-minimal", "x86_64", "gcc 12; make 4.3", "6.1.0", 0);
    return new BuildResult.Built("k".repeat(64), a.resolve("bzImage"), a.resolve("config"), a.resolve("System.map"),
        null, a.resolve("build.log"), false, Duration.ofSeconds(3), List.of(), m);
  }

  WorkerMessage next(WorkerMessage.KindCase kind) throws InterruptedException {
    while (true) {
      WorkerMessage m = out.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("a %s", kind).isNotNull();
      if (m.getKindCase() == kind) {
        return m;
      }
    }
  }

  @Test
  void aBuiltKernelIsUploadedAndReportedWithItsProvenanceUnderTheLease(@TempDir Path dir) throws Exception {
    BuildResult.Built result = built(dir);
    try (BuildExecutor e = executor(dir, (spec, l) -> {
      l.phase("compile");
      l.compiled(10, 100);
      return result;
    })) {
      e.submit(assignment());

      var report = next(WorkerMessage.KindCase.BUILD_REPORT).getBuildReport();

      assertThat(report.getAttemptId()).isEqualTo("ccc-a1");
      assertThat(report.getLeaseEpoch()).isEqualTo(7);
      assertThat(report.getBuilt().getKernel().getKey()).isEqualTo("k".repeat(64));
      assertThat(report.getBuilt().getKernel().getPatchesList()).containsExactly("fix.patch");
      assertThat(report.getBuilt().getKernel().getRelease()).isEqualTo("6.1.0");
      var a = report.getBuilt().getArtifacts();
      assertThat(stored.get(a.getImageSha256())).isEqualTo(result.image());
      assertThat(stored.get(a.getConfigSha256())).isEqualTo(result.config());
      assertThat(stored.get(a.getSystemMapSha256())).isEqualTo(result.systemMap());
      assertThat(stored.get(a.getLogSha256())).isEqualTo(result.log());
      assertThat(a.getImageBytes()).isEqualTo(Files.size(result.image()));
    }
    Path source = ((BuildSource.Tarball) seen.source()).file();
    assertThat(source.getFileName().toString()).isEqualTo("linux-6.1.tar.xz");
    assertThat(seen.patches()).extracting(p -> p.getFileName().toString()).containsExactly("fix.patch");
  }

  @Test
  void progressGoesOutPerPhaseWithTheAttemptAndEpoch(@TempDir Path dir) throws Exception {
    BuildResult.Built result = built(dir);
    try (BuildExecutor e = executor(dir, (spec, l) -> {
      l.phase("compile");
      return result;
    })) {
      e.submit(assignment());

      var fetch = next(WorkerMessage.KindCase.BUILD_PROGRESS).getBuildProgress();
      var compile = next(WorkerMessage.KindCase.BUILD_PROGRESS).getBuildProgress();

      assertThat(fetch.getPhase()).isEqualTo("fetch");
      assertThat(compile.getPhase()).isEqualTo("compile");
      assertThat(compile.getAttemptId()).isEqualTo("ccc-a1");
      assertThat(compile.getLeaseEpoch()).isEqualTo(7);
    }
  }

  @Test
  void aCompileErrorIsReportedAsTheBuilderSaidWithItsLog(@TempDir Path dir) throws Exception {
    Path log = Files.writeString(dir.resolve("failed.log"), "error");
    try (BuildExecutor e = executor(dir, (spec, l) -> new BuildResult.Failed("k", BuildResult.Kind.COMPILE,
        "fs/stat.c", "fs/stat.c:12:3: error: boom", log))) {
      e.submit(assignment());

      var failed = next(WorkerMessage.KindCase.BUILD_REPORT).getBuildReport().getFailed();

      assertThat(failed.getKind()).isEqualTo(BuildFailure.Kind.COMPILE);
      assertThat(failed.getFile()).isEqualTo("fs/stat.c");
      assertThat(failed.getFirstError()).contains("boom");
      assertThat(stored.get(failed.getLogSha256())).isEqualTo(log);
    }
  }

  @Test
  void anInputTheStoreDoesNotHoldIsInfra(@TempDir Path dir) throws Exception {
    BuildAssignment missing = assignment().toBuilder().setInputs(assignment().getInputs().toBuilder()
        .setSource(BuildFile.newBuilder().setName("linux.tar.xz").setSha256("d".repeat(64)))).build();
    try (BuildExecutor e = executor(dir, (spec, l) -> {
      throw new AssertionError("nothing to build without inputs");
    })) {
      e.submit(missing);

      var failed = next(WorkerMessage.KindCase.BUILD_REPORT).getBuildReport().getFailed();

      assertThat(failed.getKind()).isEqualTo(BuildFailure.Kind.INFRA);
      assertThat(failed.getFirstError()).contains("does not hold");
    }
  }

  @Test
  void aCancelledBuildStopsAndReportsNothing(@TempDir Path dir) throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    try (BuildExecutor e = executor(dir, (spec, l) -> {
      started.countDown();
      new CountDownLatch(1).await(); // a build that runs until it is interrupted
      throw new AssertionError("not interrupted");
    })) {
      e.submit(assignment());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

      e.cancel(Cancel.newBuilder().setBlockId("ccc-a1").setReason("lease timed out").build());

      WorkerMessage m;
      while ((m = out.poll(1, TimeUnit.SECONDS)) != null) {
        assertThat(m.getKindCase()).isNotEqualTo(WorkerMessage.KindCase.BUILD_REPORT);
      }
    }
  }

  @Test
  void aBuildStopsWhenTheStreamItsLeaseCameOnEnds(@TempDir Path dir) throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    try (BuildExecutor e = executor(dir, (spec, l) -> {
      started.countDown();
      try {
        new CountDownLatch(1).await(); // a build that runs until it is interrupted
      } catch (InterruptedException stopped) {
        interrupted.countDown();
        throw stopped;
      }
      throw new AssertionError("not interrupted");
    })) {
      e.submit(assignment());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

      e.cancelAll("the controller stream ended");

      assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void buildArchesFollowTheToolsOnThePath() {
    assertThat(BuildCapabilities.arches("x86_64", t -> true)).containsExactly("x86_64", "aarch64");
    assertThat(BuildCapabilities.arches("x86_64", t -> !t.equals(BuildCapabilities.AARCH64_COMPILER)))
        .containsExactly("x86_64");
    assertThat(BuildCapabilities.arches("x86_64", t -> !t.equals("bison"))).isEmpty();
  }
}
