package dev.abfleet.cli.build;

import dev.abfleet.model.Arch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.cli.ClientAuthOptions;
import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import dev.abfleet.worker.build.KernelBuilder;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code abfleet build}: a kernel from source, patches and a config, into the build cache. The
 * same inputs (and toolchain) give the same key and are never built twice; a small patch on a
 * built base rebuilds incrementally in the kept tree.
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = {
      "Build a kernel from a source tarball, tree or git repository, patches and a config, and print its build",
      "key and image. The key is a digest of every input and the compiler: a second build of the same inputs",
      "returns at once. A patch on a built base rebuilds only what it touches (the tree is kept per source,",
      "config and arch under $ABFLEET_HOME/builds, or $ABFLEET_BUILD_HOME).",
      "Spec files name the same inputs per arm (build: {source, ref, patches, config, config_fragments, arch}).",
      "Exit codes: 0 built, 2 the input does not build (a patch that does not apply, a compile error, a bad",
      "config; one line names the file and the first error), 3 the host could not build (a missing tool)."
    })
public final class BuildCommand implements Callable<Integer> {

  @Option(names = "--source", required = true, paramLabel = "SRC",
      description = "Kernel source: a tarball (e.g. /usr/src/linux-source-6.1.tar.xz), an unpacked tree or a git"
          + " repository.")
  Path source;

  @Option(names = "--ref", paramLabel = "REF", description = "Commit, branch or tag of a git source (default: HEAD).")
  String ref;

  @Option(names = "--patch", paramLabel = "FILE",
      description = "A patch applied on the source, in order (git apply; repeatable).")
  List<Path> patches = new ArrayList<>();

  @Option(names = "--config", paramLabel = "BASE", defaultValue = "abfleet-minimal",
      description = "Config base: abfleet-minimal (this tool's guests, everything built in), tinyconfig, defconfig,"
          + " or a .config file (default: ${DEFAULT-VALUE}).")
  String config;

  @Option(names = "--config-fragment", paramLabel = "FILE|LINE",
      description = "A config fragment file, or one CONFIG_X=y line, merged on the base (repeatable).")
  List<String> fragments = new ArrayList<>();

  @Option(names = "--arch", paramLabel = "ARCH", defaultValue = "x86_64",
      description = "x86_64 or aarch64 (cross-built with aarch64-linux-gnu-gcc; default: ${DEFAULT-VALUE}).")
  String arch;

  @Option(names = "--make-arg", paramLabel = "VAR=VALUE", description = "Extra make variable (repeatable).")
  List<String> makeArgs = new ArrayList<>();

  @Option(names = "--controller", paramLabel = "HOST:PORT",
      description = "Build on the fleet's builders: the inputs are uploaded to this controller, a worker that builds"
          + " takes the build, and the image is fetched into the local build cache (tarball sources only).")
  String controller;

  @Mixin ClientAuthOptions auth;

  @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() throws InterruptedException {
    if (!format.equals("text") && !format.equals("json")) {
      throw new Problem("--format " + format + ": expected text or json");
    }
    if (!Arch.NAMES.contains(arch)) {
      throw new Problem("--arch " + arch + ": expected x86_64 or aarch64");
    }
    BuildSpec spec = spec();
    if (controller != null) {
      return onFleet(spec);
    }
    KernelBuilder builder = new KernelBuilder(KernelBuilds.home());
    BuildProgress progress = new BuildProgress("build", System.err);
    BuildResult result = builder.build(spec, progress);
    progress.endLine();
    if (result instanceof BuildResult.Failed f) {
      System.err.println("abfleet " + KernelBuilds.failureLine("build", f));
      return KernelBuilds.usersFault(f) ? ExitCodes.BAD_INPUT : ExitCodes.FAILED;
    }
    BuildResult.Built b = (BuildResult.Built) result;
    b.droppedOptions().forEach(d -> System.err.println("build: warning: " + d));
    System.out.println(format.equals("json") ? json(b) : text(b));
    return ExitCodes.OK;
  }

  /** {@code --controller}: the build runs on a fleet builder ({@link RemoteBuild}). */
  private int onFleet(BuildSpec spec) throws InterruptedException {
    if (!(spec.source() instanceof BuildSource.Tarball tarball)) {
      throw new Problem("--source " + source + ": the fleet builds from tarballs only; pass a .tar.xz/.tar.gz, or"
          + " build here without --controller");
    }
    if (format.equals("json")) {
      throw new Problem("--format json: not available with --controller yet; drop it (text: key, image, local path)");
    }
    String target = ControllerAddress.check(controller, auth);
    ManagedChannel channel = ControllerAddress.channel(target);
    try {
      RemoteBuild remote = new RemoteBuild(channel, target, System.err);
      var inputs = remote.inputs(tarball.file(), spec.patches(), spec.configBase(), spec.configFragments(),
          spec.configLines(), spec.arch(), spec.makeArgs());
      return remote.run(inputs, System.out);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.INVALID_ARGUMENT) {
        throw new Problem("the controller refused the build: " + e.getStatus().getDescription());
      }
      throw e;
    } finally {
      ControllerAddress.close(channel);
    }
  }

  private BuildSpec spec() {
    KernelBuilds.Fragments f = KernelBuilds.Fragments.of(fragments, "--config-fragment");
    patches.forEach(p -> KernelBuilds.readable(p, "--patch", "patch"));
    KernelBuilds.checkMakeArgs(makeArgs, "--make-arg");
    return new BuildSpec(KernelBuilds.source(source, ref, "--source"), patches, config, f.files(), f.lines(), arch,
        makeArgs);
  }

  static String text(BuildResult.Built b) {
    return "key     " + b.key() + "\n"
        + "what    " + b.manifest().describe() + "\n"
        + "image   " + b.image() + "\n"
        + "config  " + b.config() + "\n"
        + (b.modulesDir() == null ? "" : "modules " + b.modulesDir() + "\n")
        + "time    " + (b.cached() ? "cached" : b.wall().toMillis() / 1000.0 + " s");
  }

  static String json(BuildResult.Built b) {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode n = mapper.createObjectNode();
    n.put("key", b.key());
    n.put("image", b.image().toString());
    n.put("config", b.config().toString());
    n.put("system_map", b.systemMap().toString());
    if (b.modulesDir() != null) {
      n.put("modules_dir", b.modulesDir().toString());
    }
    n.put("log", b.log().toString());
    n.put("cached", b.cached());
    n.put("wall_ms", b.wall().toMillis());
    n.put("describe", b.manifest().describe());
    n.put("release", b.manifest().release());
    b.droppedOptions().forEach(n.putArray("dropped_options")::add);
    return n.toString();
  }
}
