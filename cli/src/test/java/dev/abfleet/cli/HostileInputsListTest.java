package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.analyze.HostileAnalyzeInputTest;
import dev.abfleet.config.HostileFleetYamlTest;
import dev.abfleet.config.HostileSpecFileTest;
import dev.abfleet.testkit.HostileInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lists this module's bad-input cases in target/hostile-inputs.txt and prints a count per category. */
class HostileInputsListTest {
  @Test
  void listsEveryCaseByCategory() throws IOException {
    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put("fleet.yaml", names(HostileFleetYamlTest.cases()));
    cases.put("spec files", names(HostileSpecFileTest.cases()));
    cases.put("CLI options", names(HostileCliOptionsTest.cases()));
    cases.put("analyze input", names(HostileAnalyzeInputTest.cases()));

    List<String> summary = HostileInputs.writeList(cases);

    assertThat(summary).hasSize(5);
    assertThat(Files.readAllLines(Path.of("target", "hostile-inputs.txt")))
        .hasSize(cases.values().stream().mapToInt(List::size).sum())
        .contains("fleet.yaml\tanchors and aliases, billion laughs");
  }

  private static List<String> names(List<?> cases) {
    return cases.stream().map(Object::toString).toList();
  }
}
