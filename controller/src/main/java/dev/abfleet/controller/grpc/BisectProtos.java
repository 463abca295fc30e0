package dev.abfleet.controller.grpc;

import dev.abfleet.controller.bisect.BisectCatalog;
import dev.abfleet.controller.bisect.BisectRequest;
import dev.abfleet.controller.bisect.BisectState;
import dev.abfleet.controller.bisect.Bisection;
import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.experiment.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Bisect;
import dev.abfleet.proto.fleet.v1.BisectKernel;
import dev.abfleet.proto.fleet.v1.BisectProbe;
import dev.abfleet.proto.fleet.v1.BisectProbeInFlight;
import dev.abfleet.proto.fleet.v1.BisectSummary;
import dev.abfleet.proto.fleet.v1.StartBisectRequest;
import java.util.List;
import java.util.Locale;

/** Bisects between the wire and the domain, both ways. */
final class BisectProtos {
  private BisectProtos() {}

  /** The request as the bisect entity takes it; the template's owner is {@code ownerId}. */
  static BisectRequest request(StartBisectRequest p, String ownerId) {
    List<ArtifactRef> kernels = p.getKernelsList().stream()
        .map(k -> new ArtifactRef(k.getKernel().getSha256(), k.getKernel().getUri(), k.getKernel().getSizeBytes()))
        .toList();
    List<String> labels = p.getKernelsList().stream().map(BisectKernel::getLabel).toList();
    ExperimentSpec template = ProtoToDomain.spec(p.getTemplate()).withOwner(ownerId);
    return new BisectRequest(kernels, labels, p.getMetric(), p.getNoiseThreshold(), p.getAlpha(),
        p.getLooksList(), template, p.getFraction());
  }

  static Bisect bisect(BisectState s) {
    BisectRequest r = s.request();
    Bisection.Result search = s.search();
    Bisect.Builder b = Bisect.newBuilder().setBisectId(s.id()).setState(s.status().wire())
        .setMetric(r.metric()).setNoiseThreshold(r.noiseThreshold()).setAlpha(r.alpha())
        .addAllLooks(r.looks()).setHypervisor(r.template().selector().hypervisor())
        .setLastGood(search.lastGood()).setFirstBad(search.firstBad())
        .setAmbiguousProbe(Math.max(0, search.ambiguous()))
        .setMessage(s.message()).setStartedAtMs(s.startedAtMs())
        .setMaxProbes(Bisection.maxProbes(r.kernels().size()) + 1)
        .setFraction(search.fraction()).setEndpointChange(search.endpointChange())
        .setEndpointCiLow(search.endpointsMeasured() ? search.endpoints().ciLow() : Double.NaN)
        .setEndpointCiHigh(search.endpointsMeasured() ? search.endpoints().ciHigh() : Double.NaN);
    for (int i = 0; i < r.kernels().size(); i++) {
      ArtifactRef k = r.kernels().get(i);
      b.addKernels(BisectKernel.newBuilder()
          .setKernel(Artifact.newBuilder().setSha256(k.sha256()).setUri(k.uri()).setSizeBytes(k.sizeBytes()))
          .setLabel(r.labels().isEmpty() ? "" : r.labels().get(i)));
    }
    for (Bisection.Step step : search.steps()) {
      var p = step.result();
      b.addProbes(BisectProbe.newBuilder().setGood(step.good()).setProbe(step.probe())
          .setOutcome(p.outcome().name().toLowerCase(Locale.ROOT)).setExperimentId(p.experiment())
          .setPairs(p.pairs()).setBoots(p.boots()).setChange(p.change()).setCiLow(p.ciLow())
          .setCiHigh(p.ciHigh()).setNote(p.note()).setRule(p.rule()));
    }
    if (s.inFlight() != null) {
      b.setInFlight(BisectProbeInFlight.newBuilder().setGood(s.inFlight().good())
          .setProbe(s.inFlight().probe()).setExperimentId(s.inFlight().experimentId()));
    }
    return b.build();
  }

  static BisectSummary summary(BisectCatalog.Summary s) {
    return BisectSummary.newBuilder().setBisectId(s.id()).setState(s.state()).setMetric(s.metric())
        .setStartedAtMs(s.startedAtMs()).setProbesDone(s.probesDone()).setMaxProbes(s.maxProbes())
        .setKernels(s.kernels()).build();
  }
}
