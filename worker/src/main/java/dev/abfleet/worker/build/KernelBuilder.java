package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.model.BuildSpec;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.Executables;
import dev.abfleet.worker.process.ProcessRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds Linux kernels from a tarball, a tree or a git commit plus patches and config
 * fragments, and caches them by a key over every input and the toolchain.
 *
 * <p>Layout under {@code home}: {@code artifacts/<key>/} (see {@link ArtifactStore}),
 * {@code failed/<key>/build.log}, {@code trees/<treeKey>/} (warm trees, see {@link WarmTree}:
 * one per source, configuration, arch, make arguments and toolchain, patches excluded, so a
 * patch rebuilds only what it touches), {@code objects/<configKey>} (objects compiled by the
 * last from-scratch build of a configuration, for progress) and {@code tmp/}.
 *
 * <p>Failures of the user's input or of the host are {@link BuildResult.Failed} values;
 * interrupting the building thread kills the running command and throws InterruptedException.
 */
public final class KernelBuilder {

  private static final Logger log = LoggerFactory.getLogger(KernelBuilder.class);

  /** Default byte budget of the warm trees: 20 GiB, about eight x86_64 trees with their objects. */
  public static final long DEFAULT_TREE_BUDGET_BYTES = 20L << 30;

  private final Path home;
  private final CommandRunner runner;
  private final Clock clock;
  private final Predicate<String> onPath;
  private final InputResolver inputs;
  private final ArtifactStore store;
  private final WarmTrees trees;
  private volatile long treeBudgetBytes = DEFAULT_TREE_BUDGET_BYTES;
  private volatile int jobs = Runtime.getRuntime().availableProcessors();
  /** ccache: on for real builders when installed; none for builders on a fake host. */
  private final Optional<CompilerCache> compilerCache;

  /** @param home root of the build cache: home/artifacts/<key>/..., home/trees/<treeKey>/... */
  public KernelBuilder(Path home, CommandRunner runner, Clock clock) {
    this(home, runner, clock, KernelBuilder::installed);
  }

  /**
   * A builder that runs real processes and reads the system clock; it compiles through ccache
   * when that is installed, unless {@code ABFLEET_BUILD_CCACHE=off} ({@link CompilerCache}).
   */
  public KernelBuilder(Path home) {
    this(home, new ProcessRunner(), Clock.systemUTC(), KernelBuilder::installed,
        CompilerCache.of(home.toAbsolutePath(), System.getenv(CompilerCache.SETTING), KernelBuilder::installed));
  }

  /** @param onPath whether a tool is installed (tests pass a fake host) */
  KernelBuilder(Path home, CommandRunner runner, Clock clock, Predicate<String> onPath) {
    this(home, runner, clock, onPath, Optional.empty());
  }

  private KernelBuilder(Path home, CommandRunner runner, Clock clock, Predicate<String> onPath,
      Optional<CompilerCache> compilerCache) {
    this.compilerCache = compilerCache;
    this.home = home.toAbsolutePath();
    this.runner = runner;
    this.clock = clock;
    this.onPath = onPath;
    this.inputs = new InputResolver(runner);
    this.store = new ArtifactStore(this.home);
    this.trees = new WarmTrees(this.home.resolve("trees"));
  }

  /** Keeps the warm trees under {@code bytes} (least recently used deleted first; never the one in use). */
  public KernelBuilder treeBudget(long bytes) {
    this.treeBudgetBytes = bytes;
    return this;
  }

  /** make's -j; defaults to the processors available to this JVM. */
  public KernelBuilder jobs(int jobs) {
    this.jobs = Math.max(1, jobs);
    return this;
  }

  /**
   * The build key without building anything (hashes the inputs and the toolchain identity).
   *
   * @throws BuildInputException for an input that cannot be read, naming it and the fix
   */
  public String key(BuildSpec spec) {
    return resolve(spec).key();
  }

  /**
   * Builds, or returns the cached result at once when {@code home/artifacts/<key>} is complete.
   * Thread-safe: builds on one warm tree serialise, in this process and across processes.
   */
  public BuildResult build(BuildSpec spec, BuildListener listener) throws InterruptedException {
    long start = System.nanoTime();
    InputResolver.Resolved r;
    try {
      r = resolve(spec);
    } catch (BuildInputException e) {
      return new BuildResult.Failed(null, e.kind(), e.file(), e.getMessage(), null);
    }
    var hit = store.cached(r.key(), since(start));
    if (hit.isPresent()) {
      return hit.get();
    }
    Problem tools = Toolchain.missing(Toolchain.needed(spec.arch(), spec.source()), onPath);
    if (tools != null) {
      return new BuildResult.Failed(r.key(), tools.kind(), tools.file(), tools.firstError(), null);
    }
    WarmTree tree = trees.tree(r.inputs().treeKey());
    try {
      BuildResult result;
      WarmTrees.Held held = trees.lock(tree);
      try {
        var other = store.cached(r.key(), since(start)); // another process may just have built it
        result = other.isPresent() ? other.get() : buildLocked(r, tree, listener, start);
        tree.measure();
      } finally {
        held.close();
      }
      evictQuietly(tree.key());
      return result;
    } catch (IOException | UncheckedIOException e) {
      String why = e.getMessage() != null && e.getMessage().contains("No space left on device")
          ? "disk full under " + home + ": free space, or lower the warm-tree budget"
          : "build cache I/O under " + home + " failed: " + e;
      return new BuildResult.Failed(r.key(), BuildResult.Kind.INFRA, null, why,
          keepLog(r.key(), tree.run().resolve("build.log")));
    }
  }

