package dev.abfleet.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.abfleet.bench.fleet.BlockTimes.Block;
import dev.abfleet.bench.fleet.BlockTimes.Boot;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Gaps, quantiles and makespans against values worked out by hand (and numpy's inverted_cdf). */
class BlockTimesTest {
  // h1: blocks [1000,2000], [2050,2600], [2700,3000]; h2: [1000,1800], [1810,2800].
  private static final List<Boot> BOOTS = List.of(
      new Boot("h1", 1, 1000, 1500), new Boot("h1", 1, 1500, 2000),
      new Boot("h2", 1, 1000, 1800),
      new Boot("h2", 2, 1810, 2800),
      new Boot("h1", 2, 2050, 2600),
      new Boot("h1", 3, 2700, 3000),
      new Boot("h1", 4, 0, 0));

  @Test
  void groupsBootsIntoBlocksByHostAndLeaseEpoch() {
    assertThat(BlockTimes.blocks(BOOTS)).containsExactlyInAnyOrder(
        new Block("h1", 1000, 2000), new Block("h1", 2050, 2600), new Block("h1", 2700, 3000),
        new Block("h2", 1000, 1800), new Block("h2", 1810, 2800));
  }

  @Test
  void measuresTheGapFromEachBlocksEndToTheHostsNextStart() {
    assertThat(BlockTimes.gaps(BlockTimes.blocks(BOOTS))).containsExactlyInAnyOrder(50, 100, 10);
  }

  @Test
  void takesNearestRankQuantiles() {
    long[] gaps = {50, 100, 10};
    assertThat(BlockTimes.quantile(gaps, 0.50)).isEqualTo(50);
    assertThat(BlockTimes.quantile(gaps, 0.99)).isEqualTo(100);
    long[] many = LongStream.rangeClosed(1, 200).toArray();
    // numpy.percentile(range(1, 201), [50, 99], method="inverted_cdf") = [100, 198]
    assertThat(BlockTimes.quantile(many, 0.50)).isEqualTo(100);
    assertThat(BlockTimes.quantile(many, 0.99)).isEqualTo(198);
    assertThat(BlockTimes.quantile(new long[0], 0.5)).isNaN();
  }

  @Test
  void comparesTheMakespanWithAListScheduleOfTheSameBlocks() {
    List<Block> blocks = BlockTimes.blocks(BOOTS);
    // Blocks of 1000, 800, 990, 550, 300 ms in start order on 2 hosts: 1000 | 800, 800+990=1790,
    // 1000+550=1550, 1550+300=1850 -> 1850 ms; the fleet took 3000 - 1000 = 2000 ms.
    assertThat(BlockTimes.makespanMs(blocks)).isEqualTo(2000);
    assertThat(BlockTimes.listScheduleMs(blocks, 2)).isEqualTo(1850);
    assertThat(BlockTimes.makespanRatio(blocks, 2)).isCloseTo(2000 / 1850.0, within(1e-12));
    // One host: the blocks back to back.
    assertThat(BlockTimes.listScheduleMs(blocks, 1)).isEqualTo(1000 + 800 + 990 + 550 + 300);
  }

  @Test
  void hasNoRatioWithoutBlocks() {
    assertThat(BlockTimes.makespanRatio(List.of(), 4)).isNaN();
  }
}
