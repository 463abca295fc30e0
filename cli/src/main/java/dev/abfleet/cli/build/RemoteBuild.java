package dev.abfleet.cli.build;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.BuildFailure;
import dev.abfleet.proto.fleet.v1.BuildFile;
import dev.abfleet.proto.fleet.v1.BuildInputs;
import dev.abfleet.proto.fleet.v1.BuildServiceGrpc;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import dev.abfleet.proto.fleet.v1.GetBuildRequest;
import dev.abfleet.proto.fleet.v1.SubmitBuildRequest;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.ArtifactUri;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import io.grpc.Channel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;

/**
 * {@code abfleet build --controller}: uploads the inputs to the controller's store, submits the
 * build, follows it on stderr until it is built or failed, and fetches the image into the local
 * build cache ({@code <build home>/fleet/<key>/}) so that {@code ab} can boot it.
 */
public final class RemoteBuild {
  /** Compile counts go to stderr at most this often, in ms; every other change at once. */
  static final long COUNT_EVERY_MS = 15_000;

  private final Channel channel;
  private final String target;
  private final PrintStream err;

  public RemoteBuild(Channel channel, String target, PrintStream err) {
    this.channel = channel;
    this.target = target;
    this.err = err;
  }

  /** The stored file named {@code file}'s own name; uploaded unless the store holds it. */
  BuildFile upload(Path file) throws InterruptedException {
    ControllerArtifacts store = new ControllerArtifacts(channel, target);
    try {
      String sha = ArtifactCache.sha256(file);
      if (store.status(sha).getComplete()) {
        err.println("build: " + file.getFileName() + " is on the controller already (sha256 " + sha.substring(0, 12) + ")");
      } else {
        store.upload(file, sha);
        err.println("build: uploaded " + file.getFileName() + " (" + Files.size(file) / 1048576 + " MiB, sha256 "
            + sha.substring(0, 12) + ")");
      }
      return BuildFile.newBuilder().setName(file.getFileName().toString()).setSha256(sha).build();
    } catch (IOException e) {
      throw new Problem("cannot upload " + file + " to the controller: " + e.getMessage());
    }
  }

  /** Submits, follows and fetches; returns the exit code (0 built, 2 the user's input, 3 infra). */
  int run(BuildInputs inputs, PrintStream out) throws InterruptedException {
    BuildStatus submitted = submit(inputs);
    err.println("build: " + submitted.getBuildId() + " submitted");
    return finish(follow(submitted, "build"), out);
  }

  /** Submits a build (the same inputs twice are one build); answers its first status. */
  public BuildStatus submit(BuildInputs inputs) {
    return BuildServiceGrpc.newBlockingStub(channel).submitBuild(SubmitBuildRequest.newBuilder().setInputs(inputs)
        .build());
  }

  /**
   * Follows a submitted build on stderr, each line starting with {@code who}, until it is built or
   * failed (or the controller ends the watch); answers the last status.
   */
  public BuildStatus follow(BuildStatus submitted, String who) {
    BuildStatus last = submitted;
    Iterator<BuildStatus> watch = BuildServiceGrpc.newBlockingStub(channel)
        .watchBuild(GetBuildRequest.newBuilder().setBuildId(submitted.getBuildId()).build());
    String shown = "";
    String retryShown = "";
    long countedAt = 0;
    while (watch.hasNext()) {
      last = watch.next();
      if (!last.getLastRetry().isEmpty() && !last.getLastRetry().equals(retryShown)) {
        err.println(who + ": an attempt ended without a verdict (" + last.getLastRetry() + "); the build runs again");
        retryShown = last.getLastRetry();
      }
      String line = who + line(last).substring("build".length());
      boolean countOnly = line.equals(shown);
      if (!countOnly) {
        err.println(line);
        shown = line;
      } else if (last.getObjects() > 0 && System.currentTimeMillis() - countedAt >= COUNT_EVERY_MS) {
        err.println(who + ": compiled " + last.getObjects() + (last.getObjectsExpected() > 0
            ? " of ~" + last.getObjectsExpected() : "") + " objects on " + last.getHost());
        countedAt = System.currentTimeMillis();
      }
    }
    return last;
  }

