package dev.abfleet.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionEndEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads the small YAML files users write (fleet.yaml, spec files): at most {@link #MAX_BYTES}, UTF-8
 * checked with the line of the first bad byte, nesting at most {@link #MAX_DEPTH} deep (checked
 * on the parser's events, before the recursive composer sees it), composed into
 * {@link YamlNode}s that remember their lines. Every problem is a {@link Problem} starting
 * {@code file:line:}.
 */
final class YamlDocuments {
  /** These files are a few KiB; a larger one is the wrong file (or a device such as /dev/zero). */
  static final int MAX_BYTES = 1 << 20;
  /** Deepest nesting of mappings and sequences read; the composer recurses. */
  static final int MAX_DEPTH = 32;

  private YamlDocuments() {}

  /**
   * The text of {@code file}.
   *
   * @param what what the file should be, for messages, e.g. "spec file"
   * @param option the option that names the file, e.g. "--spec"
   */
  static String read(Path file, String what, String option) {
    if (Files.isDirectory(file)) {
      throw new Problem(file + ": is a directory, not a " + what + "; pass the " + what + " itself with " + option);
    }
    dev.abfleet.model.RegularFiles.special(file, what).ifPresent(p -> {
      throw new Problem(p + " with " + option);
    });
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw new Problem(file + ": no such file; pass an existing " + what + " with " + option);
    } catch (IOException e) {
      throw new Problem(file + ": cannot read (" + reason(file, e) + "); check the path and its permissions");
    }
    if (bytes.length > MAX_BYTES) {
      throw new Problem(file + ": larger than " + (MAX_BYTES >> 20) + " MiB, so not a " + what + "; pass a "
          + what + " with " + option);
    }
    return utf8(file.toString(), bytes);
  }

  /** The I/O error without the path, which the message names already. */
  private static String reason(Path file, IOException e) {
    String m = String.valueOf(e.getMessage());
    return m.startsWith(file + ": ") ? m.substring(file.toString().length() + 2) : m;
  }

  private static String utf8(String label, byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = StandardCharsets.UTF_8.newDecoder().decode(in, out, true);
    if (r.isError()) {
      long line = 1;
      for (int i = 0; i < in.position(); i++) {
        line += bytes[i] == '\n' ? 1 : 0;
      }
      throw new Problem(label + ":" + line + ": not UTF-8 text; save the file as UTF-8");
    }
    return out.flip().toString();
  }

  /**
   * The document's root node; empty for an empty document.
   *
   * @param depthNeeded how deep the file really needs to go, for the message, e.g. "fleet.yaml
   *     needs at most 4"
   */
  static Optional<YamlNode> compose(String label, String text, String depthNeeded) {
    // Non-scalar keys are composed so that YamlNode can name their line; they are rejected there.
    LoadSettings settings = LoadSettings.builder().setLabel(label).setAllowNonScalarKeys(true).build();
    try (Reader r = new StringReader(text)) {
      checkDepth(label, settings, text, depthNeeded);
      return new Compose(settings).composeReader(r).map(n -> new YamlNode(label, n, ""));
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(0);
      String fix = e.getProblem().contains("TAB") ? "indent with spaces, not tabs" : "fix the syntax";
      throw new Problem(label + ":" + line + ": not valid YAML: " + oneLine(e.getProblem()) + "; " + fix);
    } catch (YamlEngineException | IOException e) {
      throw new Problem(label + ": not valid YAML: " + oneLine(e.getMessage()) + "; fix the syntax");
    }
  }

  /** The parser's words on one line: it quotes the offending character, which may be a line break. */
  private static String oneLine(String message) {
    return String.valueOf(message).replace("\n", "\\n").replace("\r", "\\r").replaceAll("\\p{Cntrl}", "?");
  }

  /**
   * Walks the parser's events (no recursion) so that deep nesting never reaches the composer.
   * Anchors and aliases are refused here too: these files never need them, and aliases of
   * aliases expand exponentially ("billion laughs").
   */
  private static void checkDepth(String label, LoadSettings settings, String text, String depthNeeded) {
    int depth = 0;
    for (Event e : new Parse(settings).parseString(text)) {
      if (e instanceof AliasEvent || (e instanceof NodeEvent n && n.getAnchor().isPresent())) {
        int line = e.getStartMark().map(m -> m.getLine() + 1).orElse(0);
        throw new Problem(label + ":" + line + ": anchors and aliases (&name, *name) are not supported;"
            + " write the values out");
      }
      if (e instanceof CollectionStartEvent) {
        if (++depth > MAX_DEPTH) {
          int line = e.getStartMark().map(m -> m.getLine() + 1).orElse(0);
          throw new Problem(label + ":" + line + ": nested more than " + MAX_DEPTH + " levels deep; "
              + depthNeeded + ", check the indentation");
        }
      } else if (e instanceof CollectionEndEvent) {
        depth--;
      }
    }
  }
}
