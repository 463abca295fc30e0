package dev.abfleet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FuzzCheckTest {
  private static final Gen<String> TEXT = Gen.tokens(Gen.oneOf(Gen.of("a", "\n", "{"), Gen.strings(5)), 20);

  @Test
  void sameSeedGivesTheSameInputs() throws Throwable {
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    List<String> other = new ArrayList<>();
    Fuzz.check("collect", 42, 200, TEXT, first::add);
    Fuzz.check("collect", 42, 200, TEXT, second::add);
    Fuzz.check("collect", 43, 200, TEXT, other::add);
    assertThat(first).hasSize(200).isEqualTo(second).isNotEqualTo(other);
  }

  @Test
  void passingPropertyRunsEveryTry() {
    int[] runs = {0};
    Fuzz.check("counts", 1, 300, Gen.ints(3, 5), n -> {
      assertThat(n).isBetween(3, 5);
      runs[0]++;
    });
    assertThat(runs[0]).isEqualTo(300);
  }

  @Test
  void throwingPropertyFailsNamingSeedTryAndInput() {
    IOException cause = new IOException("boom");
    List<Integer> seen = new ArrayList<>();
    assertThatThrownBy(() -> Fuzz.check("noSevens", 7, 1000, Gen.ints(0, 9), n -> {
      seen.add(n);
      if (n == 7) {
        throw cause;
      }
    }))
        .isInstanceOf(AssertionError.class)
        .hasCause(cause)
        .hasMessageContaining("noSevens")
        .hasMessageContaining("seed 7")
        .hasMessageContaining("try " + seen.size() + " of 1000")
        .hasMessageContaining("input 7")
        .hasMessageContaining("boom");
    assertThat(seen).last().isEqualTo(7);
    assertThat(seen).hasSizeLessThan(1000);
  }

  @Test
  void failingAssertionFailsTheCheck() {
    assertThatThrownBy(() -> Fuzz.check("short", 3, 500, Gen.strings(50), s -> assertThat(s).hasSizeLessThan(40)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("short failed with seed 3 on try")
        .cause().isInstanceOf(AssertionError.class);
  }

  @Test
  void bytesAreShownEscapedAndLongInputsCut() {
    assertThat(Fuzz.show(new byte[] {'a', 0, '"', (byte) 0xff, '\n'})).isEqualTo("bytes \"a\\x00\\\"\\xff\\x0a\"");
    assertThat(Fuzz.show("x\n\u0000\u00e9\"")).isEqualTo("\"x\\n\\u0000\\u00e9\\\"\"");
    byte[] big = new byte[2000];
    Arrays.fill(big, (byte) 'b');
    String shown = Fuzz.show(big);
    assertThat(shown).endsWith("... (2000 bytes in all)").hasSizeLessThan(600);
    assertThat(Fuzz.show("c".repeat(10_000))).endsWith("... (10000 chars in all)").hasSizeLessThan(600);
    assertThat(Fuzz.show(List.of(1, 2))).isEqualTo("[1, 2]");
  }

  @Test
  void generatorsStayInTheirBounds() {
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 500; i++) {
      assertThat(Gen.bytes(10).next(r)).hasSizeLessThanOrEqualTo(10);
      assertThat(Gen.ints(-2, 2).next(r)).isBetween(-2, 2);
      assertThat(Gen.of("x", "y").list(1, 3).next(r)).hasSizeBetween(1, 3).isSubsetOf("x", "y");
      assertThat(Gen.digits(25).next(r)).hasSizeLessThanOrEqualTo(25).matches("[0-9]*");
      assertThat(Gen.strings().next(r)).hasSizeLessThanOrEqualTo(Gen.DEFAULT_MAX_LENGTH);
      assertThat(Gen.chars("ab").map(c -> c + "!").next(r)).isIn("a!", "b!");
    }
  }
}
