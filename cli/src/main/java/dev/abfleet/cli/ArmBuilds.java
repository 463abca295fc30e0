package dev.abfleet.cli;

import dev.abfleet.cli.build.BuildProgress;
import dev.abfleet.cli.build.KernelBuilds;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSpec;
import dev.abfleet.worker.build.GuestRequirements;
import dev.abfleet.worker.build.KernelBuilder;
import dev.abfleet.worker.build.KernelConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the kernels of arms that name a {@code build:} instead of an image, before anything
 * boots. Arms with the same build inputs share one build (one key). A build that fails ends the
 * command with one line naming the arm, the file and the first error; no boot is started.
 * A built kernel that lacks what the benchmark needs (its results port, its host volume's file
 * system) is refused the same way, before a boot could fail on it.
 */
final class ArmBuilds {
  private ArmBuilds() {}

  /** {@code request} with every arm's kernel built; the request itself when none needs a build. */
  static AbRequest resolve(AbRequest request, PrintStream err) throws InterruptedException {
    if (request.arms().stream().noneMatch(AbArm::unbuilt)) {
      return request;
    }
    if (request.hosts().remote()) {
      return FleetArmBuilds.resolve(request, err);
    }
    KernelBuilder builder = new KernelBuilder(KernelBuilds.home());
    Map<String, BuildResult.Built> byKey = new HashMap<>();
    List<AbArm> arms = new ArrayList<>();
    String volume = request.config().benchmark(request.benchmarkName()).volume();
    for (AbArm arm : request.arms()) {
      if (!arm.unbuilt()) {
        arms.add(arm);
        continue;
      }
      String who = "arm '" + arm.name() + "'";
      BuildSpec spec = KernelBuilds.spec(arm.build(), arm.origin() + " " + arm.name());
      String key = builder.key(spec);
      BuildResult.Built built = byKey.get(key);
      if (built == null) {
        BuildProgress progress = new BuildProgress("build " + arm.name(), err);
        BuildResult result = builder.build(spec, progress);
        progress.endLine();
        if (result instanceof BuildResult.Failed f) {
          throw new Problem(KernelBuilds.failureLine(who + " (" + arm.origin() + ")", f));
        }
        built = (BuildResult.Built) result;
        err.println("build " + arm.name() + ": " + built.manifest().describe()
            + (built.cached() ? " (cached)" : " in " + built.wall().toSeconds() + " s") + ": " + built.image());
        built.droppedOptions().forEach(d -> err.println("build " + arm.name() + ": warning: " + d));
        checkGuest(who, built.config(), spec.arch(), volume);
        byKey.put(key, built);
      }
      AbArm done = arm.builtAs(built.image(), KernelBuilds.provenance(built.manifest()));
      if (built.modulesDir() != null && done.modulesDir().isEmpty()) {
        done = done.withModulesDir(built.modulesDir().toString());
      }
      arms.add(done);
    }
    return request.withArms(arms);
  }

  /**
   * Refuses a built kernel that cannot run the benchmark: options it needs that are neither built
   * in nor modules. A host volume needs 9p or virtio-fs, whichever the host offers: one of the two.
   */
  static void checkGuest(String who, Path configFile, String arch, String volume) {
    Map<String, String> config;
    try {
      config = KernelConfig.parse(Files.readString(configFile));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the built kernel's config " + configFile, e);
    }
    List<GuestRequirements.Missing> missing = new ArrayList<>(notModules(GuestRequirements.check(config, arch, null)));
    if ("host".equals(volume)) {
      List<GuestRequirements.Missing> p9 = notModules(GuestRequirements.check(config, arch, "9p"));
      List<GuestRequirements.Missing> vfs = notModules(GuestRequirements.check(config, arch, "virtiofs"));
      if (!p9.isEmpty() && !vfs.isEmpty()) {
        missing.addAll(vfs);
      }
    }
    if (!missing.isEmpty()) {
      throw new Problem(who + ": the built kernel cannot run the benchmark: " + missing.get(0).message()
          + (missing.size() > 1 ? " (and " + (missing.size() - 1) + " more: "
              + String.join(", ", missing.stream().skip(1).map(GuestRequirements.Missing::option).toList()) + ")"
              : ""));
    }
  }

  private static List<GuestRequirements.Missing> notModules(List<GuestRequirements.Missing> missing) {
    return missing.stream().filter(m -> !m.module()).toList();
  }
}
