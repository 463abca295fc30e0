package dev.abfleet.controller.grpc;

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
    cases.put("gRPC calls", names(HostileGrpcCases.cases()));
    cases.put("worker streams", names(HostileStreamCases.worker()));
    cases.put("artifact uploads", names(HostileStreamCases.uploads()));

    HostileInputs.writeList(cases);

    assertThat(Files.readAllLines(Path.of("target", "hostile-inputs.txt")))
        .contains("gRPC calls\tspec name that is not UTF-8", "worker streams\ta report before Hello");
  }

  private static List<String> names(List<?> cases) {
    return cases.stream().map(Object::toString).toList();
  }
}
