package dev.abfleet.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.Problem;
import dev.abfleet.cli.nightly.Cron;
import dev.abfleet.cli.upload.ByteSize;
import dev.abfleet.testkit.HostileInputs;
import java.nio.file.Path;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

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
  @Provide
  Arbitrary<String> yamlish() {
    Arbitrary<String> token = Arbitraries.oneOf(
        Arbitraries.of("controller", "policy", "vm", "benchmarks", "schedules", "arms", "name", "role", "kernel",
            "pairs", "looks", "alpha", "vcpus", "memory_mib", "max_bytes", "cron", "workload", "files", "run"),
        Arbitraries.of(":", ": ", "\n", "\n  ", "\n    ", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "'",
            "\"", "#", "\t", "---", "...", "|", ">", "? "),
        Arbitraries.of("-1", "0", "1e99", "NaN", ".inf", "99999999999999999999", "20GiB", "0x1F", "true", "yes",
            "~", "null", "baseline", "candidate", "../../etc/passwd", "$(id)", "; rm -rf /", "\u0000", "\u00e9",
            "\uFFFD", "\u202E"));
    return token.list().ofMaxSize(60).map(tokens -> String.join("", tokens));
  }

  /** A valid document with up to 8 characters replaced, inserted or deleted. */
  @Provide
  Arbitrary<String> mutatedFleet() {
    return mutations(VALID_FLEET);
  }

  @Provide
  Arbitrary<String> mutatedSpec() {
    return mutations(VALID_SPEC);
  }

  private static Arbitrary<String> mutations(String valid) {
    Arbitrary<Tuple.Tuple3<Integer, Integer, Character>> edit = net.jqwik.api.Combinators.combine(
        Arbitraries.integers().between(0, valid.length()), Arbitraries.integers().between(0, 2),
        Arbitraries.chars().with(":-[]{},'\"#&*!|>\n\t 0129abz\u0000\u00e9".toCharArray()))
        .as(Tuple::of);
    return edit.list().ofMinSize(1).ofMaxSize(8).map(edits -> {
      StringBuilder s = new StringBuilder(valid);
      for (var e : edits) {
        int at = Math.min(e.get1(), s.length());
        switch (e.get2()) {
          case 0 -> s.insert(at, e.get3());
          case 1 -> { if (at < s.length()) s.setCharAt(at, e.get3()); }
          default -> { if (at < s.length()) s.deleteCharAt(at); }
        }
      }
      return s.toString();
    });
  }

  @Property(tries = 1000, seed = "20261203")
  void fleetYamlIsAConfigOrOneProblem(@ForAll("yamlish") String text) {
    loadsOrOneProblem(() -> FleetConfigLoader.parse("fleet.yaml", text, DIR));
  }

  @Property(tries = 1000, seed = "20261204")
  void mutatedFleetYamlIsAConfigOrOneProblem(@ForAll("mutatedFleet") String text) {
    loadsOrOneProblem(() -> FleetConfigLoader.parse("fleet.yaml", text, DIR));
  }

  @Property(tries = 800, seed = "20261205")
  void specFileIsASpecOrOneProblem(@ForAll("yamlish") String text) {
    loadsOrOneProblem(() -> SpecFileLoader.parse("spec.yaml", text, DIR, DEFAULT));
  }

  @Property(tries = 1000, seed = "20261206")
  void mutatedSpecFileIsASpecOrOneProblem(@ForAll("mutatedSpec") String text) {
    loadsOrOneProblem(() -> SpecFileLoader.parse("spec.yaml", text, DIR, DEFAULT));
  }

  @Property(tries = 1000, seed = "20261207")
  void anyTextIsASizeOrEmpty(@ForAll String text) {
    ByteSize.parse(text).ifPresent(n -> assertThat(n).isPositive());
  }

  @Property(tries = 1000, seed = "20261208")
  void sizeLikeTextIsASizeOrEmpty(@ForAll("sizes") String text) {
    ByteSize.parse(text).ifPresent(n -> assertThat(n).isPositive());
  }

  @Provide
  Arbitrary<String> sizes() {
    return net.jqwik.api.Combinators.combine(
        Arbitraries.of("", "-", "+", " "), Arbitraries.strings().numeric().ofMaxLength(25),
        Arbitraries.of("", " ", "\t"), Arbitraries.of("", "B", "KiB", "MiB", "GiB", "TiB", "GB", "kib", "e99", ".5"))
        .as((sign, digits, space, unit) -> sign + digits + space + unit);
  }

  @Property(tries = 1000, seed = "20261209")
  void anyScheduleIsACronOrAnError(@ForAll("cronish") String text) {
    Cron.Parsed p = Cron.parse(text);
    assertThat(p.cron() == null).isEqualTo(p.error() != null);
    if (p.error() != null) {
      oneLine(p.error());
    }
  }

  @Provide
  Arbitrary<String> cronish() {
    return Arbitraries.of("*", "*/", "0", "59", "60", "99", "-1", "1-5", "5-1", ",", "/0", "L", "MON", "\n", " ",
        "  ", "9999999999").list().ofMaxSize(14).map(t -> String.join("", t));
  }

  @Property(tries = 1000, seed = "20261210")
  void anyControllerAddressIsCheckedOrOneProblem(@ForAll("addresses") String text) {
    loadsOrOneProblem(() -> ControllerAddress.check(text));
  }

  @Provide
  Arbitrary<String> addresses() {
    return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40),
        Arbitraries.of("127.0.0.1", "[::1]", "[", "]", "host", ":", "7070", "0", "65536", "99999999999", ",",
            "\n", " ", "a-b.c", "$(id)", "`x`").list().ofMaxSize(10).map(t -> String.join("", t)));
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
