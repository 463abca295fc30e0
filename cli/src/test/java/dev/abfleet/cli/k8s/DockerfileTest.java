package dev.abfleet.cli.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** k8s/Dockerfile read as the stages the manifests use; the image itself is built by ImageRootFsE2ETest's layout. */
class DockerfileTest {
  @Test
  void bothTargetsStartTheCopiedJarOnAJre17() throws Exception {
    List<DockerfileStages.Stage> stages = DockerfileStages.parse(DockerfileStages.FILE);
    for (String target : List.of("controller", "worker")) {
      DockerfileStages.Stage s = DockerfileStages.stage(stages, target);
      assertThat(s.entrypoint()).as(target).containsExactly("java", "-jar", "/opt/abfleet/abfleet.jar");
      assertThat(s.copies()).as(target)
          .anySatisfy(c -> assertThat(c.destination()).isEqualTo(s.entrypoint().get(2)));
    }
    String text = Files.readString(DockerfileStages.FILE);
    assertThat(text).contains("FROM debian:12-slim").contains("openjdk-17-jre-headless");
  }

  @Test
  void copiesOnlyWhatTheRepositoryOrThePackagedJarProvides() throws Exception {
    for (DockerfileStages.Stage s : DockerfileStages.parse(DockerfileStages.FILE)) {
      for (DockerfileStages.Copy c : s.copies()) {
        // cli/pom.xml's shade finalName is abfleet: the jar exists after mvn package.
        boolean packaged = c.source().equals("cli/target/abfleet.jar");
        assertThat(packaged || Files.isRegularFile(DockerfileStages.CONTEXT.resolve(c.source())))
            .as("Dockerfile:%d COPY %s", c.line(), c.source()).isTrue();
      }
    }
    assertThat(Files.readString(DockerfileStages.CONTEXT.resolve("cli/pom.xml")))
        .contains("<finalName>abfleet</finalName>");
  }

  @Test
  void controllerRunsAsTheNonRootUserTheStatefulSetNames() throws Exception {
    DockerfileStages.Stage controller = DockerfileStages.stage(DockerfileStages.parse(DockerfileStages.FILE),
        "controller");
    var pod = Manifests.one(Manifests.all(), StatefulSet.class, "abfleet-controller").getSpec().getTemplate()
        .getSpec().getSecurityContext();
    assertThat(controller.user()).isEqualTo(pod.getRunAsUser() + ":" + pod.getRunAsGroup());
  }

  @Test
  void workerHasQemuAndTheGuestToolchain() throws Exception {
    String text = Files.readString(DockerfileStages.FILE);
    String worker = text.substring(text.indexOf("AS worker"));
    assertThat(worker).contains("qemu-system-x86", "busybox-static", "gcc", "kmod");
    assertThat(DockerfileStages.stage(DockerfileStages.parse(DockerfileStages.FILE), "worker").user())
        .isEqualTo("root");
  }

  @Test
  void inheritsFromTheParentStageAndRejectsUnmodelledCopies() {
    List<DockerfileStages.Stage> stages = DockerfileStages.parse(List.of(
        "FROM debian:12-slim AS base", "COPY a.jar /opt/a.jar", "ENTRYPOINT [\"java\", \\", "  \"-jar\"]",
        "FROM base AS child", "USER 1:1"));
    DockerfileStages.Stage child = DockerfileStages.stage(stages, "child");
    assertThat(child.copies()).extracting(DockerfileStages.Copy::destination).containsExactly("/opt/a.jar");
    assertThat(child.entrypoint()).containsExactly("java", "-jar");
    assertThat(child.user()).isEqualTo("1:1");
    assertThatThrownBy(() -> DockerfileStages.parse(List.of("FROM x", "COPY --from=y /a /b")))
        .hasMessageContaining("Dockerfile:2: COPY flags are not modelled");
  }
}
