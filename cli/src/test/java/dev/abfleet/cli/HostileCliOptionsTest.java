package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile command-line options, run in-process: each ends with exit code 2 and one line naming
 * the problem and the fix, before any controller is called or anything is written. In the
 * arguments {@code {K}} stands for a file that passes the kernel check and {@code {D}} for the
 * test's directory.
 */
class HostileCliOptionsTest {
  @TempDir Path dir;
  @RegisterExtension final IsolatedHome home = new IsolatedHome();

  /** One command line and the words its message must contain. */
  record OptionCase(String name, List<String> args, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static OptionCase ab(String name, String problem, String fix, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("ab", "--baseline", "a={K}", "--candidate", "b={K}"));
    args.addAll(List.of(more));
    return new OptionCase(name, args, problem, fix);
  }

  private static OptionCase cmd(String name, String problem, String fix, String... args) {
    return new OptionCase(name, List.of(args), problem, fix);
  }

  static List<OptionCase> cases() {
    String hostPort = "expected HOST:PORT with a port 1 to 65535";
    String idForm = "use 1 to 128 of [A-Za-z0-9_.:-]";
    return List.of(
        ab("--controller with rm -rf", "'; rm -rf /'", hostPort, "--controller", "; rm -rf /"),
        ab("--controller with $(id)", "'$(id):7070'", hostPort, "--controller", "$(id):7070"),
        ab("--controller with backticks", "'`id`:7070'", hostPort, "--controller", "`id`:7070"),
        ab("--controller with a newline", "'a:7070?b:7071'", hostPort, "--controller", "a:7070\nb:7071"),
        ab("--controller port past 65535", "'host:99999'", hostPort, "--controller", "host:99999"),
        ab("--controller port zero", "'host:0'", hostPort, "--controller", "host:0"),
        ab("--controller without a port", "'host'", hostPort, "--controller", "host"),
        ab("--controller empty", "''", hostPort, "--controller", ""),
        ab("--controller with an empty entry", "''", "several separated by commas", "--controller", "a:1,,b:2"),
        cmd("experiments list --controller URL", "'http://c:7070'", hostPort,
            "experiments", "list", "--controller", "http://c:7070"),
        cmd("experiments show id with rm -rf", "'; rm -rf /' is not a valid experiment id", idForm,
            "experiments", "show", "; rm -rf /"),
        cmd("experiments show id with $(id)", "'$(id)' is not a valid experiment id", idForm,
            "experiments", "show", "$(id)"),
        cmd("experiments cancel id with backticks", "'`reboot`' is not a valid experiment id", idForm,
            "experiments", "cancel", "`reboot`"),
        cmd("experiments watch id with a newline", "'e-1?rm' is not a valid experiment id", idForm,
            "experiments", "watch", "e-1\nrm"),
        cmd("experiments logs id with a path", "'../../etc/passwd' is not a valid experiment id", idForm,
            "experiments", "logs", "../../etc/passwd"),
        cmd("experiments list --limit negative", "--limit -5", "expected 1 or more",
            "experiments", "list", "--limit", "-5"),
        cmd("hosts drain id with rm -rf", "'; rm -rf /' is not a valid host id", "use 1 to 128 of",
            "hosts", "drain", "; rm -rf /"),
        cmd("hosts undrain id with $(id)", "'$(id)' is not a valid host id", "use 1 to 128 of",
            "hosts", "undrain", "$(id)"),
        ab("--pairs negative", "--pairs -3", "expected 1 to 10000", "--pairs", "-3"),
        ab("--pairs past an int", "'99999999999' is not an int", "abfleet ab --help", "--pairs", "99999999999"),
        ab("--iterations zero", "--iterations 0", "expected 1 to 1000", "--iterations", "0"),
        ab("--boot-timeout negative", "--boot-timeout -1", "expected 5 to 86400 seconds", "--boot-timeout", "-1"),
        ab("--vcpus negative", "--vcpus -1", "expected 1 to 512", "--vcpus", "-1"),
        ab("--local-workers zero", "--local-workers 0", "expected 1 to 64", "--local-workers", "0"),
        ab("--threshold NaN", "--threshold NaN", "expected a relative change between 0 and 1", "--threshold", "NaN"),
        ab("--alpha 2", "--alpha 2", "expected a significance level between 0 and 0.5", "--alpha", "2"),
        ab("--looks descending", "--looks [16, 8]", "expected ascending pair counts", "--looks", "16,8"),
        ab("--priority unknown", "--priority urgent", "expected pr, adhoc or nightly", "--priority", "urgent"),
        ab("--hypervisor unknown", "kvm2", "qemu", "--hypervisor", "kvm2"),
        ab("--arch unknown", "--arch arm64", "expected x86_64 or aarch64", "--arch", "arm64"),
        ab("--format unknown", "xml", "text, json, markdown or html", "--format", "xml"),
        ab("--metrics unknown", "fsync_storm", "metadata_stat", "--metrics", "fsync_storm"),
        ab("--seed not a number", "'abc' is not a long", "abfleet ab --help", "--seed", "abc"),
        cmd("arm name with rm -rf", "--baseline name 'x;rm -rf /'", "may only use letters, digits",
            "ab", "--baseline", "x;rm -rf /={K}", "--candidate", "b={K}"),
        cmd("arm kernel that is $(id)", "kernel image $(id) does not exist", "pass the path of a vmlinuz",
            "ab", "--baseline", "a=$(id)", "--candidate", "b={K}"),
        cmd("arm kernel arguments with a newline", "kernel arguments may not contain newlines", "--baseline 'a'",
            "ab", "--baseline", "a={K}:quiet\ninit=/bin/sh", "--candidate", "b={K}"),
        cmd("missing kernel file", "{D}/nope does not exist", "pass the path of a vmlinuz",
            "ab", "--baseline", "a={D}/nope", "--candidate", "b={K}"),
        cmd("missing spec file", "no such file", "pass an existing spec file with --spec",
            "ab", "--spec", "{D}/nope.yaml"),
        cmd("missing config file", "no such file", "pass an existing fleet.yaml with --config",
            "ab", "--baseline", "a={K}", "--candidate", "b={K}", "--config", "{D}/nope.yaml"),
        cmd("unknown subcommand", "unknown command 'frobnicate'", "abfleet --help", "frobnicate"),
        cmd("analyze --input-format csv", "--input-format 'csv'", "expected jsonl or gobench",
            "analyze", "--input-format", "csv", "{K}"),
        cmd("analyze --max-pairs negative", "--max-pairs -1", "expected a count >= 1",
            "analyze", "--max-pairs", "-1", "{K}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badOptionIsOneLineAndExitTwo(OptionCase c) throws IOException {
    Path kernel = FakeKernels.bzImage(dir);
    String[] args = c.args().stream()
        .map(a -> a.replace("{K}", kernel.toString()).replace("{D}", dir.toString())).toArray(String[]::new);

    HostileRun.Outcome o = HostileRun.main(args);

    HostileRun.assertOneClearLine(o, c.problem().replace("{D}", dir.toString()), c.fix());
    assertThat(home.path()).isEmptyDirectory();
  }
}
