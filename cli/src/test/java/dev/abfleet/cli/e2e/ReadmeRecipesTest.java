package dev.abfleet.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.cli.e2e.ReadmeRecipes.Line;
import dev.abfleet.cli.e2e.ReadmeRecipes.Recipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link ReadmeRecipes} reads the README's recipes (the e2e test then runs them). */
class ReadmeRecipesTest {

  @Test
  void readsTheShellLinesOfEachRecipeSkippingCommentsAndOtherSections() {
    String readme = String.join("\n",
        "## Set up", "```sh", "bin/setup", "```",
        "## Recipes", "intro", "### One", "text", "```", "not a shell block", "```",
        "```sh", "# a comment", "", "K=~/k", "bin/abfleet ab --gate   # judged", "```",
        "### Two", "```sh", "bin/abfleet controller --plaintext &      # gRPC on :7070",
        "bin/abfleet experiments logs ID && echo done", "```",
        "## Documentation", "```sh", "bin/other", "```");

    List<Recipe> recipes = ReadmeRecipes.parse(readme);

    assertThat(recipes).extracting(Recipe::title).containsExactly("One", "Two");
    assertThat(recipes.get(0).lines()).extracting(Line::written)
        .containsExactly("K=~/k", "bin/abfleet ab --gate   # judged");
    Line assignment = recipes.get(0).lines().get(0);
    Line gate = recipes.get(0).lines().get(1);
    assertThat(assignment.assignment()).isTrue();
    assertThat(gate.assignment()).isFalse();
    assertThat(gate.command()).isEqualTo("bin/abfleet ab --gate");
    Line server = recipes.get(1).lines().get(0);
    Line chained = recipes.get(1).lines().get(1);
    assertThat(server.background()).isTrue();
    assertThat(server.foreground()).isEqualTo("bin/abfleet controller --plaintext");
    assertThat(chained.background()).isFalse();
  }

  @Test
  void findsTheThreeRecipesOfTheRealReadme() throws Exception {
    List<Recipe> recipes = ReadmeRecipes.parse(Files.readString(Path.of("..", "README.md")));

    assertThat(recipes).extracting(Recipe::title).containsExactly("A/B your own two kernels",
        "A patch on a source tree", "A controller with workers and the dashboard");
    assertThat(recipes.get(2).lines()).filteredOn(Line::background).hasSize(2);
  }
}
