package dev.abfleet.controller.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentCatalogTest {
  private static final ExperimentCatalog.Cursor A = new ExperimentCatalog.Cursor(100, "e-a");
  private static final ExperimentCatalog.Cursor B = new ExperimentCatalog.Cursor(200, "e-b");
  private static final ExperimentCatalog.Cursor C = new ExperimentCatalog.Cursor(200, "e-c");

  @Test
  void theNextTokenIsThatOfTheLastShownAndEmptyOnTheLastPage() {
    var s1 = summary(B);
    var s2 = summary(C);
    var s3 = summary(A);

    ExperimentCatalog.Page first = ExperimentCatalog.page(List.of(s1, s2, s3), 2);
    ExperimentCatalog.Page last = ExperimentCatalog.page(List.of(s3), 2);

    assertThat(first.experiments()).containsExactly(s1, s2);
    assertThat(first.nextToken()).isEqualTo("200:e-c");
    assertThat(last.nextToken()).isEmpty();
  }

  @Test
  void rejectsATokenItDidNotGive() {
    assertThatThrownBy(() -> ExperimentCatalog.Cursor.parse("e-a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("page_token 'e-a': not a token this controller gave");
  }

  private static ExperimentCatalog.Summary summary(ExperimentCatalog.Cursor c) {
    return new ExperimentCatalog.Summary(c.id(), "", "running", 0, 4, c.createdAtMs(), "pr", "");
  }
}