  /** The line a state change prints; the same line again means only the object count moved. */
  static String line(BuildStatus s) {
    return switch (s.getState()) {
      case QUEUED -> "build: queued for a builder";
      case BUILDING -> "build: " + (s.getPhase().isEmpty() ? "starting" : s.getPhase()) + " on " + s.getHost()
          + (s.getAttempts() > 1 ? " (attempt " + s.getAttempts() + ")" : "");
      case BUILT -> "build: built on " + s.getBuiltOn();
      case FAILED -> "build: failed";
      default -> "build: " + s.getState();
    };
  }

  private int finish(BuildStatus s, PrintStream out) throws InterruptedException {
    if (s.getState() == BuildStatus.State.FAILED) {
      err.println("abfleet " + failureLine(s.getFailure()));
      return s.getFailure().getKind() == BuildFailure.Kind.INFRA ? ExitCodes.FAILED : ExitCodes.BAD_INPUT;
    }
    if (s.getState() != BuildStatus.State.BUILT) {
      err.println("abfleet build: the controller ended the watch before the build was done (" + s.getState()
          + "); ask again later: the build goes on");
      return ExitCodes.FAILED;
    }
    String image = s.getArtifacts().getImageSha256();
    Path local = fetchImage(s.getKernel().getKey(), s.getKernel().getArch(), image);
    out.println("key      " + s.getKernel().getKey());
    out.println("what     " + s.getKernel().getSource() + (s.getKernel().getPatchesCount() == 0 ? ""
        : " + " + String.join(", ", s.getKernel().getPatchesList())) + ", " + s.getKernel().getConfig() + ", "
        + s.getKernel().getArch() + ", " + s.getKernel().getRelease());
    out.println("image    " + ArtifactUri.of(image));
    if (local != null) {
      out.println("local    " + local);
    }
    out.println("built on " + s.getBuiltOn() + " (attempts: " + s.getAttempts() + ")");
    return ExitCodes.OK;
  }

  /** One line: the kind, the file and the first error. */
  public static String failureLine(BuildFailure f) {
    String kind = f.getKind().name().toLowerCase(java.util.Locale.ROOT);
    String where = f.getFile().isEmpty() || f.getFirstError().contains(f.getFile()) ? "" : f.getFile() + ": ";
    String log = f.getLogSha256().isEmpty() ? "" : " (log: " + ArtifactUri.of(f.getLogSha256()) + ")";
    return "build: build failed (" + kind + "): " + where + f.getFirstError() + log;
  }

  /** The image under {@code <build home>/fleet/<key>/}; null (with a warning) when it cannot be fetched. */
  private Path fetchImage(String key, String arch, String sha) throws InterruptedException {
    try {
      return fetch(key, arch.equals("aarch64") ? "Image" : "bzImage", sha);
    } catch (IOException e) {
      err.println("build: warning: cannot fetch the image into " + KernelBuilds.home().resolve("fleet").resolve(key)
          + ": " + e.getMessage());
      return null;
    }
  }

  /** The stored file {@code sha} as {@code <build home>/fleet/<key>/<name>}, fetched unless it is there. */
  public Path fetch(String key, String name, String sha) throws IOException, InterruptedException {
    Path dir = KernelBuilds.home().resolve("fleet").resolve(key);
    Path image = dir.resolve(name);
    if (Files.isRegularFile(image) && ArtifactCache.sha256(image).equals(sha)) {
      return image;
    }
    Files.createDirectories(dir);
    Path partial = dir.resolve(image.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    new ControllerArtifacts(channel, target).fetchInto(sha, partial);
    Files.move(partial, image, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return image;
  }

  /** The inputs with every local file uploaded. */
  public BuildInputs inputs(Path source, List<Path> patches, String config, List<Path> fragments, List<String> lines,
      String arch, List<String> makeArgs) throws InterruptedException {
    var b = BuildInputs.newBuilder().setSource(upload(source)).addAllConfigLines(lines).setArch(arch)
        .addAllMakeArgs(makeArgs);
    for (Path p : patches) {
      b.addPatches(upload(p));
    }
    for (Path f : fragments) {
      b.addConfigFragments(upload(f));
    }
    Path configFile = Path.of(config);
    if (Files.isRegularFile(configFile)) {
      b.setConfigFile(upload(configFile));
    } else {
      b.setConfigBase(config);
    }
    return b.build();
  }
}
