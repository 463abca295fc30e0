package dev.abfleet.cli.k8s;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stages of k8s/Dockerfile as far as the image's files and start-up go: FROM (with AS),
 * COPY from the build context, ENTRYPOINT and CMD in exec form, USER, ENV. RUN lines are package
 * installs and are not reproduced. Build context: the repository root.
 */
final class DockerfileStages {
  static final Path FILE = Path.of("..", "k8s", "Dockerfile");
  static final Path CONTEXT = Path.of("..");

  /**
   * One stage, with what it inherits from its parent stage already applied.
   *
   * @param copies build-context source to absolute image path, in file order
   */
  record Stage(String name, String from, List<Copy> copies, List<String> entrypoint, List<String> cmd, String user,
      Map<String, String> env) {}

  record Copy(String source, String destination, int line) {}

  private DockerfileStages() {}

  static List<Stage> parse(Path dockerfile) throws IOException {
    return parse(Files.readAllLines(dockerfile));
  }

  static List<Stage> parse(List<String> lines) {
    List<Stage> stages = new ArrayList<>();
    Stage current = null;
    for (Instruction in : instructions(lines)) {
      String[] words = in.text().split("\\s+");
      String op = words[0].toUpperCase();
      if (op.equals("FROM")) {
        if (current != null) {
          stages.add(current);
        }
        String base = words[1];
        String name = words.length >= 4 && words[2].equalsIgnoreCase("AS") ? words[3] : "stage" + stages.size();
        Stage parent = stages.stream().filter(s -> s.name().equals(base)).findFirst().orElse(null);
        current = parent == null
            ? new Stage(name, base, List.of(), List.of(), List.of(), "root", Map.of())
            : new Stage(name, base, parent.copies(), parent.entrypoint(), parent.cmd(), parent.user(), parent.env());
        continue;
      }
      if (current == null) {
        throw new IllegalArgumentException("Dockerfile:" + in.line() + ": " + op + " before FROM");
      }
      String rest = in.text().substring(words[0].length()).trim();
      switch (op) {
        case "COPY" -> {
          if (rest.startsWith("--")) {
            throw new IllegalArgumentException("Dockerfile:" + in.line() + ": COPY flags are not modelled: " + rest);
          }
          String[] paths = rest.split("\\s+");
          if (paths.length != 2 || !paths[1].startsWith("/")) {
            throw new IllegalArgumentException("Dockerfile:" + in.line() + ": expected COPY <file> </absolute/path>");
          }
          List<Copy> copies = new ArrayList<>(current.copies());
          copies.add(new Copy(paths[0], paths[1], in.line()));
          current = new Stage(current.name(), current.from(), List.copyOf(copies), current.entrypoint(),
              current.cmd(), current.user(), current.env());
        }
        case "ENTRYPOINT" -> current = new Stage(current.name(), current.from(), current.copies(),
            execForm(rest, in.line()), List.of(), current.user(), current.env());
        case "CMD" -> current = new Stage(current.name(), current.from(), current.copies(), current.entrypoint(),
            execForm(rest, in.line()), current.user(), current.env());
        case "USER" -> current = new Stage(current.name(), current.from(), current.copies(), current.entrypoint(),
            current.cmd(), rest, current.env());
        case "ENV" -> {
          String[] kv = rest.split("=", 2);
          Map<String, String> env = new LinkedHashMap<>(current.env());
          env.put(kv[0], kv[1]);
          current = new Stage(current.name(), current.from(), current.copies(), current.entrypoint(),
              current.cmd(), current.user(), Map.copyOf(env));
        }
        case "RUN", "EXPOSE", "LABEL", "WORKDIR", "ARG" -> { }
        default -> throw new IllegalArgumentException("Dockerfile:" + in.line() + ": " + op + " is not modelled");
      }
    }
    if (current != null) {
      stages.add(current);
    }
    return stages;
  }

  static Stage stage(List<Stage> stages, String name) {
    return stages.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no stage " + name + " in " + stages));
  }

  /**
   * Lays out the files {@code stage} copies from the build context under {@code root}, as the
   * image's filesystem would hold them.
   */
  static void layout(Stage stage, Path context, Path root) throws IOException {
    for (Copy c : stage.copies()) {
      Path source = context.resolve(c.source());
      if (!Files.isRegularFile(source)) {
        throw new IOException("Dockerfile:" + c.line() + ": COPY source " + source + " is missing"
            + " (the jar exists after mvn package)");
      }
      Path target = root.resolve(c.destination().substring(1));
      Files.createDirectories(target.getParent());
      Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private record Instruction(String text, int line) {}

  /** Instructions with continuation lines joined; comments and blank lines dropped. */
  private static List<Instruction> instructions(List<String> lines) {
    List<Instruction> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int start = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (text.length() == 0 && (line.isEmpty() || line.startsWith("#"))) {
        continue;
      }
      if (text.length() == 0) {
        start = i + 1;
      }
      boolean continued = line.endsWith("\\");
      text.append(continued ? line.substring(0, line.length() - 1) : line).append(' ');
      if (!continued) {
        out.add(new Instruction(text.toString().strip(), start));
        text.setLength(0);
      }
    }
    return out;
  }

  private static List<String> execForm(String json, int line) {
    try {
      return List.of(new ObjectMapper().readValue(json, String[].class));
    } catch (IOException e) {
      throw new IllegalArgumentException("Dockerfile:" + line + ": expected the exec form [\"a\", \"b\"]: " + json, e);
    }
  }
}