  /** The tool's own minimal config fragment for {@code arch} ({@code x86_64} or {@code aarch64}). */
  public static String minimalFragment(String arch) {
    return MinimalFragment.text(arch);
  }

  private BuildResult buildLocked(InputResolver.Resolved r, WarmTree tree, BuildListener listener, long start)
      throws InterruptedException, IOException {
    BuildSpec spec = r.spec();
    tree.setUsedAtMs(clock.millis());
    tree.freshRunDir();
    StepRunner steps = new StepRunner(runner, tree.run(), tree.run().resolve("build.log"));
    steps.note("build " + r.key() + " of " + r.sourceLabel() + " in tree " + tree.key());
    // A git tree serves every commit of its repository: it moves to this build's commit.
    String base = spec.source() instanceof BuildSource.Git ? r.inputs().sourceDigest() : tree.base();
    if (tree.base() == null || !TreeSetup.reset(tree, base, steps)) {
      Problem p = TreeSetup.prepare(tree, spec.source(), r.inputs().sourceDigest(), steps, listener);
      if (p != null) {
        return failed(r.key(), p, steps);
      }
    }
    Problem patched = TreeSetup.patch(tree, spec.patches(), steps, listener);
    if (patched != null) {
      return failed(r.key(), patched, steps);
    }
    listener.phase("config");
    ConfigStep.Outcome config = ConfigStep.configure(tree, spec, steps);
    if (config.problem() != null) {
      return failed(r.key(), config.problem(), steps);
    }
    config.dropped().forEach(d -> steps.note("dropped: " + d));
    Path objects = home.resolve("objects").resolve(r.inputs().configKey());
    boolean fresh = tree.outIsFresh();
    compilerCache.ifPresent(c -> steps.note(c.describe()));
    CompileStep.Outcome compiled = CompileStep.compile(tree, spec, KernelConfig.hasModules(config.config()),
        fresh ? readCount(objects) : 0, jobs, compilerCache, steps, listener);
    if (compiled.problem() != null) {
      return failed(r.key(), compiled.problem(), steps);
    }
    if (fresh) {
      Files.createDirectories(objects.getParent());
      Files.writeString(objects, compiled.objects() + "\n");
    }
    listener.phase("store");
    BuildManifest m = new BuildManifest(r.key(), r.sourceLabel(), r.inputs().sourceDigest(),
        spec.patches().stream().map(p -> p.getFileName().toString()).toList(), r.inputs().patchDigests(),
        spec.configBase(), spec.arch(), r.inputs().toolchain(), compiled.release(), clock.millis());
    steps.note("built " + m.describe() + ": " + compiled.objects() + " objects compiled");
    BuildResult.Built built = store.store(m, compiled, tree.out().resolve(".config"), steps.log(),
        config.dropped(), since(start));
    CacheFiles.deleteTree(home.resolve("failed").resolve(r.key()));
    return built;
  }

  private BuildResult.Failed failed(String key, Problem p, StepRunner steps) throws IOException {
    steps.note("failed (" + p.kind() + "): " + p.firstError());
    return new BuildResult.Failed(key, p.kind(), p.file(), p.firstError(), store.keepFailedLog(key, steps.log()));
  }

  private InputResolver.Resolved resolve(BuildSpec spec) {
    Path tmp = null;
    try {
      Files.createDirectories(home.resolve("tmp"));
      tmp = Files.createTempDirectory(home.resolve("tmp"), "key-");
      return inputs.resolve(spec, tmp);
    } catch (IOException e) {
      throw new BuildInputException(BuildResult.Kind.INFRA, home.toString(), "cannot write under the build home "
          + home + " (" + e.getMessage() + "); check its permissions and free space");
    } finally {
      deleteQuietly(tmp);
    }
  }

  private Path keepLog(String key, Path log) {
    try {
      return store.keepFailedLog(key, log);
    } catch (IOException e) {
      return null;
    }
  }

  private void evictQuietly(String keep) {
    try {
      trees.evict(treeBudgetBytes, keep);
    } catch (IOException | UncheckedIOException e) {
      log.warn("cannot evict warm kernel trees under {}: {}", home.resolve("trees"), e.toString());
    }
  }

  private static boolean installed(String tool) {
    return Executables.onPath(tool).isPresent();
  }

  private static int readCount(Path file) {
    try {
      return Integer.parseInt(Files.readString(file).strip());
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  private static void deleteQuietly(Path dir) {
    try {
      if (dir != null) {
        CacheFiles.deleteTree(dir);
      }
    } catch (IOException e) {
      // a leftover probe directory under tmp/ is harmless
    }
  }

  private static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }
}
