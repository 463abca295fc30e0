package dev.abfleet.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SvgTest {
  @Test
  void ticksAreRoundStepsInsideTheRange() {
    assertThat(Svg.ticks(31.2, 50.7)).containsExactly(32.0, 34.0, 36.0, 38.0, 40.0, 42.0, 44.0, 46.0,
        48.0, 50.0);
    assertThat(Svg.ticks(-2.3, 0.9)).containsExactly(-2.0, -1.5, -1.0, -0.5, 0.0, 0.5);
    assertThat(Svg.ticks(0.0, 1.0)).hasSize(6).first().isEqualTo(0.0);
    assertThat(Svg.ticks(0.0, 1.0).get(5)).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void ticksWidenTheirStepUntilNoTwoLabelsReadTheSame() {
    // At steps of 50, 31250 and 31300 both print "31.3k" (Numbers.value keeps three digits).
    assertThat(Svg.ticks(31_190, 31_510).stream().map(Numbers::value).distinct().count())
        .isLessThan(Svg.ticks(31_190, 31_510).size());
    assertThat(Svg.ticks(31_190, 31_510, Numbers::value)).containsExactly(31_200.0, 31_300.0, 31_400.0,
        31_500.0);
    assertThat(Svg.nextStep(0.5)).isCloseTo(1.0, within(1e-12));
    assertThat(Svg.nextStep(20)).isCloseTo(50.0, within(1e-9));
    assertThat(Svg.nextStep(100)).isCloseTo(200.0, within(1e-9));
  }

  @Test
  void scalesMapTheRangeOntoThePlotWithYGrowingUpwards() {
    Svg svg = new Svg(0, 10, 0, 100);
    assertThat(svg.x(0)).isLessThan(svg.x(10));
    assertThat(svg.y(100)).isLessThan(svg.y(0));
    assertThat(svg.x(10)).isLessThanOrEqualTo(Svg.WIDTH);
    assertThat(svg.y(0)).isLessThanOrEqualTo(Svg.HEIGHT);
  }

  @Test
  void aSingleValueStillHasAFiniteScale() {
    Svg svg = new Svg(3, 3, 42, 42);
    assertThat(Double.isFinite(svg.x(3))).isTrue();
    assertThat(Double.isFinite(svg.y(42))).isTrue();
  }

  @Test
  void escapesEverythingMarkupOrAnAttributeCouldBreakOn() {
    assertThat(HtmlText.escape("<a href=\"x\" title='y'>&</a>"))
        .isEqualTo("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    assertThat(HtmlText.attr("data-arm", "\"><script>")).isEqualTo("data-arm=\"&quot;&gt;&lt;script&gt;\"");
  }

  @Test
  void theTitleAndDescriptionNameTheChart() {
    Svg svg = new Svg(0, 1, 0, 1);
    String out = svg.render("c1", "t <1>", "d & e", "data-chart=\"boots\"");
    assertThat(out).startsWith("<svg class=\"chart\" data-chart=\"boots\" role=\"img\" aria-labelledby=\"c1-t c1-d\"")
        .contains("<title id=\"c1-t\">t &lt;1&gt;</title><desc id=\"c1-d\">d &amp; e</desc>");
  }
}
