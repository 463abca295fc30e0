package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.WorkerSettings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class WorkerCommandTest {

  private static WorkerCommand parse(String... args) {
    WorkerCommand cmd = new WorkerCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd;
  }

  @Test
  void aWorkerStartedWithNoImageBuildBootsOnlyStagedImages() {
    assertThat(parse("--controller", "127.0.0.1:1", "--no-image-build").settings("h1").buildsImages()).isFalse();
  }

  @Test
  void aLinuxWorkerBuildsGuestImagesByDefault() {
    assertThat(parse("--controller", "127.0.0.1:1").settings("h1").buildsImages())
        .isEqualTo(WorkerSettings.defaultBuildsImages())
        .isEqualTo(!System.getProperty("os.name").startsWith("Mac"));
  }

  @Test
  void refusesNoImageBuildForASimWorker() {
    WorkerCommand cmd = parse("--controller", "127.0.0.1:1", "--hypervisor", "sim", "--no-image-build");

    assertThatThrownBy(cmd::call).isInstanceOf(Problem.class)
        .hasMessage("--no-image-build is for real workers; a sim worker boots no guest image");
  }
}
