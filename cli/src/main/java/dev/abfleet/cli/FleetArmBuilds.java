package dev.abfleet.cli;

import dev.abfleet.cli.build.KernelBuilds;
import dev.abfleet.cli.build.RemoteBuild;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.BuildFailure;
import dev.abfleet.proto.fleet.v1.BuildInputs;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code build:} arms of an experiment submitted to a controller are built by the fleet's
 * builders: every arm's build is submitted first (arms with the same inputs are one build), so
 * several builders work at once, then each is followed to its end and its image fetched; the
 * experiment is submitted once every kernel exists. A failed build ends the command with one
 * line naming the arm, before any boot.
 */
final class FleetArmBuilds {
  private FleetArmBuilds() {}

  /** A build that failed for the host's reasons, not the input's: exit 3, like a failed experiment. */
  static final class InfraFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InfraFailure(String message) {
      super(message);
    }
  }

  static AbRequest resolve(AbRequest request, PrintStream err) throws InterruptedException {
    String target = request.hosts().controller();
    ManagedChannel channel = ControllerAddress.channel(target);
    try {
      RemoteBuild fleet = new RemoteBuild(channel, target, err);
      String volume = request.config().benchmark(request.benchmarkName()).volume();
      Map<String, BuildStatus> submitted = new LinkedHashMap<>();
      Map<AbArm, String> buildOf = new LinkedHashMap<>();
      for (AbArm arm : request.arms()) {
        if (arm.unbuilt()) {
          BuildStatus s = fleet.submit(inputs(fleet, arm));
          submitted.putIfAbsent(s.getBuildId(), s);
          buildOf.put(arm, s.getBuildId());
          err.println("build " + arm.name() + ": " + s.getBuildId() + " submitted to " + target);
        }
      }
      Map<String, BuildStatus> done = new LinkedHashMap<>();
      for (Map.Entry<String, BuildStatus> e : submitted.entrySet()) {
        String arms = String.join(", ", buildOf.entrySet().stream().filter(b -> b.getValue().equals(e.getKey()))
            .map(b -> b.getKey().name()).toList());
        done.put(e.getKey(), fleet.follow(e.getValue(), "build " + arms));
      }
      List<AbArm> arms = new ArrayList<>();
      for (AbArm arm : request.arms()) {
        arms.add(arm.unbuilt() ? built(fleet, arm, done.get(buildOf.get(arm)), volume) : arm);
      }
      return request.withArms(arms);
    } finally {
      ControllerAddress.close(channel);
    }
  }

  private static BuildInputs inputs(RemoteBuild fleet, AbArm arm) throws InterruptedException {
    BuildSpec spec = KernelBuilds.spec(arm.build(), arm.origin() + " " + arm.name());
    if (!(spec.source() instanceof BuildSource.Tarball tarball)) {
      throw new Problem(arm.origin() + " " + arm.name() + ": build.source " + arm.build().source() + ": the fleet"
          + " builds from tarballs only; give a .tar.xz/.tar.gz, or run without --controller to build here");
    }
    return fleet.inputs(tarball.file(), spec.patches(), spec.configBase(), spec.configFragments(), spec.configLines(),
        spec.arch(), spec.makeArgs());
  }

  private static AbArm built(RemoteBuild fleet, AbArm arm, BuildStatus s, String volume) throws InterruptedException {
    String who = "arm '" + arm.name() + "' (" + arm.origin() + ")";
    if (s.getState() == BuildStatus.State.FAILED) {
      String line = who + ": " + RemoteBuild.failureLine(s.getFailure()).substring("build: ".length());
      if (s.getFailure().getKind() == BuildFailure.Kind.INFRA) {
        throw new InfraFailure(line);
      }
      throw new Problem(line);
    }
    if (s.getState() != BuildStatus.State.BUILT) {
      throw new InfraFailure(who + ": the controller ended the build's watch before it was done (" + s.getState()
          + "); the build goes on: run again later");
    }
    String key = s.getKernel().getKey();
    Path image;
    try {
      image = fleet.fetch(key, s.getKernel().getArch().equals("aarch64") ? "Image" : "bzImage",
          s.getArtifacts().getImageSha256());
      Path config = fleet.fetch(key, "config", s.getArtifacts().getConfigSha256());
      ArmBuilds.checkGuest("arm '" + arm.name() + "'", config, s.getKernel().getArch(), volume);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot fetch the built kernel of arm " + arm.name() + " from the controller", e);
    }
    return arm.builtAs(image, s.getKernel());
  }
}
