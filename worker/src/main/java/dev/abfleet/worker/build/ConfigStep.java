package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSpec;

import static dev.abfleet.worker.build.BuildResult.Kind.CONFIG;

import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes the final .config in the tree's scratch directory {@code cfg}: the base ({@code make
 * tinyconfig} and the like, or a copied file), the fragments and lines merged over it, then
 * {@code make olddefconfig}. The result reaches {@code out/.config} only when its content
 * differs: a rewritten but equal .config would still look newer than every object, and make
 * would rebuild them all.
 */
final class ConfigStep {

  private static final Duration CONFIG_TIMEOUT = Duration.ofMinutes(10);

  private ConfigStep() {}

  /**
   * The final config and what it dropped, or the problem.
   *
   * @param config  the final config's options; empty on failure
   * @param dropped requested options the final config does not have as asked
   */
  record Outcome(Map<String, String> config, List<String> dropped, Problem problem) {
    static Outcome failed(Problem p) {
      return new Outcome(Map.of(), List.of(), p);
    }
  }

  static Outcome configure(WarmTree tree, BuildSpec spec, StepRunner steps) throws InterruptedException, IOException {
    Path cfg = tree.cfg();
    Files.createDirectories(cfg);
    Files.deleteIfExists(cfg.resolve(".config"));
    String base = spec.configBase();
    boolean minimal = base.equals(BuildSpec.DEFAULT_CONFIG_BASE);
    if (minimal || InputResolver.MAKE_TARGETS.contains(base)) {
      Problem p = make(tree, spec, steps, minimal ? "tinyconfig" : base);
      if (p != null) {
        return Outcome.failed(p);
      }
    } else {
      Files.copy(Path.of(base), cfg.resolve(".config"));
    }
    List<String> fragments;
    try {
      fragments = fragmentTexts(spec);
    } catch (IOException e) {
      return Outcome.failed(new Problem(CONFIG, null, "cannot read a config fragment: " + e.getMessage()));
    }
    String merged = KernelConfig.merge(StepRunner.text(cfg.resolve(".config")), fragments);
    Files.writeString(cfg.resolve(".config"), merged, StandardCharsets.UTF_8);
    Problem p = make(tree, spec, steps, "olddefconfig");
    if (p != null) {
      return Outcome.failed(p);
    }
    byte[] config = Files.readAllBytes(cfg.resolve(".config"));
    Map<String, String> finalConfig = KernelConfig.parse(new String(config, StandardCharsets.UTF_8));
    installIfChanged(config, tree.out().resolve(".config"));
    return new Outcome(finalConfig, KernelConfig.dropped(requested(fragments), finalConfig), null);
  }

  /** The texts merged over the base, in order: the shipped fragment (abfleet-minimal), the files, the lines. */
  static List<String> fragmentTexts(BuildSpec spec) throws IOException {
    List<String> texts = new ArrayList<>();
    if (spec.configBase().equals(BuildSpec.DEFAULT_CONFIG_BASE)) {
      texts.add(MinimalFragment.text(spec.arch()));
    }
    for (Path f : spec.configFragments()) {
      texts.add(StepRunner.text(f));
    }
    if (!spec.configLines().isEmpty()) {
      texts.add(String.join("\n", spec.configLines().stream().map(String::strip).toList()));
    }
    return texts;
  }

  /** Every option the fragments ask for, a later fragment overriding an earlier one. */
  static Map<String, String> requested(List<String> fragments) {
    Map<String, String> all = new LinkedHashMap<>();
    fragments.forEach(f -> all.putAll(KernelConfig.requests(f)));
    return all;
  }

  /** Writes {@code config} to {@code target} unless it already holds exactly that; true when written. */
  static boolean installIfChanged(byte[] config, Path target) throws IOException {
    if (Files.exists(target) && Arrays.equals(Files.readAllBytes(target), config)) {
      return false;
    }
    Files.createDirectories(target.getParent());
    Files.write(target, config);
    return true;
  }

  private static Problem make(WarmTree tree, BuildSpec spec, StepRunner steps, String target)
      throws InterruptedException {
    RunResult r = steps.run(target, BuildCommands.make(spec.arch(), tree.src(), tree.cfg(), 0, spec.makeArgs(),
        target), CONFIG_TIMEOUT);
    if (r.succeeded()) {
      return null;
    }
    Problem infra = TreeSetup.infraOf("make " + target, r);
    return infra != null ? infra : new Problem(CONFIG, null, "make " + target + " failed (exit " + r.exitCode()
        + "): " + TextTail.lastLines(r.stderrTail().isBlank() ? r.stdoutTail() : r.stderrTail(), 5));
  }
}
