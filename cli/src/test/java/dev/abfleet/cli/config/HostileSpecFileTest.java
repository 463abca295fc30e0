package dev.abfleet.config;

import static dev.abfleet.cli.HostileRun.bytes;
import static dev.abfleet.cli.HostileRun.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.FakeKernels;
import dev.abfleet.cli.IsolatedHome;
import dev.abfleet.cli.HostileRun;
import dev.abfleet.cli.HostileRun.FileCase;
import dev.abfleet.testkit.HostileInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile spec files given to {@code abfleet ab --spec}: each ends with exit code 2 and one line
 * naming the problem and the fix, before anything is started or written. The spec's directory
 * holds a kernel named {@code vmlinuz}.
 */
public class HostileSpecFileTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  private static final String BASE = "  - {name: base, role: baseline, kernel: vmlinuz}\n";
  private static final String CAND = "  - {name: cand, role: candidate, kernel: vmlinuz}\n";

  private static HostileRun.Input arms(String top, String... arms) {
    return text(top + "arms:\n" + String.join("", arms));
  }

  private static String arm(String fields) {
    return "  - {" + fields + "}\n";
  }

  public static List<FileCase> cases() {
    return List.of(
        new FileCase("empty file", text(""), ":1: the spec file is empty", "it needs at least arms:"),
        new FileCase("only a comment", text("# nothing\n"), "the spec file is empty", "it needs at least arms:"),
        new FileCase("no arms", text("pairs: 8\n"), ":1: no arms", "add arms: with a baseline and at least one candidate"),
        new FileCase("arms with the same name", arms("", BASE, CAND, arm("name: cand, role: candidate, kernel: vmlinuz")),
            "two arms are named 'cand'", "give the arms different names"),
        new FileCase("missing baseline", arms("", CAND), "arms has no baseline", "add an arm with role: baseline"),
        new FileCase("missing candidate", arms("", BASE), "arms has no candidate", "add an arm with role: candidate"),
        new FileCase("two baselines", arms("", BASE, arm("name: b2, role: baseline, kernel: vmlinuz"), CAND),
            "a second baseline arm ('b2')", "make the others candidates"),
        new FileCase("unknown role", arms("", BASE, arm("name: c, role: control, kernel: vmlinuz")),
            "role is 'control'", "expected one of baseline, candidate, ceiling"),
        new FileCase("arm without a kernel", arms("", BASE, arm("name: c, role: candidate")), "has no kernel",
            "has no kernel; give kernel: (an image) or build:"),
        new FileCase("empty kernel", arms("", BASE, arm("name: c, role: candidate, kernel: ''")), "kernel is empty",
            "give the path of a kernel image"),
        new FileCase("kernel path traversal to /etc/passwd",
            arms("", BASE, arm("name: c, role: candidate, kernel: ../../../../../../../../etc/passwd")),
            "/etc/passwd", "not a Linux kernel"),
        new FileCase("kernel that does not exist", arms("", BASE, arm("name: c, role: candidate, kernel: nope")),
            "kernel image", "does not exist; pass the path of a vmlinuz"),
        new FileCase("arm name with rm -rf", arms("", BASE, arm("name: 'x; rm -rf /', role: candidate, kernel: vmlinuz")),
            "name 'x; rm -rf /'", "may only use letters, digits"),
        new FileCase("arm name with $(id)", arms("", BASE, arm("name: '$(id)', role: candidate, kernel: vmlinuz")),
            "name '$(id)'", "may only use letters, digits"),
        new FileCase("arm name with backticks", arms("", BASE, arm("name: '`id`', role: candidate, kernel: vmlinuz")),
            "name '`id`'", "may only use letters, digits"),
        new FileCase("arm name of 65 characters",
            arms("", BASE, arm("name: " + "a".repeat(65) + ", role: candidate, kernel: vmlinuz")), "a".repeat(65),
            "(at most 64)"),
        new FileCase("cmdline with a newline",
            arms("", BASE, arm("name: c, role: candidate, kernel: vmlinuz, cmdline: \"quiet\\ninit=/bin/sh\"")),
            "cmdline may not contain newlines", "write it on one line"),
        new FileCase("module given as a path", arms("", BASE, arm("name: c, role: candidate, kernel: vmlinuz,"
            + " modules: [../../evil.ko]")), "'../../evil.ko' is not a module name", "write the name modprobe takes"),
        new FileCase("volume options with a shell command", arms("", BASE, arm("name: c, role: candidate,"
            + " kernel: vmlinuz, volume_options: 'cache=loose;reboot'")), "is not a list of mount options",
            "comma-separated without spaces"),
        new FileCase("pairs and looks", arms("pairs: 8\nlooks: [8, 16]\n", BASE, CAND), "pairs and looks both given",
            "drop pairs"),
        new FileCase("looks empty", arms("looks: []\n", BASE, CAND), "looks is empty", "give ascending pair counts"),
        new FileCase("looks descending", arms("looks: [16, 8]\n", BASE, CAND), "8 does not come after 16",
            "looks must be ascending"),
        new FileCase("seed is a word", arms("seed: abc\n", BASE, CAND), "seed is 'abc'", "expected a whole number"),
        new FileCase("seed is 1e99", arms("seed: 1e99\n", BASE, CAND), "seed is '1e99'", "expected a whole number"),
        new FileCase("threshold negative", arms("threshold: -0.1\n", BASE, CAND), "threshold is -0.1",
            "expected a number between"),
        new FileCase("memory 1e99", arms("vm: {memory_mib: 1e99}\n", BASE, CAND), "vm.memory_mib is '1e99'",
            "expected a whole number from 64"),
        new FileCase("unknown benchmark", arms("benchmark: fio\n", BASE, CAND), "benchmark is 'fio'",
            "expected one of"),
        new FileCase("metrics empty", arms("metrics: []\n", BASE, CAND), "metrics is empty",
            "list at least one metric"),
        new FileCase("unknown top-level key", arms("pears: 8\n", BASE, CAND), "unknown key 'pears'",
            "expected one of"),
        new FileCase("workload files traversal to a file", arms(
            "workload: {files: ../../../../../../../../etc/passwd, run: sh run.sh}\n", BASE, CAND),
            "is not a directory", "give the directory holding the workload's files"),
        new FileCase("iterations with a workload", arms("workload: {files: ., run: sh run.sh}\niterations: 5\n",
            BASE, CAND), "iterations is a fleetbench setting", "drop iterations"),
        new FileCase("billion laughs", text(HostileFleetYamlTest.billionLaughs()), "anchors and aliases",
            "write the values out"),
        new FileCase("binary garbage", bytes(HostileInputs.garbage(2048)), "not UTF-8 text", "save the file as UTF-8"),
        new FileCase("a 10 MB file", d -> Files.write(d.resolve("big.yaml"), "#".repeat(10 << 20).getBytes()),
            "larger than 1 MiB, so not a spec file", "pass a spec file with --spec"),
        new FileCase("a directory", d -> Files.createDirectory(d.resolve("spec.d")), "is a directory",
            "pass the spec file itself with --spec"),
        new FileCase("no such file", d -> d.resolve("nope.yaml"), "no such file",
            "pass an existing spec file with --spec"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badSpecFileIsOneLineAndExitTwo(FileCase c) throws IOException {
    Path work = Files.createDirectory(dir.resolve("work"));
    FakeKernels.bzImage(work);
    Path spec = c.input().write(work);

    HostileRun.Outcome o = HostileRun.main("ab", "--spec", spec.toString());

    HostileRun.assertOneClearLine(o, c.problem(), c.fix());
    assertThat(home.path()).isEmptyDirectory();
  }
}
