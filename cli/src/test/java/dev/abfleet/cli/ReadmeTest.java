package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is read in five minutes and every other page is one link away: README.md stays
 * short, and its relative links and those of docs/*.md lead to files (and headings) that exist.
 */
class ReadmeTest {
  private static final Path ROOT = Path.of("..");
  private static final int MAX_README_LINES = 250;
  /** {@code [text](target)} and {@code ![alt](target)}; the target ends at a space (a title) or ')'. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

  @Test
  void readmeHasAtMost250Lines() throws IOException {
    assertThat(Files.readAllLines(ROOT.resolve("README.md"))).hasSizeLessThanOrEqualTo(MAX_README_LINES);
  }

  @Test
  void everyRelativeLinkOfTheReadmeAndTheDocsResolvesToAFile() throws IOException {
    List<String> checked = new ArrayList<>();
    List<String> broken = new ArrayList<>();
    for (Path doc : documents()) {
      for (String target : links(Files.readString(doc))) {
        String file = stripFragment(target);
        if (isExternal(target) || file.isEmpty()) {
          continue;
        }
        checked.add(target);
        if (!Files.exists(doc.getParent().resolve(file).normalize())) {
          broken.add(ROOT.relativize(doc) + ": " + target);
        }
      }
    }
    assertThat(checked).hasSizeGreaterThan(20);
    assertThat(broken).isEmpty();
  }

  @Test
  void everyAnchorOfTheReadmeAndTheDocsNamesAHeadingOfItsFile() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : documents()) {
      for (String target : links(Files.readString(doc))) {
        int hash = target.indexOf('#');
        if (isExternal(target) || hash < 0) {
          continue;
        }
        String file = target.substring(0, hash);
        Path linked = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (linked.toString().endsWith(".md") && Files.isRegularFile(linked)
            && !anchors(Files.readString(linked)).contains(target.substring(hash + 1))) {
          broken.add(ROOT.relativize(doc) + ": " + target);
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  @Test
  void everyDocsPageIsLinkedFromTheReadme() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      List<String> unlinked = pages.filter(p -> p.toString().endsWith(".md"))
          .map(p -> "docs/" + p.getFileName())
          .filter(p -> !readme.contains("](" + p + ")"))
          .toList();
      assertThat(unlinked).isEmpty();
    }
  }

  @Test
  void findsLinksAndSkipsExternalOnesAndStripsFragments() {
    assertThat(links("see [a](docs/a.md#x) and ![img](docs/s.png \"t\") or [w](https://x.org/a)"))
        .containsExactly("docs/a.md#x", "docs/s.png", "https://x.org/a");
    assertThat(stripFragment("docs/a.md#x")).isEqualTo("docs/a.md");
    assertThat(isExternal("http://x")).isTrue();
    assertThat(isExternal("docs/a.md")).isFalse();
  }

  @Test
  void anchorsFollowGithubHeadingIds() {
    assertThat(anchors("## Kernels from source (`abfleet build`, `build:` arms, `bisect --git`)\n"
        + "## The `analyze` JSON (`--format json`, `format_version` 1)\n## Apple Virtualization.framework (VZ)\n"))
        .contains("kernels-from-source-abfleet-build-build-arms-bisect---git",
            "the-analyze-json---format-json-format_version-1", "apple-virtualizationframework-vz");
  }

  /** README.md and every Markdown file under docs/. */
  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  static List<String> links(String markdown) {
    List<String> targets = new ArrayList<>();
    Matcher m = LINK.matcher(markdown);
    while (m.find()) {
      targets.add(m.group(1));
    }
    return targets;
  }

  static String stripFragment(String target) {
    int hash = target.indexOf('#');
    return hash < 0 ? target : target.substring(0, hash);
  }

  static boolean isExternal(String target) {
    return target.startsWith("http://") || target.startsWith("https://") || target.startsWith("mailto:");
  }

  /**
   * The ids GitHub gives a file's headings: lower case, punctuation other than '-' and '_'
   * dropped, spaces made '-'. Headings inside fenced code blocks are not headings.
   */
  static Set<String> anchors(String markdown) {
    Set<String> ids = new HashSet<>();
    boolean fenced = false;
    for (String line : markdown.split("\n")) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (!fenced && m.matches()) {
        ids.add(m.group(1).strip().toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
            .replace(' ', '-'));
      }
    }
    return ids;
  }
}
