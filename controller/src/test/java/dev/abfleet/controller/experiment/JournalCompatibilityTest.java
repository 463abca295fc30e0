package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.report.CounterRatio;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Journal rows and snapshots written before ArtifactRef, BenchmarkSpec, GuestSetup and
 * WorkloadSpec moved to the plan package still read back as the same objects. Jackson writes
 * only the top-level class as the manifest (ExperimentEvent$..., ExperimentState, which stay
 * put); nested values are written by field name, so their package is not in the bytes. The
 * fixtures were written by the controller before the move, with the serializer and bindings of
 * application.conf, and are read here the way the journal reads a row (serializer id, manifest,
 * bytes). The same fixtures predate arms' kernel builds: they read back with no build, and an
 * arm without a build is still written as before.
 */
class JournalCompatibilityTest {
  private static ActorTestKit kit;
  private static Serialization serialization;

  @BeforeAll
  static void start() {
    kit = ActorTestKit.create(ConfigFactory.parseString("pekko.actor.provider = local")
        .withFallback(ConfigFactory.load()));
    serialization = SerializationExtension.get(kit.system().classicSystem());
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void submittedEventWrittenBeforeTheMoveReadsBackWithItsPlanValues() throws IOException {
    Object event = read("experiment-submitted");
    assertThat(event).isEqualTo(JournalSamples.submitted());
    var arm = ((ExperimentEvent.ExperimentSubmitted) event).spec().arms().get(1);
    assertThat(arm.guest().guestImage().uri()).isEqualTo("/cache/guest.cpio");
  }

  @Test
  void submittedEventWrittenBeforeBuildsReadsBackWithNoArmBuilt() throws IOException {
    var event = (ExperimentEvent.ExperimentSubmitted) read("experiment-submitted");

    assertThat(event.spec().arms()).hasSize(2).allSatisfy(arm -> assertThat(arm.build()).isNull());
  }

  @Test
  void anArmsBuildSurvivesTheJournal() {
    ExperimentEvent.ExperimentSubmitted built = JournalSamples.submittedWithBuild();

    byte[] bytes = serialization.serialize(built).get();
    var serializer = serialization.findSerializerFor(built);
    Object back = serialization.deserialize(bytes, serializer.identifier(),
        org.apache.pekko.serialization.Serializers.manifestFor(serializer, built)).get();

    assertThat(back).isEqualTo(built);
    assertThat(((ExperimentEvent.ExperimentSubmitted) back).spec().arms().get(1).build().patches())
        .containsExactly("slow-stat.patch");
  }

  @Test
  void aBenchmarksCounterRatiosSurviveTheJournal() {
    ExperimentEvent.ExperimentSubmitted plain = JournalSamples.submitted();
    ExperimentSpec s = plain.spec();
    BenchmarkSpec b = s.benchmark();
    var ratios = List.of(new CounterRatio("res_per_virtio_req", "RES", "virtio*-request*"));
    var withRatios = new ExperimentEvent.ExperimentSubmitted(plain.experimentId(),
        new ExperimentSpec(s.name(), s.arms(), new BenchmarkSpec(b.harness(), b.metrics(),
            b.iterations(), b.iterationMs(), b.warmupIterations(), b.volume(), b.files(), b.cache(),
            b.workload(), "", ratios), s.selector(), s.policy(), s.priority(), s.owner()),
        plain.seed());

    byte[] bytes = serialization.serialize(withRatios).get();
    var serializer = serialization.findSerializerFor(withRatios);
    Object back = serialization.deserialize(bytes, serializer.identifier(),
        org.apache.pekko.serialization.Serializers.manifestFor(serializer, withRatios)).get();

    assertThat(((ExperimentEvent.ExperimentSubmitted) back).spec().benchmark().ratios())
        .isEqualTo(ratios);
  }

  @Test
  void blockStartedWrittenBeforeTheMoveReadsBack() throws IOException {
    assertThat(read("block-started")).isEqualTo(JournalSamples.started());
  }

  @Test
  void snapshotWrittenBeforeTheMoveReadsBack() throws IOException {
    assertThat(read("experiment-state")).isEqualTo(JournalSamples.snapshot());
  }

  @Test
  void newWritesAreByteForByteTheOldOnes() throws IOException {
    assertThat(serialization.serialize(JournalSamples.submitted()).get())
        .isEqualTo(resource("experiment-submitted.cbor"));
    assertThat(serialization.serialize(JournalSamples.snapshot()).get())
        .isEqualTo(resource("experiment-state.cbor"));
  }

  private static Object read(String name) throws IOException {
    String[] manifest = new String(resource(name + ".manifest"), StandardCharsets.UTF_8).trim().split(" ");
    return serialization.deserialize(resource(name + ".cbor"), Integer.parseInt(manifest[0]), manifest[1]).get();
  }

  private static byte[] resource(String file) throws IOException {
    try (InputStream in = JournalCompatibilityTest.class.getResourceAsStream("/journal-v1/" + file)) {
      assertThat(in).as("test resource journal-v1/%s", file).isNotNull();
      return in.readAllBytes();
    }
  }
}
