package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * fleet.yaml policy.host_quiet: unset leaves the controller's default (on), off turns it off,
 * defaults, values, and errors that name the key and the fix.
 */
class FleetConfigHostQuietTest {
  static FleetConfig.HostQuiet parse(String hostQuiet) {
    return FleetConfigLoader.parse("f.yaml", "policy:\n  host_quiet:\n" + hostQuiet).policy().hostQuiet();
  }

  @Test
  void offOrFalseIsNoPolicyAndIsSentAsOff() {
    assertThat(FleetConfigLoader.parse("f.yaml", "policy:\n  host_quiet: off\n").policy().hostQuiet())
        .isEqualTo(FleetConfig.HostQuiet.OFF);
    assertThat(FleetConfigLoader.parse("f.yaml", "policy:\n  host_quiet: false\n").policy().hostQuiet())
        .isEqualTo(FleetConfig.HostQuiet.OFF);
    assertThat(FleetConfig.HostQuiet.OFF.toProto().getOnInterference()).isEqualTo("off");
    assertThatThrownBy(() -> FleetConfigLoader.parse("f.yaml", "policy:\n  host_quiet: on\n"))
        .hasMessageContaining("policy.host_quiet is 'on'").hasMessageContaining("expected off");
  }

  @Test
  void unsetIsTheControllersDefaultAndAnEmptyMappingTakesTheDefaults() {
    assertThat(FleetConfigLoader.parse("f.yaml", "").policy().hostQuiet()).isNull();
    assertThat(FleetConfigLoader.parse("f.yaml", "policy: {alpha: 0.05}\n").policy().hostQuiet()).isNull();

    FleetConfig.HostQuiet q = FleetConfigLoader.parse("f.yaml", "policy:\n  host_quiet: {}\n").policy().hostQuiet();

    assertThat(q).isEqualTo(new FleetConfig.HostQuiet(10, 60, "rerun", 2));
  }

  @Test
  void readsEveryKeyAndDefaultsTheRest() {
    assertThat(parse("    cpu_some_pct: 5\n    max_wait_s: 120\n    on_interference: keep\n    max_reruns_per_pair: 3\n"))
        .isEqualTo(new FleetConfig.HostQuiet(5, 120, "keep", 3));
    assertThat(parse("    on_interference: keep\n")).isEqualTo(new FleetConfig.HostQuiet(10, 60, "keep", 2));
  }

  @Test
  void isSentWithEveryExperiment() {
    var proto = parse("    cpu_some_pct: 5\n").toProto();

    assertThat(proto.getCpuSomePct()).isEqualTo(5);
    assertThat(proto.getMaxWaitS()).isEqualTo(60);
    assertThat(proto.getOnInterference()).isEqualTo("rerun");
    assertThat(proto.getMaxRerunsPerPair()).isEqualTo(2);
  }

  @Test
  void unknownOnInterferenceNamesTheChoices() {
    assertThatThrownBy(() -> parse("    on_interference: retry\n"))
        .hasMessageContaining("on_interference").hasMessageContaining("rerun, keep");
  }

  @Test
  void outOfRangeValuesNameTheKeyAndTheRange() {
    assertThatThrownBy(() -> parse("    cpu_some_pct: 0\n"))
        .hasMessageContaining("cpu_some_pct").hasMessageContaining("between 0");
    assertThatThrownBy(() -> parse("    max_wait_s: 0\n"))
        .hasMessageContaining("max_wait_s").hasMessageContaining("from 1 to 3600");
    assertThatThrownBy(() -> parse("    max_reruns_per_pair: 50\n"))
        .hasMessageContaining("max_reruns_per_pair").hasMessageContaining("from 1 to 20");
  }

  @Test
  void unknownKeyIsRejected() {
    assertThatThrownBy(() -> parse("    cpu_pct: 5\n")).hasMessageContaining("unknown key 'cpu_pct'");
  }
}
