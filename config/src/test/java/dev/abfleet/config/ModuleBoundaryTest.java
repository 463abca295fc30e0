package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * config reads fleet.yaml and spec files into the shared vocabulary (model) and the wire (proto):
 * it borrows nothing from the controller, the worker or the report, so each of those can read
 * its own files' types.
 */
class ModuleBoundaryTest {
  @Test
  void thePomNamesOnlyProtoStatsModelAndTheYamlParser() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(
        pom.substring(pom.indexOf("<dependencies>")));
    List<String> deps = new ArrayList<>();
    while (m.find()) {
      deps.add(m.group(1));
    }
    assertThat(deps).containsExactlyInAnyOrder("abfleet-proto", "abfleet-stats", "abfleet-model",
        "snakeyaml-engine", "abfleet-testkit");
  }

  @Test
  void noControllerWorkerOrReportClassIsOnItsClasspath() {
    for (String cls : List.of("dev.abfleet.controller.ControllerNode", "dev.abfleet.controller.ControllerSettings",
        "dev.abfleet.worker.HostFacts", "dev.abfleet.worker.vm.qemu.QemuDriver", "dev.abfleet.report.JsonReport")) {
      assertThatThrownBy(() -> Class.forName(cls)).as(cls).isInstanceOf(ClassNotFoundException.class);
    }
  }
}
