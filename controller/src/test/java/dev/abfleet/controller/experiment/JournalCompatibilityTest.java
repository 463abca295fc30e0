package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.abfleet.controller.plan.BenchmarkSpec;
import dev.abfleet.model.CounterRatio;
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
  void submittedEventWrittenBeforeThreadsAndSizesReadsBackWithTheHarnessDefaults() throws IOException {
    var event = (ExperimentEvent.ExperimentSubmitted) read("experiment-submitted");

    assertThat(event.spec().benchmark().load()).isEqualTo(dev.abfleet.controller.plan.BenchmarkSpec.Load.DEFAULT);
  }

  @Test
  void aBenchmarksThreadsAndSizesSurviveTheJournal() {
    ExperimentEvent.ExperimentSubmitted s = JournalSamples.submitted();
    var b = s.spec().benchmark();
    var load = new dev.abfleet.controller.plan.BenchmarkSpec.Load(8, 64, 4096);
    var spec = new ExperimentSpec(s.spec().name(), s.spec().arms(), new dev.abfleet.controller.plan.BenchmarkSpec(
        b.harness(), b.metrics(), b.iterations(), b.iterationMs(), b.warmupIterations(), b.volume(), b.files(),
        b.cache(), b.workload(), load), s.spec().selector(), s.spec().policy(), s.spec().priority());
    var event = new ExperimentEvent.ExperimentSubmitted(s.experimentId(), spec, s.seed());

    assertThat(roundTrip(event)).isEqualTo(event);
  }

  @Test
  void aRunsPerCpuCountersSurviveTheJournalAndCountersWithoutThemReadBackEmpty() {
    var perCpu = new GuestCounters("metadata_stat", 10, "ops", java.util.Map.of("RES", 12L), 40, 55,
        java.util.Map.of("RES", java.util.List.of(5L, 7L)), java.util.Map.of("SCHED", java.util.List.of(1L, 0L)),
        java.util.List.of(40L, 41L), java.util.List.of(1500.5, 1499.5));
    var plain = new GuestCounters("seq_read", 64, "MiB", java.util.Map.of(), -1, -1);

    for (GuestCounters c : java.util.List.of(perCpu, plain)) {
      var event = new ExperimentEvent.RunRecorded(new RunOutcome("r1", "base", "h1", 0, 0, 1, RunOutcome.Status.OK,
          "tcg", "qemu", 1, 2, 3, "6.1", java.util.List.of(), "", "", "", 0, 0, false)
          .withGuest(new GuestFacts("", "", java.util.List.of(), java.util.List.of(c))), "b1");
      assertThat(roundTrip(event)).isEqualTo(event);
    }
  }

  private static Object roundTrip(Object event) {
    byte[] bytes = serialization.serialize(event).get();
    var serializer = serialization.findSerializerFor(event);
    return serialization.deserialize(bytes, serializer.identifier(),
        org.apache.pekko.serialization.Serializers.manifestFor(serializer, event)).get();
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
