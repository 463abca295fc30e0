package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.config.Problem;
import dev.abfleet.model.Cron;
import dev.abfleet.config.ByteSize;
import dev.abfleet.testkit.Fuzz;
import dev.abfleet.testkit.Gen;
import dev.abfleet.testkit.HostileInputs;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Seeded property-based fuzzing of the configuration parsers: for any text, fleet.yaml and spec
 * loading give a config or a {@link Problem} with a one-line message, the size, schedule and
 * address parsers give a value or an error value, never another exception, each in bounded time.
 * Fixed seeds make a CI failure replay exactly.
 */
class ConfigParsersFuzzTest {
  private static final Path DIR = Path.of("target");
  private static final long MAX_NANOS = 2_000_000_000L;
  private static final FleetConfig DEFAULT = FleetConfigLoader.embeddedDefault();
  private static final String VALID_FLEET = """
      controller: {grpc_port: 7070, heartbeat_interval_ms: 1000, artifacts: {max_bytes: 20GiB}}
      policy:
        noise_threshold: 0.02
        alpha: 0.05
        looks: [8, 16]
        boot_timeout_s: 180
      vm: {vcpus: 2, memory_mib: 512, pin_vcpus: false}
      benchmarks:
        default: {metrics: [metadata_stat, seq_read], iterations: 5, warmup: 1}
      schedules:
        - {name: nightly, cron: "30 2 * * *", candidate: {path: /k}, baseline: last_accepted}
      """;
  private static final String VALID_SPEC = """
      pairs: 8
      seed: 42
      vm: {memory_mib: 1024}
      arms:
        - {name: stock, role: baseline, kernel: vmlinuz}
        - {name: patched, role: candidate, kernel: vmlinuz, cmdline: quiet, modules: [9p]}
      """;

  /** Text made of YAML punctuation, the keys the loaders know, numbers and odd characters. */
  private static Gen<String> yamlish() {
    Gen<String> token = Gen.oneOf(
        Gen.of("controller", "policy", "vm", "benchmarks", "schedules", "arms", "name", "role", "kernel",
            "pairs", "looks", "alpha", "vcpus", "memory_mib", "max_bytes", "cron", "workload", "files", "run"),
        Gen.of(":", ": ", "\n", "\n  ", "\n    ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "'",
            "\"", "#", "\t", "---", "...", "|", ">", "? "),
        Gen.of("-1", "0", "1e99", "NaN", ".inf", "99999999999999999999", "20GiB", "0x1F", "true", "yes",
            "~", "null", "baseline", "candidate", "../../etc/passwd", "$(id)", "; rm -rf /", "\u0000", "\u00e9",
            "\uFFFD", "\u202E"));
    return Gen.tokens(token, 60);
  }

  /** One edit of a document: at a position, insert (0), replace (1) or delete (2) a character. */
  private record Edit(int at, int kind, char c) {}

  /** A valid document with 1 to 8 characters replaced, inserted or deleted. */
  private static Gen<String> mutations(String valid) {
    Gen<Integer> at = Gen.ints(0, valid.length());
    Gen<Integer> kind = Gen.ints(0, 2);
    Gen<Character> c = Gen.chars(":-[]{},'\"#&*!|>\n\t 0129abz\u0000\u00e9");
    Gen<Edit> edit = r -> new Edit(at.next(r), kind.next(r), c.next(r));
    return edit.list(1, 8).map(edits -> {
      StringBuilder s = new StringBuilder(valid);
      for (Edit e : edits) {
        int pos = Math.min(e.at(), s.length());
        switch (e.kind()) {
          case 0 -> s.insert(pos, e.c());
          case 1 -> { if (pos < s.length()) s.setCharAt(pos, e.c()); }
          default -> { if (pos < s.length()) s.deleteCharAt(pos); }
        }
      }
      return s.toString();
    });
  }

  @Test
  void fleetYamlIsAConfigOrOneProblem() {
    Fuzz.check("fleetYamlIsAConfigOrOneProblem", 20261203, 1000, yamlish(),
        text -> loadsOrOneProblem(() -> FleetConfigLoader.parse("fleet.yaml", text, DIR)));
  }

