package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.e2e.ReadmeRecipes.Line;
import dev.abfleet.cli.e2e.ReadmeRecipes.Recipe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Every command of README.md's "## Recipes" runs as written, in order, with bash from the
 * repository root (bin/abfleet runs the jar this build packaged), as one reader's terminal:
 * variables set by one line ({@code K=...}) hold for the later lines, lines ending in '&' keep
 * running (controller, worker) until the end, and the only substitution is the documented
 * placeholder {@code ID}, the id of the experiment the recipe's {@code ab} printed.
 *
 * <p>The reader's machine is a fresh HOME in a temporary directory that holds what the README
 * presumes: {@code ~/.cache/abfleet/kernels} (which {@code bin/abfleet demo} leaves) links to the
 * test's Debian kernels, and {@code ~/linux} ("your kernel clone") links to {@link GitKernelRepo}
 * (the linux-source-6.1 tarball plus five commits, the third one slow-stat.patch), so that
 * {@code bisect --good HEAD~3 --bad HEAD} searches three real commits. Builds go to the shared
 * test build cache ({@link SourceKernels#env()}): the base trees are built once per machine and
 * a patch recompiles only what it touches.
 *
 * <p>Each line must exit 0, except the {@code --gate} line: its exit code is the gate (0 = pass,
 * 1 = a metric regressed, 4 = inconclusive), so 0, 1 and 4 all mean the A/B ran and was judged,
 * while 2 (bad input) and 3 (could not finish) fail the test. Each recipe's output is checked as well.
 */
@Tag("e2e")
@ResourceLock(SimFleets.LOCK) // uses both CPUs: never beside a simulated-fleet class
class ReadmeRecipesE2ETest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  /** The controller's default gRPC port, which the recipe relies on (its comment says so). */
  private static final int CONTROLLER_PORT = 7070;
  private static final Pattern DASHBOARD_PORT = Pattern.compile("--dashboard-port (\\d+)");
  private static final Pattern EXPERIMENT = Pattern.compile("(?m)^experiment (\\S+):");
  private static final Pattern IMAGE = Pattern.compile("(?m)^image\\s+(\\S+)$");
  private static final Pattern PLACEHOLDER_ID = Pattern.compile("\\bID\\b");

  private String experimentId;
  private int dashboardPort;

  @Test
  void everyRecipeRunsAsWrittenAndShowsItsResult(@TempDir Path dir) throws Exception {
    SourceKernels.tarball();
    List<Recipe> recipes = ReadmeRecipes.parse(Files.readString(ROOT.resolve("README.md")));
    assertThat(recipes).extracting(Recipe::title).containsExactly("A/B your own two kernels",
        "A patch on a source tree", "A controller with workers and the dashboard");
    assertThat(recipes).allSatisfy(r -> assertThat(r.lines()).as(r.title()).isNotEmpty());
    Path home = readersHome(dir);
    List<String> commits = GitKernelRepo.commits(home.resolve("linux"));
    Map<String, BiConsumer<Line, ReadmeTerminal.Ran>> checks = checks(commits);
    Set<String> unused = new HashSet<>(checks.keySet());
    Files.deleteIfExists(ROOT.resolve("report.html"));

    try (ReadmeTerminal terminal = new ReadmeTerminal(ROOT, dir, home)) {
      for (Recipe recipe : recipes) {
        for (Line line : recipe.lines()) {
          if (line.assignment()) {
            terminal.assign(line.command());
            continue;
          }
          String command = experimentId == null ? line.written()
              : PLACEHOLDER_ID.matcher(line.written()).replaceAll(experimentId);
          if (line.background()) {
            assertThat(command).as("ID in a background line").doesNotContainPattern(PLACEHOLDER_ID);
            startAndAwait(terminal, line);
            continue;
          }
          assertThat(command).as("ID before any experiment ran: " + line.written())
              .doesNotContainPattern(PLACEHOLDER_ID);
          long start = System.nanoTime();
          ReadmeTerminal.Ran ran = terminal.run(command);
          System.out.printf("readme recipe line, %.0f s: %s%n", (System.nanoTime() - start) / 1e9, command);
          assertThat(ran.err()).as(command).doesNotContain("abfleet: building");
          boolean gate = line.command().contains(" --gate");
          assertThat(ran.exit()).as(recipe.title() + ": " + command + "\n" + ran.err() + terminal.serverLogs())
              .isIn(gate ? List.of(0, 1, 4) : List.of(0));
          for (Map.Entry<String, BiConsumer<Line, ReadmeTerminal.Ran>> check : checks.entrySet()) {
            if (line.command().contains(check.getKey())) {
              check.getValue().accept(line, ran);
              unused.remove(check.getKey());
            }
          }
        }
      }
      assertThat(unused).as("README recipe commands the test checks but did not find").isEmpty();
      checkDashboard();
    } finally {
      Files.deleteIfExists(ROOT.resolve("report.html"));
    }
  }

  /** What each recipe's commands must print, by a piece of the command line. */
  private Map<String, BiConsumer<Line, ReadmeTerminal.Ran>> checks(List<String> commits) {
    Map<String, BiConsumer<Line, ReadmeTerminal.Ran>> c = new LinkedHashMap<>();
    c.put("--format html > report.html", (line, ran) -> {
      Path report = ROOT.resolve("report.html");
      assertThat(report).isRegularFile();
      String html = read(report);
      assertThat(html).containsIgnoringCase("<html").contains("metadata_stat", "stock", "mine")
          .containsAnyOf("regressed", "improved", "no_change", "inconclusive");
    });
    c.put("abfleet build ", (line, ran) -> {
      Matcher image = IMAGE.matcher(ran.out());
      assertThat(image.find()).as(ran.out()).isTrue();
      assertThat(Path.of(image.group(1))).isRegularFile();
      assertThat(ran.out()).contains("slow-stat.patch");
    });
    c.put("ab --spec examples/kernel-build/ab.yaml", (line, ran) -> {
      assertThat(ran.out()).contains("stock (baseline) vs slow-stat", "metadata_stat", "negative_lookup", "verdict:");
      assertThat(ran.out()).containsPattern("(?m)^metadata_stat .* regressed$");
    });
    c.put("bisect --git ~/linux", (line, ran) -> assertThat(ran.out()).as(ran.err())
        .contains("first bad commit: " + commits.get(3) + " " + GitKernelRepo.CULPRIT_SUBJECT));
    c.put("ab --controller", (line, ran) -> {
      Matcher m = EXPERIMENT.matcher(ran.out());
      assertThat(m.find()).as(ran.out()).isTrue();
      experimentId = m.group(1);
      assertThat(ran.out()).contains("stock (baseline) vs slub", "metadata_stat", "verdict:");
    });
    c.put("experiments list", (line, ran) -> assertThat(ran.out()).contains(experimentId));
    // The guest's console log at the kernel's quiet log level: the harness's own lines and the power-off.
    c.put("experiments logs", (line, ran) -> assertThat(ran.out())
        .contains("abfleet: fleetbench exited with status 0", "reboot: Power down"));
    return c;
  }

  /**
   * A background line runs until the end; the next line waits for it: a controller until its
   * gRPC port and dashboard answer, a worker until it says it is connected.
   */
  private void startAndAwait(ReadmeTerminal terminal, Line line) throws Exception {
    String command = line.foreground();
    if (command.contains("abfleet controller ")) {
      Matcher dashboard = DASHBOARD_PORT.matcher(command);
      assertThat(dashboard.find()).as(command).isTrue();
      dashboardPort = Integer.parseInt(dashboard.group(1));
      assertFree(CONTROLLER_PORT);
      assertFree(dashboardPort);
      ReadmeTerminal.Server controller = terminal.start("controller", command);
      controller.awaitPort(CONTROLLER_PORT);
      controller.awaitPort(dashboardPort);
    } else if (command.contains("abfleet worker ")) {
      terminal.start("worker", command).awaitLog("connected to controller");
    } else {
      throw new AssertionError("a background line the test cannot wait for: " + line.written());
    }
  }

  /** The dashboard the recipe's last (comment) line names lists the experiment and shows its page. */
  private void checkDashboard() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    String base = "http://127.0.0.1:" + dashboardPort;
    HttpResponse<String> index = http.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.body()).contains(experimentId);
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/experiments/" + experimentId))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("metadata_stat");
  }

  /**
   * A fresh HOME holding what the README presumes: the demo's kernels under
   * ~/.cache/abfleet/kernels and a kernel clone at ~/linux (links to the test's own).
   */
  private static Path readersHome(Path dir) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path cloud = Kernels.cloud();
    // .../kernels/<package>/boot/vmlinuz-<release>
    Path kernels = cloud.getParent().getParent().getParent();
    Files.createSymbolicLink(Files.createDirectories(home.resolve(".cache/abfleet")).resolve("kernels"), kernels);
    Files.createSymbolicLink(home.resolve("linux"), GitKernelRepo.create());
    return home;
  }

  private static void assertFree(int port) throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", port));
    } catch (IOException e) {
      throw new AssertionError("port " + port + " (the recipe's) is in use on 127.0.0.1: stop what listens there", e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
