package dev.abfleet.controller.grpc;

import dev.abfleet.model.Arch;
import dev.abfleet.model.ArmBuild;

import dev.abfleet.controller.build.BuildFailure;
import dev.abfleet.controller.build.BuildOutcome;
import dev.abfleet.controller.build.BuildState;
import dev.abfleet.controller.build.BuildView;
import dev.abfleet.controller.build.BuiltKernel;
import dev.abfleet.controller.plan.BuildInputs;
import dev.abfleet.controller.plan.BuildJob;
import dev.abfleet.proto.fleet.v1.BuildArtifacts;
import dev.abfleet.proto.fleet.v1.BuildAssignment;
import dev.abfleet.proto.fleet.v1.BuildFile;
import dev.abfleet.proto.fleet.v1.BuildReport;
import dev.abfleet.proto.fleet.v1.BuildStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Kernel builds between the wire and the domain, and the checks a build request gets at the edge. */
final class BuildProtos {
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,199}");
  private static final Pattern CONFIG_LINE = Pattern.compile("(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set)");
  private static final Pattern MAKE_ARG = Pattern.compile("[A-Z][A-Z0-9_]*=[^\\s]*");
  static final Set<String> CONFIG_BASES = Set.of("abfleet-minimal", "tinyconfig", "defconfig", "allnoconfig");
  static final Set<String> ARCHES = Set.copyOf(Arch.NAMES);

  private BuildProtos() {}

  /** Every problem of the request, each naming the field and the fix; empty = valid. */
  static List<String> problems(dev.abfleet.proto.fleet.v1.BuildInputs in) {
    List<String> problems = new ArrayList<>();
    if (!in.hasSource()) {
      problems.add("inputs.source: missing; upload the source tarball and name it by sha256");
    } else {
      file("inputs.source", in.getSource(), problems);
    }
    for (int i = 0; i < in.getPatchesCount(); i++) {
      file("inputs.patches[" + i + "]", in.getPatches(i), problems);
    }
    for (int i = 0; i < in.getConfigFragmentsCount(); i++) {
      file("inputs.config_fragments[" + i + "]", in.getConfigFragments(i), problems);
    }
    if (in.hasConfigFile() && !in.getConfigFile().getSha256().isEmpty()) {
      file("inputs.config_file", in.getConfigFile(), problems);
    }
    if (!in.getConfigBase().isEmpty() && !CONFIG_BASES.contains(in.getConfigBase())) {
      problems.add("inputs.config_base: '" + in.getConfigBase() + "' is not a base; expected one of "
          + String.join(", ", CONFIG_BASES.stream().sorted().toList()) + ", or upload the file as config_file");
    }
    if (!in.getArch().isEmpty() && !ARCHES.contains(in.getArch())) {
      problems.add("inputs.arch: '" + in.getArch() + "'; expected x86_64 or aarch64");
    }
    for (int i = 0; i < in.getConfigLinesCount(); i++) {
      if (!CONFIG_LINE.matcher(in.getConfigLines(i)).matches()) {
        problems.add("inputs.config_lines[" + i + "]: '" + in.getConfigLines(i)
            + "'; expected CONFIG_NAME=value or '# CONFIG_NAME is not set'");
      }
    }
    for (int i = 0; i < in.getMakeArgsCount(); i++) {
      if (!MAKE_ARG.matcher(in.getMakeArgs(i)).matches()) {
        problems.add("inputs.make_args[" + i + "]: '" + in.getMakeArgs(i)
            + "'; expected one make variable NAME=value without spaces, e.g. KCFLAGS=-O2");
      }
    }
    return problems;
  }

  private static void file(String at, BuildFile f, List<String> problems) {
    if (!NAME.matcher(f.getName()).matches()) {
      problems.add(at + ".name: '" + f.getName() + "'; expected the file's own name (letters, digits, . _ + -;"
          + " no directory)");
    }
    if (!HEX.matcher(f.getSha256()).matches()) {
      problems.add(at + ".sha256: '" + f.getSha256() + "'; expected 64 lower-case hex digits (the SHA-256 of"
          + " the uploaded file)");
    }
  }

  static BuildInputs inputs(dev.abfleet.proto.fleet.v1.BuildInputs in) {
    return new BuildInputs(file(in.getSource()), in.getPatchesList().stream().map(BuildProtos::file).toList(),
        in.getConfigBase(), in.hasConfigFile() && !in.getConfigFile().getSha256().isEmpty()
            ? file(in.getConfigFile()) : null,
        in.getConfigFragmentsList().stream().map(BuildProtos::file).toList(), in.getConfigLinesList(),
        in.getArch(), in.getMakeArgsList());
  }

  static dev.abfleet.proto.fleet.v1.BuildInputs inputs(BuildInputs in) {
    var b = dev.abfleet.proto.fleet.v1.BuildInputs.newBuilder()
        .setSource(file(in.source()))
        .setConfigBase(in.configBase())
        .addAllConfigLines(in.configLines())
        .setArch(in.arch())
        .addAllMakeArgs(in.makeArgs());
    in.patches().forEach(p -> b.addPatches(file(p)));
    in.fragments().forEach(f -> b.addConfigFragments(file(f)));
    if (in.configFile() != null) {
      b.setConfigFile(file(in.configFile()));
    }
    return b.build();
  }

  private static BuildInputs.File file(BuildFile f) {
    return new BuildInputs.File(f.getName(), f.getSha256());
  }

  private static BuildFile file(BuildInputs.File f) {
    return BuildFile.newBuilder().setName(f.name()).setSha256(f.sha256()).build();
  }

  static BuildAssignment assignment(BuildJob job) {
    return BuildAssignment.newBuilder().setBuildId(job.buildId()).setAttemptId(job.attemptId())
        .setLeaseEpoch(job.leaseEpoch()).setInputs(inputs(job.inputs())).build();
  }

  static BuildOutcome outcome(BuildReport r) {
    if (r.hasBuilt()) {
      BuildArtifacts a = r.getBuilt().getArtifacts();
      return BuildOutcome.built(BuiltKernel.of(ArmBuild.fromProto(r.getBuilt().getKernel()),
          a.getImageSha256(), a.getConfigSha256(), a.getSystemMapSha256(), a.getLogSha256(),
          a.getImageBytes(), r.getBuilt().getBuildMs()));
    }
    var f = r.getFailed();
    BuildFailure.Kind kind = switch (f.getKind()) {
      case SOURCE -> BuildFailure.Kind.SOURCE;
      case PATCH -> BuildFailure.Kind.PATCH;
      case CONFIG -> BuildFailure.Kind.CONFIG;
      case COMPILE -> BuildFailure.Kind.COMPILE;
      default -> BuildFailure.Kind.INFRA;
    };
    return BuildOutcome.failed(new BuildFailure(kind, f.getFile(), f.getFirstError(), f.getLogSha256()));
  }

  static BuildStatus status(BuildView view) {
    BuildState s = view.state();
    var b = BuildStatus.newBuilder().setBuildId(s.buildId()).setAttempts(s.attempts())
        .setLastRetry(s.lastRetry()).setBuiltOn(s.builtOn())
        .setState(switch (s.status()) {
          case NEW, QUEUED -> BuildStatus.State.QUEUED;
          case BUILDING -> BuildStatus.State.BUILDING;
          case BUILT -> BuildStatus.State.BUILT;
          case FAILED -> BuildStatus.State.FAILED;
        });
    if (s.attempt() != null) {
      b.setHost(s.attempt().hostId()).setPhase(view.progress().phase())
          .setObjects(view.progress().objects()).setObjectsExpected(view.progress().expected());
    }
    if (s.kernel() != null) {
      BuiltKernel k = s.kernel();
      b.setKernel(k.provenance().toProto());
      b.setArtifacts(BuildArtifacts.newBuilder().setImageSha256(k.imageSha256()).setConfigSha256(k.configSha256())
          .setSystemMapSha256(k.systemMapSha256()).setLogSha256(k.logSha256()).setImageBytes(k.imageBytes()));
    }
    if (s.failure() != null) {
      BuildFailure f = s.failure();
      b.setFailure(dev.abfleet.proto.fleet.v1.BuildFailure.newBuilder()
          .setKind(dev.abfleet.proto.fleet.v1.BuildFailure.Kind.valueOf(f.kind().name()))
          .setFile(f.file()).setFirstError(f.firstError()).setLogSha256(f.logSha256()));
    }
    return b.build();
  }
}
