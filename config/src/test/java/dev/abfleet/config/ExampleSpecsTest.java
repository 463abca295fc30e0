package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every spec file shipped under examples/ loads against the built-in fleet.yaml. */
class ExampleSpecsTest {
  private static final Path EXAMPLES = Path.of("..", "examples");

  @Test
  void everyShippedSpecFileLoads() throws IOException {
    List<Path> specs;
    try (Stream<Path> files = Files.walk(EXAMPLES)) {
      specs = files.filter(p -> p.toString().endsWith(".yaml")).filter(ExampleSpecsTest::hasArms).sorted().toList();
    }
    assertThat(specs).extracting(Path::toString).anyMatch(p -> p.endsWith("fuse-spin-wait/ab.yaml"));
    for (Path spec : specs) {
      SpecFile s = SpecFileLoader.load(spec, FleetConfigLoader.embeddedDefault());
      assertThat(s.arms()).as(spec.toString()).isNotEmpty();
    }
  }

  @Test
  void theSpinWaitExampleComparesThreeBuiltKernelsOnVirtiofsWithAPinnedCeiling() {
    SpecFile s = SpecFileLoader.load(EXAMPLES.resolve("fuse-spin-wait/ab.yaml"), FleetConfigLoader.embeddedDefault());

    assertThat(s.arms()).extracting(SpecFile.Arm::name).containsExactly("stock", "gated", "ungated", "pinned");
    assertThat(s.arms()).allSatisfy(a -> assertThat(a.build()).isNotNull());
    assertThat(s.volume()).isEqualTo(new SpecFile.Volume("virtiofs", "none"));
    FleetConfig.Benchmark b = s.applyTo(FleetConfigLoader.embeddedDefault(), s.benchmark()).benchmark(s.benchmark());
    assertThat(b.transport()).isEqualTo("virtiofs");
    assertThat(b.load().threads()).isEqualTo(2);
  }

  private static boolean hasArms(Path p) {
    try {
      return Files.readAllLines(p).stream().anyMatch(l -> l.startsWith("arms:"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
