package dev.abfleet.cli.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's root filesystem as k8s/Dockerfile lays it out (no container engine here): the
 * files each target COPYs, placed at their image paths, started through the target's
 * ENTRYPOINT. {@code java} stands for the image's openjdk-17-jre-headless: this JVM, which the
 * build requires to be 17 or later.
 */
@Tag("e2e")
class ImageRootFsE2ETest {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  @BeforeAll
  static void readManifests() throws Exception {
    ManifestsTest.read();
  }

  @Test
  void entrypointOfEachTargetRunsTheLaidOutJar(@TempDir Path dir) throws Exception {
    for (String target : List.of("controller", "worker")) {
      Path root = layout(target, dir);
      Run help = run(root, target, dir, List.of("--help"));
      assertThat(help.exit()).as("%s --help: %s", target, help.output()).isZero();
      assertThat(help.output()).contains("controller").contains("worker");
    }
  }

  @Test
  void manifestArgsStartTheirCommandThroughTheEntrypoint(@TempDir Path dir) throws Exception {
    for (var e : ManifestsTest.containers().entrySet()) {
      Container c = e.getValue();
      String target = c.getImage().substring("abfleet-".length(), c.getImage().indexOf(':'));
      Path root = layout(target, dir);
      List<String> args = new ArrayList<>(ManifestsTest.substituted(c));
      args.add("--help");
      Run help = run(root, target, dir, args);
      assertThat(help.exit()).as("%s: %s", args, help.output()).isZero();
      assertThat(help.output()).contains("Usage: abfleet " + args.get(0));
    }
  }

  /**
   * The shaded jar carries Pekko Management's, bootstrap's and Kubernetes discovery's
   * reference.conf: a controller started from the image layout serves /alive and /ready.
   */
  @Test
  void controllerFromTheImageServesHealthChecks(@TempDir Path dir) throws Exception {
    Path root = layout("controller", dir);
    int management = freePort();
    Path fleet = dir.resolve("fleet.yaml");
    Files.writeString(fleet, "controller:\n  grpc_host: 127.0.0.1\n  grpc_port: " + freePort()
        + "\n  cluster_port: " + freePort() + "\n  management_port: " + management + "\n  store:\n    path: "
        + dir.resolve("store") + "\n");
    Path log = dir.resolve("controller.log");
    Process p = start(root, "controller", dir, List.of("controller", "--plaintext", "--config=" + fleet), log);
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      int ready = 0;
      while (ready != 200 && System.nanoTime() < deadline && p.isAlive()) {
        ready = status(http, management, "/ready");
        if (ready != 200) {
          Thread.sleep(500);
        }
      }
      assertThat(ready).as("/ready; log:\n%s", Files.readString(log)).isEqualTo(200);
      assertThat(status(http, management, "/alive")).isEqualTo(200);
    } finally {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private record Run(int exit, String output) {}

  private static Path layout(String target, Path dir) throws IOException {
    DockerfileStages.Stage stage = DockerfileStages.stage(DockerfileStages.parse(DockerfileStages.FILE), target);
    Path root = dir.resolve("rootfs-" + target);
    DockerfileStages.layout(stage, DockerfileStages.CONTEXT, root);
    assertThat(stage.entrypoint()).hasSizeGreaterThanOrEqualTo(3).startsWith("java", "-jar");
    Path jar = root.resolve(stage.entrypoint().get(2).substring(1));
    assertThat(jar).as("ENTRYPOINT's jar in the %s image", target).isRegularFile();
    return root;
  }

  private static Run run(Path root, String target, Path dir, List<String> args) throws Exception {
    Path out = Files.createTempFile(dir, target, ".out");
    Process p = start(root, target, dir, args, out);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s %s exits", target, args).isTrue();
    return new Run(p.exitValue(), Files.readString(out));
  }

  /** The target's ENTRYPOINT with its paths inside {@code root}, then {@code args} (the pod's args). */
  private static Process start(Path root, String target, Path dir, List<String> args, Path output) throws IOException {
    DockerfileStages.Stage stage = DockerfileStages.stage(DockerfileStages.parse(DockerfileStages.FILE), target);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String word : stage.entrypoint().subList(1, stage.entrypoint().size())) {
      cmd.add(word.startsWith("/") ? root.resolve(word.substring(1)).toString() : word);
    }
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().put("ABFLEET_HOME", dir.resolve("home-" + target).toString());
    return pb.start();
  }

  private static int status(HttpClient http, int port, String path) throws InterruptedException {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return 0;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
