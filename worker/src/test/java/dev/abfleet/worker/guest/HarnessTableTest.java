package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.model.Harnesses;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The metric table the controller, config and reports use ({@link Harnesses}) is the one the
 * harness in the guest image implements: same metrics, same order, same units, same direction.
 */
class HarnessTableTest {
  /** A row of fleetbench's {@code struct metric METRICS[]}: {"name", "unit", ...}. */
  private static final Pattern ROW = Pattern.compile("(?m)^\\s*\\{\"([a-z_]+)\", \"([^\"]+)\", \"[^\"]+\", ");

  @Test
  void fleetbenchsMetricTableIsTheOneTheModelDeclares() throws Exception {
    String source;
    try (InputStream in = getClass().getResourceAsStream("/dev/abfleet/guest/fleetbench.c")) {
      assertThat(in).as("fleetbench.c on the classpath (abfleet-guest)").isNotNull();
      source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> harness = new ArrayList<>();
    Matcher m = ROW.matcher(source);
    while (m.find()) {
      harness.add(m.group(1) + " " + m.group(2));
    }
    List<String> model = Harnesses.metrics(Harnesses.FLEETBENCH).stream().map(d -> d.name() + " " + d.unit()).toList();

    assertThat(harness).containsExactlyElementsOf(model);
    assertThat(source).contains("\\\"better\\\":\\\"higher\\\"");
    assertThat(Harnesses.metrics(Harnesses.FLEETBENCH)).allSatisfy(d -> assertThat(d.better()).isEqualTo("higher"));
  }
}
