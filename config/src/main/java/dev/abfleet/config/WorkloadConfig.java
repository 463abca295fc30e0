package dev.abfleet.config;

import dev.abfleet.model.WorkloadLimits;
import dev.abfleet.model.WorkloadMetrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code workload: {files, run, output, timeout_s}} of fleet.yaml benchmarks and spec files,
 * validated like the rest of them ({@code file:line: problem; fix}). The files are checked to be
 * a directory here and packed only when an experiment is submitted.
 */
final class WorkloadConfig {
  static final List<String> OUTPUTS = List.of("jsonl", "gobench");
  static final int DEFAULT_TIMEOUT_S = WorkloadLimits.DEFAULT_TIMEOUT_S;
  static final int MAX_TIMEOUT_S = 86_400;
  /** fleetbench settings that mean nothing to a workload (it runs its command once per boot). */
  static final List<String> FLEETBENCH_ONLY = List.of("iterations", "iteration_ms", "warmup", "files", "cache", "threads",
      "seq_size", "file_size");
  private static final String EXAMPLE = "workload: {files: bench, run: sh /workload/run.sh, output: gobench}";

  private WorkloadConfig() {}

  /** @param dir the YAML file's directory: relative files are resolved against it */
  static FleetConfig.Workload parse(YamlNode n, Path dir) {
    Map<String, YamlNode> m = n.mapping(Set.of("files", "run", "output", "timeout_s"));
    for (String required : List.of("files", "run")) {
      if (!m.containsKey(required)) {
        throw n.problem(n.path() + " has no " + required + "; a workload needs files (its directory, relative to"
            + " this file) and run (the command the guest runs), e.g. " + EXAMPLE);
      }
    }
    YamlNode filesNode = m.get("files");
    String filesText = filesNode.string();
    Path files = (dir == null ? Path.of("") : dir).resolve(filesText).toAbsolutePath().normalize();
    if (filesText.isBlank() || !Files.isDirectory(files)) {
      throw filesNode.problem(filesNode.path() + " '" + filesText + "' is not a directory (" + files + "); give the"
          + " directory holding the workload's files, relative to this file");
    }
    YamlNode runNode = m.get("run");
    String run = runNode.string();
    if (run.indexOf('\0') >= 0) {
      throw runNode.problem(runNode.path() + " contains a NUL character, which no shell command can hold; write the"
          + " command without it");
    }
    if (run.isBlank()) {
      throw runNode.problem(runNode.path() + " is empty; give the shell command the guest runs in the benchmark's"
          + " directory, e.g. sh /workload/run.sh");
    }
    if (run.getBytes(StandardCharsets.UTF_8).length > WorkloadLimits.MAX_RUN_BYTES) {
      throw runNode.problem(runNode.path() + " is longer than " + WorkloadLimits.MAX_RUN_BYTES + " bytes; put the"
          + " commands in a script among the workload's files and run that");
    }
    String output = m.containsKey("output") ? m.get("output").oneOf(OUTPUTS) : "jsonl";
    int timeout = m.containsKey("timeout_s") ? m.get("timeout_s").integer(1, MAX_TIMEOUT_S) : DEFAULT_TIMEOUT_S;
    return new FleetConfig.Workload(files, run, output, timeout);
  }

  /** Metric names a workload may report (gating, metrics), each checked against the name rule. */
  static List<String> metricNames(YamlNode list) {
    List<YamlNode> items = list.sequence();
    if (items.isEmpty()) {
      throw list.problem(list.path() + " is empty; list at least one metric the workload reports, or leave it out");
    }
    for (YamlNode item : items) {
      WorkloadMetrics.nameProblem(item.string()).ifPresent(msg -> {
        throw item.problem(item.path() + ": " + msg);
      });
    }
    return items.stream().map(YamlNode::string).toList();
  }
}
