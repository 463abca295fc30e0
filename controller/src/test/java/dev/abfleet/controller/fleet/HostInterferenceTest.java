package dev.abfleet.controller.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostInterferenceTest {
  private final HostInterference interference = new HostInterference(HostInterference.Rule.defaults());

  private void boots(String host, String marks) {
    marks.chars().forEach(c -> interference.observed(host, c == 'x'));
  }

  @Test
  void threeInterferedOfTheNewestTenFlagTheHost() {
    boots("h1", "x.x......");
    assertThat(interference.noisy("h1")).isEmpty();

    boots("h1", "x");

    assertThat(interference.window("h1")).isEqualTo(new HostInterference.Window(10, 3));
    assertThat(interference.noisy("h1")).hasValueSatisfying(why ->
        assertThat(why).startsWith("3 of its last 10 boots interfered"));
    assertThat(interference.noisy("h2")).as("another host").isEmpty();
    assertThat(interference.window("h2")).isEqualTo(HostInterference.Window.NONE);
  }

  @Test
  void oldInterferenceSlidesOutOfTheWindow() {
    boots("h1", "xxx");
    assertThat(interference.noisy("h1")).isPresent();

    boots("h1", "........");
    assertThat(interference.window("h1")).as("the first of the three left the window")
        .isEqualTo(new HostInterference.Window(10, 2));
    assertThat(interference.noisy("h1")).isEmpty();

    boots("h1", "..........");
    assertThat(interference.window("h1")).isEqualTo(new HostInterference.Window(10, 0));
  }

  @Test
  void aForgottenHostStartsOver() {
    boots("h1", "xxxx");
    interference.forget("h1");
    assertThat(interference.window("h1")).isEqualTo(HostInterference.Window.NONE);
    assertThat(interference.noisy("h1")).isEmpty();
  }

  @Test
  void rulesOutsideTheWindowAreRefused() {
    assertThatThrownBy(() -> new HostInterference.Rule(10, 11)).hasMessageContaining("1 <= noisyAt <= window <= 63");
    assertThatThrownBy(() -> new HostInterference.Rule(64, 3)).hasMessageContaining("<= 63");
  }
}
