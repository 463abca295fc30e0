package dev.abfleet.controller.noise;

import dev.abfleet.stats.noise.MetricNoise;
import dev.abfleet.stats.noise.Moments;
import dev.abfleet.stats.noise.NoiseRecord;
import dev.abfleet.proto.fleet.v1.NoiseMoments;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Noise records to and from their wire form (noise.proto), field by field, for the controller's
 * NoiseService and for its clients.
 */
public final class NoiseProto {
  private NoiseProto() {}

  public static dev.abfleet.proto.fleet.v1.NoiseRecord toProto(NoiseRecord r) {
    var b = dev.abfleet.proto.fleet.v1.NoiseRecord.newBuilder()
        .setHostClass(r.hostClass())
        .setExperiments(r.experiments())
        .setFalsePositives(r.falsePositives())
        .setDate(r.date().toString())
        .addAllGatingMetrics(r.gating());
    for (MetricNoise m : r.metrics()) {
      b.addMetrics(dev.abfleet.proto.fleet.v1.MetricNoise.newBuilder()
          .setMetric(m.metric())
          .setBootMedians(toProto(m.boots()))
          .setPairedLogRatios(toProto(m.diffs()))
          .addAllRecentLogRatios(m.recent()));
    }
    return b.build();
  }

  /**
   * The record a message describes.
   *
   * @throws IllegalArgumentException naming the field: no class, or a date that is not yyyy-mm-dd
   */
  public static NoiseRecord fromProto(dev.abfleet.proto.fleet.v1.NoiseRecord p) {
    if (p.getHostClass().isBlank()) {
      throw new IllegalArgumentException("noise record without host_class; expected a label such as qemu/tcg");
    }
    LocalDate date;
    try {
      date = LocalDate.parse(p.getDate());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("noise record of " + p.getHostClass() + ": date '" + p.getDate()
          + "'; expected yyyy-mm-dd, the day of its latest A/A experiment");
    }
    List<MetricNoise> metrics = p.getMetricsList().stream().map(m -> new MetricNoise(m.getMetric(),
        fromProto(m.getBootMedians()), fromProto(m.getPairedLogRatios()), m.getRecentLogRatiosList())).toList();
    return new NoiseRecord(p.getHostClass(), p.getExperiments(), p.getFalsePositives(), date,
        p.getGatingMetricsList(), metrics);
  }

  private static NoiseMoments toProto(Moments m) {
    return NoiseMoments.newBuilder().setN(m.n()).setMean(m.mean()).setM2(m.m2()).build();
  }

  private static Moments fromProto(NoiseMoments m) {
    return new Moments(m.getN(), m.getMean(), m.getM2());
  }
}
