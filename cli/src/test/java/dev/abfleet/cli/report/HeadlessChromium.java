package dev.abfleet.cli.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Loads a page in Debian's headless Chromium, as a reader's browser would: returns the DOM after
 * rendering, what the page wrote to its console (headless Chromium logs each console message and
 * each uncaught exception to stderr as {@code INFO:CONSOLE:LINE] "message", source: URL (LINE)}),
 * and keeps a screenshot. Without a {@code chromium} binary the calling test is skipped, unless
 * {@code ABFLEET_TEST_BROWSER_REQUIRED=1} (set by {@code bin/test}) makes that a failure.
 */
public final class HeadlessChromium {
  /** Where screenshots go, relative to the module (cli/target/screenshots). */
  public static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final long TIMEOUT_SECONDS = 90;

  private final Path binary;

  private HeadlessChromium(Path binary) {
    this.binary = binary;
  }

  /**
   * The page after rendering.
   *
   * @param console every console message and uncaught exception of the page, one line each
   */
  public record Page(String dom, List<String> console, Path screenshot, String stderr) {}

  /** The browser, or the test is skipped (or fails, when a browser is required). */
  public static HeadlessChromium require() {
    Optional<Path> found = find(System.getenv("PATH"));
    if (found.isEmpty()) {
      String why = "no chromium on PATH: the browser tests are SKIPPED (bin/setup installs Debian's"
          + " chromium package)";
      if ("1".equals(System.getenv("ABFLEET_TEST_BROWSER_REQUIRED"))) {
        throw new IllegalStateException(why.replace("are SKIPPED", "cannot run")
            + "; ABFLEET_TEST_BROWSER_REQUIRED=1 makes this a failure");
      }
      System.err.println("HeadlessChromium: " + why);
      Assumptions.abort(why);
    }
    return new HeadlessChromium(found.get());
  }

  static Optional<Path> find(String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /** The command line: headless, DOM dumped after load, screenshot of a tall window. */
  static List<String> argv(Path binary, Path page, Path profile, Path screenshot) {
    return argv(binary, page.toAbsolutePath().toUri(), profile, screenshot, 2400);
  }

  /** As {@link #argv(Path, Path, Path, Path)} for any URL, in a window {@code height} px tall. */
  static List<String> argv(Path binary, java.net.URI url, Path profile, Path screenshot, int height) {
    return List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile,
        "--screenshot=" + screenshot, "--window-size=1200," + height, "--dump-dom",
        url.toString());
  }

  /**
   * The page's console lines in Chromium's stderr. Chromium's own ERROR lines (D-Bus, GPU) are not
   * the page's and are left out; the page has no business writing to the console at all, so any
   * message it writes counts (a report page has no scripts).
   */
  static List<String> console(String stderr) {
    List<String> out = new ArrayList<>();
    for (String line : stderr.split("\n")) {
      if (line.contains(":CONSOLE") || line.contains("Uncaught")) {
        out.add(line.strip());
      }
    }
    return out;
  }

  /** Loads the file; the screenshot is {@code target/screenshots/NAME.png}. */
  public Page load(Path html, String name) throws IOException, InterruptedException {
    return load(html.toAbsolutePath().toUri(), name, SCREENSHOTS, 2400);
  }

  /**
   * Loads {@code url} (a page a server serves, say) in a window 1200 x {@code height}; the
   * screenshot is {@code screenshots/NAME.png}.
   */
  public Page load(java.net.URI url, String name, Path screenshots, int height)
      throws IOException, InterruptedException {
    Files.createDirectories(screenshots);
    Path screenshot = screenshots.resolve(name + ".png").toAbsolutePath();
    Files.deleteIfExists(screenshot);
    Path work = Files.createTempDirectory("chromium-");
    Path out = work.resolve("dom.html");
    Path err = work.resolve("stderr.txt");
    Process p = new ProcessBuilder(argv(binary, url, work.resolve("profile"), screenshot, height))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new IllegalStateException("chromium did not finish " + url + " within "
          + TIMEOUT_SECONDS + " s; stderr: " + err);
    }
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    delete(work);
    if (p.exitValue() != 0) {
      throw new IllegalStateException("chromium exited " + p.exitValue() + " on " + url
          + "; stderr:\n" + stderr);
    }
    return new Page(dom, console(stderr), screenshot, stderr);
  }

  private static void delete(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