  @Test
  void mutatedFleetYamlIsAConfigOrOneProblem() {
    Fuzz.check("mutatedFleetYamlIsAConfigOrOneProblem", 20261204, 1000, mutations(VALID_FLEET),
        text -> loadsOrOneProblem(() -> FleetConfigLoader.parse("fleet.yaml", text, DIR)));
  }

  @Test
  void specFileIsASpecOrOneProblem() {
    Fuzz.check("specFileIsASpecOrOneProblem", 20261205, 800, yamlish(),
        text -> loadsOrOneProblem(() -> SpecFileLoader.parse("spec.yaml", text, DIR, DEFAULT)));
  }

  @Test
  void mutatedSpecFileIsASpecOrOneProblem() {
    Fuzz.check("mutatedSpecFileIsASpecOrOneProblem", 20261206, 1000, mutations(VALID_SPEC),
        text -> loadsOrOneProblem(() -> SpecFileLoader.parse("spec.yaml", text, DIR, DEFAULT)));
  }

  @Test
  void anyTextIsASizeOrEmpty() {
    Fuzz.check("anyTextIsASizeOrEmpty", 20261207, 1000, Gen.strings(),
        text -> ByteSize.parse(text).ifPresent(n -> assertThat(n).isPositive()));
  }

  @Test
  void sizeLikeTextIsASizeOrEmpty() {
    Fuzz.check("sizeLikeTextIsASizeOrEmpty", 20261208, 1000, sizes(),
        text -> ByteSize.parse(text).ifPresent(n -> assertThat(n).isPositive()));
  }

  private static Gen<String> sizes() {
    Gen<String> sign = Gen.of("", "-", "+", " ");
    Gen<String> digits = Gen.digits(25);
    Gen<String> space = Gen.of("", " ", "\t");
    Gen<String> unit = Gen.of("", "B", "KiB", "MiB", "GiB", "TiB", "GB", "kib", "e99", ".5");
    return r -> sign.next(r) + digits.next(r) + space.next(r) + unit.next(r);
  }

  @Test
  void anyScheduleIsACronOrAnError() {
    Fuzz.check("anyScheduleIsACronOrAnError", 20261209, 1000, cronish(), text -> {
      Cron.Parsed p = Cron.parse(text);
      assertThat(p.cron() == null).isEqualTo(p.error() != null);
      if (p.error() != null) {
        oneLine(p.error());
      }
    });
  }

  private static Gen<String> cronish() {
    return Gen.tokens(Gen.of("*", "*/", "0", "59", "60", "99", "-1", "1-5", "5-1", ",", "/0", "L", "MON", "\n", " ",
        "  ", "9999999999"), 14);
  }

  @Test
  void anyControllerAddressIsCheckedOrOneProblem() {
    Fuzz.check("anyControllerAddressIsCheckedOrOneProblem", 20261210, 1000, addresses(),
        text -> loadsOrOneProblem(() -> ControllerAddress.check(text)));
  }

  private static Gen<String> addresses() {
    return Gen.oneOf(Gen.strings(40),
        Gen.tokens(Gen.of("127.0.0.1", "[::1]", "[", "]", "host", ":", "7070", "0", "65536", "99999999999", ",",
            "\n", " ", "a-b.c", "$(id)", "`x`"), 10));
  }

  private static void loadsOrOneProblem(Supplier<?> parse) {
    long start = System.nanoTime();
    try {
      assertThat((Object) parse.get()).isNotNull();
    } catch (Problem p) {
      oneLine(p.getMessage());
    }
    assertThat(System.nanoTime() - start).as("bounded time").isLessThan(MAX_NANOS);
  }

  private static void oneLine(String message) {
    assertThat(message).isNotBlank();
    assertThat(message.lines().count()).as(message).isEqualTo(1);
    assertThat(HostileInputs.leaksInternals(message)).as(message).isFalse();
  }
}
