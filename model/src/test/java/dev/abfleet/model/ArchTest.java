package dev.abfleet.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ArchTest {
  @Test
  void everySpellingOfAKnownArchitectureBecomesItsWireName() {
    for (String s : new String[] {"x86_64", "amd64", "x64", "AMD64", " x86_64 "}) {
      assertThat(Arch.normalize(s)).as(s).isEqualTo("x86_64");
    }
    for (String s : new String[] {"aarch64", "arm64", "ARM64"}) {
      assertThat(Arch.normalize(s)).as(s).isEqualTo("aarch64");
    }
  }

  @Test
  void anUnknownArchitectureComesBackLowerCasedAndIsNotKnown() {
    assertThat(Arch.normalize("RISCV64")).isEqualTo("riscv64");
    assertThat(Arch.of("riscv64")).isEmpty();
    assertThat(Arch.normalize(null)).isEmpty();
  }

  @Test
  void namesAreTheWireNamesInOrder() {
    assertThat(Arch.NAMES).containsExactly("x86_64", "aarch64");
  }
}
