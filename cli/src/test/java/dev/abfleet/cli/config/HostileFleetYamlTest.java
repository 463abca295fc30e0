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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile fleet.yaml files given to {@code abfleet ab --config}: each ends with exit code 2 and
 * one line naming the problem and the fix, before anything is started or written.
 */
public class HostileFleetYamlTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  public static List<FileCase> cases() {
    return List.of(
        new FileCase("unknown top-level key", text("polcy:\n  pairs: 8\n"), ":1: unknown key 'polcy' at the top level",
            "expected one of"),
        new FileCase("unknown nested key", text("policy:\n  alhpa: 0.05\n"), ":2: unknown key 'alhpa' under policy",
            "expected one of alpha"),
        new FileCase("pairs is a word", text("policy: {pairs: many}\n"), "policy.pairs is 'many'",
            "expected a whole number from 1 to 10000"),
        new FileCase("pairs is negative", text("policy: {pairs: -1}\n"), "policy.pairs is -1", "from 1 to 10000"),
        new FileCase("pairs is zero", text("policy: {pairs: 0}\n"), "policy.pairs is 0", "from 1 to 10000"),
        new FileCase("pairs is past a long", text("policy: {pairs: 99999999999999999999}\n"),
            "policy.pairs is '99999999999999999999'", "whole number from 1 to 10000"),
        new FileCase("pairs is a fraction", text("policy: {pairs: 8.5}\n"), "policy.pairs is '8.5'", "whole number"),
        new FileCase("pairs is a list", text("policy: {pairs: [8]}\n"), "policy.pairs must be a single value",
            "single value"),
        new FileCase("alpha is 1e99", text("policy: {alpha: 1e99}\n"), "policy.alpha is 1e99",
            "expected a number between"),
        new FileCase("alpha is NaN", text("policy: {alpha: NaN}\n"), "policy.alpha is NaN", "expected a number between"),
        new FileCase("alpha is YAML .nan", text("policy: {alpha: .nan}\n"), "policy.alpha is '.nan'",
            "expected a number between"),
        new FileCase("noise threshold is Infinity", text("policy: {noise_threshold: Infinity}\n"),
            "policy.noise_threshold is Infinity", "expected a number between"),
        new FileCase("noise threshold is -0", text("policy: {noise_threshold: -0}\n"),
            "policy.noise_threshold is -0", "expected a number between"),
        new FileCase("boot timeout is a duration with a unit", text("policy: {boot_timeout_s: 30s}\n"),
            "policy.boot_timeout_s is '30s'", "whole number from 5 to 86400"),
        new FileCase("boot timeout is an ISO duration", text("policy: {boot_timeout_s: PT30S}\n"),
            "policy.boot_timeout_s is 'PT30S'", "whole number from 5 to 86400"),
        new FileCase("boot timeout is negative", text("policy: {boot_timeout_s: -5}\n"),
            "policy.boot_timeout_s is -5", "from 5 to 86400"),
        new FileCase("looks descending", text("policy: {looks: [16, 8]}\n"), "8 does not come after 16",
            "must be ascending"),
        new FileCase("heartbeat too short", text("controller: {heartbeat_interval_ms: 5}\n"),
            "controller.heartbeat_interval_ms is 5", "from 100 to 60000"),
        new FileCase("port past 65535", text("controller: {grpc_port: 70000}\n"), "controller.grpc_port is 70000",
            "from 0 to 65535"),
        new FileCase("seed nodes not a list", text("controller: {seed_nodes: a:2552}\n"),
            "controller.seed_nodes must be a list", "e.g. [a, b]"),
        new FileCase("artifact size with a decimal unit", text("controller: {artifacts: {max_bytes: 20 GB}}\n"),
            "max_bytes is '20 GB'", "optionally with KiB, MiB, GiB or TiB"),
        new FileCase("artifact size negative", text("controller: {artifacts: {max_bytes: -1}}\n"),
            "max_bytes is '-1'", "a positive size in bytes"),
        new FileCase("artifact size 1e99", text("controller: {artifacts: {max_bytes: 1e99}}\n"),
            "max_bytes is '1e99'", "a positive size in bytes"),
        new FileCase("artifact size zero", text("controller: {artifacts: {max_bytes: 0}}\n"),
            "max_bytes is '0'", "a positive size in bytes"),
        new FileCase("artifact size past a long", text("controller: {artifacts: {max_bytes: 99999999999TiB}}\n"),
            "max_bytes is '99999999999TiB'", "a positive size in bytes"),
        new FileCase("unknown store kind", text("controller: {store: {kind: mysql}}\n"),
            "controller.store.kind is 'mysql'", "expected one of h2, postgres"),
        new FileCase("postgres without a URL", text("controller: {store: {kind: postgres}}\n"),
            "controller.store.url must be a jdbc:postgresql:// URL", "e.g. jdbc:postgresql://db:5432/abfleet"),
        new FileCase("vcpus is a word", text("vm: {vcpus: four}\n"), "vm.vcpus is 'four'", "from 1 to 512"),
        new FileCase("memory below the minimum", text("vm: {memory_mib: 1}\n"), "vm.memory_mib is 1",
            "from 64 to 1048576"),
        new FileCase("pin_vcpus is yes", text("vm: {pin_vcpus: yes}\n"), "vm.pin_vcpus is 'yes'",
            "expected one of true, false"),
        new FileCase("unknown harness", text("benchmarks:\n  b: {harness: fio}\n"), "benchmarks.b.harness is 'fio'",
            "expected one of"),
        new FileCase("unknown metric", text("benchmarks:\n  b: {metrics: [fsync_storm]}\n"), "fsync_storm",
            "metadata_stat"),
        new FileCase("gating metric not measured",
            text("benchmarks:\n  b: {metrics: [metadata_stat], gating: [seq_read]}\n"),
            "gating metric 'seq_read' is not measured", "add it to metrics or remove it from gating"),
        new FileCase("benchmark name with shell metacharacters", text("benchmarks:\n  'x; rm -rf /': {}\n"),
            "benchmark name 'x; rm -rf /'", "may only use letters, digits"),
        new FileCase("unknown default benchmark", text("default_benchmark: nope\n"),
            "default_benchmark 'nope' is not defined here", "define it under benchmarks:"),
        new FileCase("unknown hypervisor in a schedule", text("""
            schedules:
              - {name: n, cron: "30 2 * * *", candidate: {path: /k}, baseline: last_accepted,
                 hosts: {hypervisor: kvm2}}
            """), "kvm2", "qemu"),
        new FileCase("unknown arch in a schedule", text("""
            schedules:
              - {name: n, cron: "30 2 * * *", candidate: {path: /k}, baseline: last_accepted,
                 hosts: {arch: arm64}}
            """), "is 'arm64'", "expected one of x86_64, aarch64"),
        new FileCase("bad cron in a schedule", text("""
            schedules:
              - {name: n, cron: "99 * * * *", candidate: {path: /k}, baseline: last_accepted}
            """), "minute '99' is not a value from 0 to 59", "a range A-B"),
        new FileCase("workload files outside as a file", text(
            "benchmarks:\n  w: {workload: {files: ../../../../../../etc/passwd, run: sh run.sh}}\n"),
            "'../../../../../../etc/passwd' is not a directory", "give the directory holding the workload's files"),
        new FileCase("workload run with a NUL", text("benchmarks:\n  w: {workload: {files: ., run: \"sh\\0x\"}}\n"),
            "contains a NUL character", "write the command without it"),
        new FileCase("duplicate key", text("policy:\n  pairs: 8\n  pairs: 9\n"), ":3: duplicate key 'pairs' under policy",
            "keep one"),
        new FileCase("duplicate top-level key", text("policy: {}\npolicy: {}\n"),
            ":2: duplicate key 'policy' at the top level", "keep one"),
        new FileCase("a list at the top", text("- a\n- b\n"), ":1: the top level must be a mapping",
            "key: value lines"),
        new FileCase("a scalar at the top", text("hello\n"), ":1: the top level must be a mapping", "key: value lines"),
        new FileCase("a mapping as a key", text("{a: 1}: 2\n"), "keys at the top level must be plain words",
            "plain words"),
        new FileCase("anchors and aliases, billion laughs", text(billionLaughs()), "anchors and aliases",
            "write the values out"),
        new FileCase("an alias reusing a mapping", text("policy: &p {pairs: 8}\nvm: *p\n"), "anchors and aliases",
            "write the values out"),
        new FileCase("nested 5000 deep", text("policy:\n  looks: " + "[".repeat(5000) + "]".repeat(5000) + "\n"),
            ":2: nested more than 32 levels deep", "check the indentation"),
        new FileCase("tab indentation", text("policy:\n\tpairs: 8\n"), ":2: not valid YAML",
            "indent with spaces, not tabs"),
        new FileCase("unclosed flow mapping", text("policy: {pairs: 8\n"), "not valid YAML", "fix the syntax"),
        new FileCase("binary garbage", bytes(HostileInputs.garbage(4096)), "not UTF-8 text", "save the file as UTF-8"),
        new FileCase("invalid UTF-8 on line 3", bytes(latin1("policy:\n  pairs: 8\n# caf\u00e9\n")),
            ":3: not UTF-8 text", "save the file as UTF-8"),
        new FileCase("a 10 MB file", d -> Files.write(d.resolve("big.yaml"), new byte[10 << 20]),
            "larger than 1 MiB, so not a fleet.yaml", "pass a fleet.yaml with --config"),
        new FileCase("a directory", d -> Files.createDirectory(d.resolve("conf.d")), "is a directory",
            "pass the fleet.yaml itself with --config"),
        new FileCase("no such file", d -> d.resolve("nope.yaml"), "no such file",
            "pass an existing fleet.yaml with --config"),
        new FileCase("a path under a regular file", d -> Files.writeString(d.resolve("f"), "x").resolve("fleet.yaml"),
            "cannot read", "check the path and its permissions"),
        new FileCase("unreadable file (as root: /proc/self/mem, which cannot be read)", HostileFleetYamlTest::unreadable,
            "cannot read", "check the path and its permissions"));
  }

  static String billionLaughs() {
    StringBuilder s = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i < 10; i++) {
      s.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 9; j++) {
        s.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      s.append("]\n");
    }
    return s.toString();
  }

  static byte[] latin1(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A file without read permission; root reads it anyway, so then /proc/self/mem (reading it fails). */
  static Path unreadable(Path d) throws IOException {
    Path f = Files.writeString(d.resolve("secret.yaml"), "policy: {}\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
    return Files.isReadable(f) ? Path.of("/proc/self/mem") : f;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badFleetYamlIsOneLineAndExitTwo(FileCase c) throws IOException {
    Path work = Files.createDirectory(dir.resolve("work"));
    Path kernel = FakeKernels.bzImage(dir);
    Path config = c.input().write(work);

    HostileRun.Outcome o = HostileRun.main("ab", "--baseline", "a=" + kernel, "--candidate", "b=" + kernel,
        "--config", config.toString());

    HostileRun.assertOneClearLine(o, c.problem(), c.fix());
    assertThat(home.path()).isEmptyDirectory();
  }
}
