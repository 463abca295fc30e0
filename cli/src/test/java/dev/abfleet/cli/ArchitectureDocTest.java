package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/architecture.md is a map of the tree: every path it names must exist. */
class ArchitectureDocTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern CODE = Pattern.compile("`([^`\\s]+/[^`\\s]*)`");
  private static final Pattern ABBREVIATED = Pattern.compile("([a-z]+)/\\.\\.\\./(.*)");

  @Test
  void everyPathTheArchitectureDocNamesExists() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
    List<String> named = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    Matcher m = CODE.matcher(doc);
    while (m.find()) {
      String p = m.group(1);
      if (p.contains("<")) {
        continue; // the legend: src/main/java/dev/abfleet/<module>
      }
      named.add(p);
      if (!Files.exists(ROOT.resolve(expand(p)))) {
        missing.add(p + " (" + expand(p) + ")");
      }
    }
    assertThat(named).hasSizeGreaterThan(30);
    assertThat(missing).isEmpty();
  }

  @Test
  void theReadmeLinksIt() throws Exception {
    assertThat(Files.readString(ROOT.resolve("README.md"))).contains("(docs/architecture.md)");
  }

  /** {@code worker/.../run/X.java} is {@code worker/src/main/java/dev/abfleet/worker/run/X.java}. */
  static String expand(String path) {
    Matcher m = ABBREVIATED.matcher(path);
    return m.matches() ? m.group(1) + "/src/main/java/dev/abfleet/" + m.group(1) + "/" + m.group(2) : path;
  }
}
