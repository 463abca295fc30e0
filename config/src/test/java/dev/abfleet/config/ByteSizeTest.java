package dev.abfleet.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
  @Test
  void readsPlainBytesAndBinaryUnits() {
    assertThat(ByteSize.parse("1048576")).contains(1048576L);
    assertThat(ByteSize.parse("512MiB")).contains(512L << 20);
    assertThat(ByteSize.parse("20 GiB")).contains(20L << 30);
    assertThat(ByteSize.parse("1TiB")).contains(1L << 40);
  }

  @Test
  void refusesZeroNegativeDecimalUnitsAndOverflow() {
    assertThat(ByteSize.parse("0")).isEmpty();
    assertThat(ByteSize.parse("-5")).isEmpty();
    assertThat(ByteSize.parse("20GB")).isEmpty();
    assertThat(ByteSize.parse("99999999999TiB")).isEmpty();
  }
}
