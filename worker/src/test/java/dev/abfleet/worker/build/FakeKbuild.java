package dev.abfleet.worker.build;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import dev.abfleet.worker.process.TextTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A kernel build's commands without a kernel: answers gcc/make --version, tar, git and make the
 * way the real tools would for a tiny tree, writing the files the builder reads next (a
 * Makefile on unpack, .config on a config target, the image and System.map on a build). A test
 * can override the answer to any command through {@link #override}.
 */
final class FakeKbuild implements CommandRunner {

  /** What a command prints and returns. */
  record Reply(int exit, String stdout, String stderr) {
    static Reply ok(String stdout) {
      return new Reply(0, stdout, "");
    }
  }

  final List<List<String>> calls = Collections.synchronizedList(new ArrayList<>());
  String gccVersion = "gcc (Debian 12.2.0-14) 12.2.0";
  /** Consulted first; a null answer falls through to the default behaviour. */
  Function<List<String>, Reply> override = argv -> null;

  @Override
  public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
    calls.add(argv);
    Reply reply = override.apply(argv);
    if (reply == null) {
      reply = answer(argv);
    }
    try {
      Files.createDirectories(workDir);
      Path out = Files.writeString(workDir.resolve(logName + ".stdout"), reply.stdout());
      Path err = Files.writeString(workDir.resolve(logName + ".stderr"), reply.stderr());
      return new RunResult(reply.exit(), false, false, Duration.ofMillis(1), out, err,
          TextTail.lastLines(reply.stdout(), 40), TextTail.lastLines(reply.stderr(), 40), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The calls whose argv contains {@code word}. */
  List<List<String>> callsWith(String word) {
    synchronized (calls) {
      return calls.stream().filter(a -> a.contains(word)).toList();
    }
  }

  private Reply answer(List<String> argv) {
    try {
      if (argv.equals(List.of("gcc", "--version")) || argv.equals(List.of("aarch64-linux-gnu-gcc", "--version"))) {
        return Reply.ok(gccVersion + "\nCopyright\n");
      }
      if (argv.equals(List.of("make", "--version"))) {
        return Reply.ok("GNU Make 4.3\n");
      }
      if (argv.get(0).equals("tar")) {
        Path src = Path.of(argv.get(argv.indexOf("-C") + 1));
        Files.writeString(src.resolve("Makefile"), "# a kernel\n");
        return Reply.ok("");
      }
      if (argv.get(0).equals("git")) {
        return argv.contains("rev-parse") ? Reply.ok("0123456789abcdef0123456789abcdef01234567\n") : Reply.ok("");
      }
      if (argv.contains("make")) {
        return make(argv);
      }
      return new Reply(127, "", argv.get(0) + ": unexpected in this fake\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Reply make(List<String> argv) throws IOException {
    Path out = Path.of(argv.stream().filter(a -> a.startsWith("O=")).findFirst().orElseThrow().substring(2));
    String target = argv.get(argv.size() - 1);
    switch (target) {
      case "tinyconfig", "defconfig", "allnoconfig" -> {
        Files.createDirectories(out);
        Files.writeString(out.resolve(".config"), "CONFIG_64BIT=y\n# CONFIG_ACPI is not set\n");
        return Reply.ok("");
      }
      case "olddefconfig" -> {
        return Reply.ok(""); // keeps what was merged
      }
      case "kernelrelease" -> {
        return Reply.ok("6.1.176\n");
      }
      default -> {
        Files.createDirectories(out.resolve("arch/x86/boot"));
        Files.writeString(out.resolve("arch/x86/boot/bzImage"), "image");
        Files.writeString(out.resolve("System.map"), "ffffffff81000000 T _text\n");
        Files.writeString(out.resolve("vmlinux"), "elf");
        return Reply.ok("  CC      fs/stat.o\n  CC      init/main.o\n  LD      vmlinux\n");
      }
    }
  }
}
