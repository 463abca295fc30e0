package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.model.CounterRatio;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RatioConfigTest {
  private static final String FLEET_YAML = """
      benchmarks:
        fuse:
          metrics: [metadata_stat]
          volume: host
          ratios:
            - {name: res_per_virtio_req, num: RES, den: "virtio*-request*"}
            - name: ctxt_per_req
              num: ctxt
              den: virtio2-requests.0
        plain:
          metrics: [metadata_stat]
      """;

  private static final CounterRatio RES_PER_REQ =
      new CounterRatio("res_per_virtio_req", "RES", "virtio*-request*");

  private static FleetConfig fleet() {
    return FleetConfigLoader.parse("f.yaml", FLEET_YAML);
  }

  private static String spec(String ratios) {
    return "benchmark: fuse\n" + ratios + "arms:\n"
        + "  - {name: stock, role: baseline, kernel: /boot/vmlinuz}\n"
        + "  - {name: spin, role: candidate, kernel: /boot/vmlinuz-spin}\n";
  }

  @Test
  void readsABenchmarksRatiosInFileOrder() {
    assertThat(fleet().benchmark("fuse").ratios()).containsExactly(RES_PER_REQ,
        new CounterRatio("ctxt_per_req", "ctxt", "virtio2-requests.0"));
    assertThat(fleet().benchmark("plain").ratios()).isEmpty();
  }

  @Test
  void theBenchmarksRatiosGoIntoTheSubmittedBenchmark() {
    var proto = fleet().benchmark("fuse").toProto(List.of("metadata_stat"), 5).build();

    assertThat(proto.getRatiosList()).extracting(r -> r.getName() + "=" + r.getNum() + "/" + r.getDen())
        .containsExactly("res_per_virtio_req=RES/virtio*-request*",
            "ctxt_per_req=ctxt/virtio2-requests.0");
  }

  @Test
  void aSpecFilesRatiosReplaceTheBenchmarks() {
    SpecFile s = SpecFileLoader.parse("spec.yaml",
        spec("ratios: [{name: cal_per_req, num: CAL, den: \"virtio*-request*\"}]\n"), Path.of("/s"),
        fleet());

    assertThat(s.applyTo(fleet(), "fuse").benchmark("fuse").ratios())
        .containsExactly(new CounterRatio("cal_per_req", "CAL", "virtio*-request*"));
  }

  @Test
  void aSpecFileWithoutRatiosKeepsTheBenchmarks() {
    SpecFile s = SpecFileLoader.parse("spec.yaml", spec(""), Path.of("/s"), fleet());

    assertThat(s.ratios()).isNull();
    assertThat(s.applyTo(fleet(), "fuse").benchmark("fuse").ratios()).hasSize(2);
  }

  @Test
  void rejectsABadNameWithItsLine() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  b:\n    ratios:\n      - {name: 2res, num: RES, den: LOC}\n"))
        .hasMessage("f.yaml:4: benchmarks.b.ratios[0].name: ratio name '2res' must start with a"
            + " letter and use only letters, digits and '_' (at most 64), e.g. res_per_virtio_req");
  }

  @Test
  void rejectsAMissingOrEmptyDenominator() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  b:\n    ratios:\n      - {name: r, num: RES}\n"))
        .hasMessageStartingWith("f.yaml:4: benchmarks.b.ratios[0] has no den; a ratio needs name,"
            + " num and den");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  b:\n    ratios:\n      - {name: r, num: RES, den: \"\"}\n"))
        .hasMessageStartingWith("f.yaml:4: benchmarks.b.ratios[0].den: den is empty;");
  }

  @Test
  void rejectsAWildcardOtherThanStar() {
    assertThatThrownBy(() -> SpecFileLoader.parse("spec.yaml",
        spec("ratios: [{name: r, num: \"virtio[12]-requests\", den: LOC}]\n"), Path.of("/s"), fleet()))
        .hasMessageStartingWith("spec.yaml:2: ratios[0].num: num 'virtio[12]-requests' is not a row"
            + " name or glob;")
        .hasMessageContaining("'*' as the only wildcard");
  }

  @Test
  void rejectsTwoRatiosOfOneName() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", """
        benchmarks:
          b:
            ratios:
              - {name: r, num: RES, den: LOC}
              - {name: r, num: CAL, den: LOC}
        """))
        .hasMessage("f.yaml:5: benchmarks.b.ratios[1].name: two ratios are named 'r'; give each"
            + " ratio its own name");
  }

  @Test
  void rejectsAnUnknownKeyInARatio() {
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml",
        "benchmarks:\n  b:\n    ratios:\n      - {name: r, num: RES, denominator: LOC}\n"))
        .hasMessageContaining("unknown key 'denominator'")
        .hasMessageContaining("expected one of den, name, num");
  }
}
