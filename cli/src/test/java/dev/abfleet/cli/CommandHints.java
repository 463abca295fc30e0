package dev.abfleet.cli;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Finds the {@code abfleet <command> [--option]} hints in compiled strings and checks each
 * against picocli's command tree. Compiled strings, not sources: they are exactly what a user
 * can see (literals, concatenation recipes, annotation texts such as option descriptions), and
 * comments are not among them.
 */
final class CommandHints {
  /** A mention: "abfleet" on its own (not dev/abfleet, abfleet-minimal) and what follows. */
  private static final Pattern MENTION = Pattern.compile("(?<![\\w/.$-])abfleet ([^`'\"();,\\n]*)");
  private static final Pattern COMMAND_WORD = Pattern.compile("[a-z][a-z0-9/-]*");
  private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*");
  /** A value picocli or a concatenation fills in at run time (javac's recipe placeholders). */
  private static final Pattern PLACEHOLDER = Pattern.compile(".*[\\u0001\\u0002].*|\\$\\{.*");
  /**
   * Words that follow "abfleet" in prose ("the abfleet jar", "of abfleet itself"): never a
   * command. A hint with a typo would have to be exactly one of these to slip through.
   */
  static final Set<String> PROSE = Set.of("itself", "is", "reads", "jar", "release", "boots",
      "base", "accelerator", "sim");

  /** One hint found: the class whose strings hold it, and the hint as written. */
  record Hint(String source, String text) {}

  private CommandHints() {}

  /** Every mention of an abfleet command in {@code text} (from "abfleet" up to the punctuation that ends it). */
  static List<String> mentions(String text) {
    List<String> found = new ArrayList<>();
    Matcher m = MENTION.matcher(text);
    while (m.find()) {
      found.add(("abfleet " + m.group(1)).strip());
    }
    return found;
  }

  /**
   * What is wrong with {@code mention} ("abfleet experiments list --state done"): empty when
   * each command word is a subcommand of the one before and each --option belongs to the
   * command named, or when the mention is prose or filled in at run time.
   */
  static List<String> problems(CommandLine root, String mention) {
    List<String> words = new ArrayList<>(Arrays.asList(mention.split("\\s+")));
    words.remove(0);
    CommandLine at = root;
    int i = 0;
    for (; i < words.size(); i++) {
      String word = trimEnd(words.get(i));
      if (word.startsWith("-") || PLACEHOLDER.matcher(word).matches()) {
        break;
      }
      if (at == root && i == 0 && (PROSE.contains(word) || !COMMAND_WORD.matcher(word).matches())) {
        return List.of(); // "the abfleet jar", "CN=abfleet CA"
      }
      if (word.contains("/") || word.contains("|")) {
        // "abfleet ab/nightly/bisect", "abfleet nightly accept|reject": each alternative is a
        // command of the one named so far.
        List<String> problems = new ArrayList<>();
        for (String alternative : word.split("[/|]")) {
          if (!at.getSubcommands().containsKey(alternative)) {
            problems.add("'" + mention + "': " + at.getCommandSpec().qualifiedName()
                + " has no command '" + alternative + "'");
          }
        }
        return problems;
      }
      CommandLine sub = at.getSubcommands().get(word);
      if (sub != null) {
        at = sub;
        if (!word.equals(words.get(i))) {
          // "abfleet demo: fetching ..." is a program prefix; what follows is prose.
          return List.of();
        }
        continue;
      }
      if (!at.getSubcommands().isEmpty() && at.getCommandSpec().positionalParameters().isEmpty()) {
        return List.of("'" + mention + "': " + at.getCommandSpec().qualifiedName()
            + " has no command '" + word + "' (its commands: " + String.join(", ",
                at.getSubcommands().keySet()) + ")");
      }
      break;
    }
    List<String> problems = new ArrayList<>();
    for (; i < words.size(); i++) {
      Matcher option = OPTION.matcher(words.get(i));
      if (option.lookingAt() && at.getCommandSpec().findOption(option.group()) == null) {
        problems.add("'" + mention + "': " + at.getCommandSpec().qualifiedName()
            + " has no option " + option.group());
      }
    }
    return problems;
  }

  private static String trimEnd(String word) {
    return word.replaceAll("[:.]+$", "");
  }

  /** The hints in the string constants of the classes under {@code packagePath} where {@code anchor} was loaded from. */
  static List<Hint> inClassesOf(Class<?> anchor, String packagePath) throws IOException {
    Path location;
    try {
      location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    List<Hint> hints = new ArrayList<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location.resolve(packagePath))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          try (InputStream in = Files.newInputStream(f)) {
            addHints(location.relativize(f).toString(), in, hints);
          }
        }
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        for (JarEntry e : jar.stream().toList()) {
          if (e.getName().startsWith(packagePath) && e.getName().endsWith(".class")) {
            try (InputStream in = jar.getInputStream(e)) {
              addHints(e.getName(), in, hints);
            }
          }
        }
      }
    }
    return hints;
  }

  private static void addHints(String source, InputStream in, List<Hint> hints) throws IOException {
    for (String s : utf8Constants(in)) {
      for (String mention : mentions(s)) {
        hints.add(new Hint(source, mention));
      }
    }
  }

  /**
   * The CONSTANT_Utf8 entries of a class file's constant pool (JVMS 4.4): every string literal,
   * concatenation recipe and annotation string, besides names and descriptors.
   */
  static List<String> utf8Constants(InputStream classFile) throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    List<String> strings = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> strings.add(in.readUTF());
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++; // long and double take two entries
        }
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
        case 15 -> in.skipNBytes(3);
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    return strings;
  }
}
