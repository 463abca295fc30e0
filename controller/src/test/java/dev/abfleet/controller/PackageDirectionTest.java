package dev.abfleet.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the dependency between the experiment and the scheduler one way (experiment -> schedule
 * -> plan): the scheduler and the plan it hands to hosts must not name the experiment package,
 * else the import cycle between ExperimentEntity and Scheduler is back. Reads the source files,
 * so a fully qualified name in code or Javadoc counts as much as an import.
 */
class PackageDirectionTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/abfleet/controller");
  // dev.abfleet.controller.<package>.<Type or *>; the root package (CborSerializable) is "".
  private static final Pattern REFERENCE =
      Pattern.compile("dev\\.abfleet\\.controller\\.((?:[a-z][a-z0-9]*\\.)*)(?:[A-Z*])");

  @Test
  void scheduleNeverNamesTheExperimentPackage() {
    assertThat(packagesNamedBy("schedule")).doesNotContain("experiment");
  }

  @Test
  void planNamesNeitherExperimentNorSchedule() {
    assertThat(packagesNamedBy("plan")).doesNotContain("experiment", "schedule");
  }

  @Test
  void experimentUsesTheSchedulersProtocol() {
    // The direction chosen: experiments are clients of the scheduler, not the other way round.
    assertThat(packagesNamedBy("experiment")).contains("schedule", "plan");
  }

  @Test
  void findsImportsStaticImportsWildcardsAndQualifiedNames() {
    String source = """
        package dev.abfleet.controller.schedule;
        import dev.abfleet.controller.experiment.ExperimentEntity;
        import static dev.abfleet.controller.fleet.Lease.of;
        import dev.abfleet.controller.plan.*;
        /** See {@link dev.abfleet.controller.grpc.HostSession}. */
        class X { dev.abfleet.controller.store.EventStore s; dev.abfleet.controller.CborSerializable c; }
        """;
    assertThat(referencedPackages(source))
        .containsExactly("", "experiment", "fleet", "grpc", "plan", "store");
  }

  /** The controller packages the main sources of {@code pkg} name, other than itself. */
  private static Set<String> packagesNamedBy(String pkg) {
    Path dir = SOURCES.resolve(pkg);
    assertThat(dir).as("sources of package %s (run from the controller module)", pkg).isDirectory();
    Set<String> named = new TreeSet<>();
    try (Stream<Path> files = Files.walk(dir)) {
      var sources = files.filter(f -> f.toString().endsWith(".java")).toList();
      assertThat(sources).as("java files under %s", dir).isNotEmpty();
      for (Path file : sources) {
        named.addAll(referencedPackages(Files.readString(file)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    named.remove(pkg);
    return named;
  }

  static Set<String> referencedPackages(String source) {
    Set<String> packages = new TreeSet<>();
    Matcher m = REFERENCE.matcher(source);
    while (m.find()) {
      String pkg = m.group(1);
      packages.add(pkg.isEmpty() ? "" : pkg.substring(0, pkg.length() - 1).replace('.', '/'));
    }
    return packages;
  }
}
