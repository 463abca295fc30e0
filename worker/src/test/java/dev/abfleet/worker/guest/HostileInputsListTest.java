package dev.abfleet.worker.guest;

import static org.assertj.core.api.Assertions.assertThat;

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
    cases.put("guest results", names(HostileGuestOutputTest.cases()));
    cases.put("workload output", names(HostileWorkloadOutputTest.cases()));
    // HostileResultsFloodTest and HostileGuestOutputTest's single tests, by what they feed in.
    cases.put("guest floods", List.of("100 MB of results through ResultsHead and GuestProtocol",
        "one 10 MB results line through ResultsHead and GuestProtocol", "1,000 garbage lines",
        "unknown fields of a sample"));

    HostileInputs.writeList(cases);

    assertThat(Files.readAllLines(Path.of("target", "hostile-inputs.txt"))).contains("guest results\tNaN value");
  }

  private static List<String> names(List<?> cases) {
    return cases.stream().map(Object::toString).toList();
  }
}
