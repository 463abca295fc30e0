package dev.abfleet.worker.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.CommandRunner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModulePackTest {

  private static final String RELEASE = "6.1.0-50-amd64";
  private static final List<String> NINE_P = List.of("virtio_pci", "9pnet_virtio", "9p");
  private static final CommandRunner NO_COMMANDS = (argv, workDir, logName, timeout) -> {
    throw new AssertionError("ran " + argv);
  };

  @TempDir Path dir;

  @Test
  void packsTheSameTreeToTheSameBytesWhateverTheFileTimes() throws Exception {
    ModuleTree tree = tree();
    byte[] first = ModulePack.archive(tree, tree.index(dir, NO_COMMANDS), NINE_P);
    Files.setLastModifiedTime(tree.file("kernel/fs/9p/9p.ko"), FileTime.fromMillis(123_456_789L));

    byte[] second = ModulePack.archive(tree, tree.index(dir, NO_COMMANDS), NINE_P);

    assertThat(second).isEqualTo(first);
  }

  @Test
  void packsOnlyTheWantedModulesTheirDependenciesAndTheirModulesDepLines() throws Exception {
    ModuleTree tree = tree();

    byte[] archive = ModulePack.archive(tree, tree.index(dir, NO_COMMANDS), List.of("9p"));

    assertThat(names(archive)).containsExactly(RELEASE + "/kernel/fs/9p/9p.ko", RELEASE + "/kernel/fs/fscache/fscache.ko",
        RELEASE + "/kernel/fs/netfs/netfs.ko", RELEASE + "/kernel/net/9p/9pnet.ko", RELEASE + "/modules.dep");
    unpackTo(archive);
    assertThat(Files.readString(dir.resolve("out/" + RELEASE + "/modules.dep"))).isEqualTo("""
        kernel/fs/netfs/netfs.ko:
        kernel/fs/fscache/fscache.ko: kernel/fs/netfs/netfs.ko
        kernel/net/9p/9pnet.ko:
        kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko kernel/fs/netfs/netfs.ko
        """);
  }

  @Test
  void guestModulesReadTheUnpackedTreeAsTheOriginal() throws Exception {
    ModuleTree tree = tree();
    Path kernel = tree.dir().resolve("../../../boot/vmlinuz-" + RELEASE).normalize();
    var wanted = ModulePack.wanted(List.of(), NINE_P);
    ModulePack.Packed packed = ModulePack.store(ModulePack.archive(tree, tree.index(dir, NO_COMMANDS), wanted),
        dir.resolve("client"));

    ModuleTree unpacked = ModulePack.unpack(packed.path(), packed.sha256(), dir.resolve("worker"));

    assertThat(unpacked.dir()).isEqualTo(dir.resolve("worker/modules").resolve(packed.sha256()).resolve(RELEASE));
    var modules = new GuestModules(dir.resolve("worker"), NO_COMMANDS);
    var fromPack = (GuestModules.Selection.Ready) modules.select(
        new GuestModules.Request(kernel, unpacked.dir().toString(), NINE_P, "9p", List.of()));
    var fromTree = (GuestModules.Selection.Ready) modules.select(
        new GuestModules.Request(kernel, "", NINE_P, "9p", List.of()));
    assertThat(described(fromPack.modules())).isEqualTo(described(fromTree.modules())).contains("9p.ko=ELF of 9p.ko");
  }

  @Test
  void unpacksAnArchiveOnceAndReusesTheTree() throws Exception {
    ModuleTree tree = tree();
    ModulePack.Packed packed = ModulePack.store(ModulePack.archive(tree, tree.index(dir, NO_COMMANDS), NINE_P),
        dir.resolve("client"));
    ModuleTree first = ModulePack.unpack(packed.path(), packed.sha256(), dir.resolve("worker"));
    Files.delete(packed.path());

    ModuleTree again = ModulePack.unpack(packed.path(), packed.sha256(), dir.resolve("worker"));

    assertThat(again).isEqualTo(first);
  }

  @Test
  void refusesAnEntryThatClimbsOutOfTheTree() throws Exception {
    Path archive = handMade(RELEASE + "/../../escaped.ko");

    assertThatThrownBy(() -> ModulePack.unpack(archive, "a".repeat(64), dir.resolve("worker")))
        .isInstanceOf(IOException.class).hasMessageContaining("'" + RELEASE + "/../../escaped.ko'");
    assertThat(dir.resolve("escaped.ko")).doesNotExist();
    assertThat(dir.resolve("worker/modules").resolve("a".repeat(64))).doesNotExist();
  }

  @Test
  void refusesAnAbsoluteEntry() throws Exception {
    Path archive = handMade("/tmp/absolute.ko");

    assertThatThrownBy(() -> ModulePack.unpack(archive, "b".repeat(64), dir.resolve("worker")))
        .isInstanceOf(IOException.class).hasMessageContaining("'/tmp/absolute.ko'");
  }

  /** The generic kernel's tree (modules.dep excerpt, stand-in module files), with build and source links. */
  private ModuleTree tree() throws IOException {
    Path root = dir.resolve("pkg");
    Files.createDirectories(root.resolve("boot"));
    Files.writeString(root.resolve("boot/vmlinuz-" + RELEASE), "k");
    Path tree = Files.createDirectories(root.resolve("lib/modules").resolve(RELEASE));
    String text;
    try (InputStream in = getClass().getResourceAsStream("/modules/generic-" + RELEASE + ".modules.dep")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Files.writeString(tree.resolve("modules.dep"), text);
    for (ModulesDep.Module m : ModulesDep.parse(text.lines().toList()).modules().values()) {
      Path f = Files.createDirectories(tree.resolve(m.path()).getParent()).resolve(tree.resolve(m.path()).getFileName());
      Files.writeString(f, "ELF of " + f.getFileName());
    }
    Files.createSymbolicLink(tree.resolve("build"), Path.of("/usr/src/linux-headers-" + RELEASE));
    Files.createSymbolicLink(tree.resolve("source"), Path.of("/usr/src/linux-source"));
    return ModuleTree.at(tree);
  }

  private static List<String> described(List<GuestModule> modules) {
    return modules.stream().map(m -> m.fileName() + "=" + new String(m.bytes(), StandardCharsets.UTF_8)).toList();
  }

  private static List<String> names(byte[] archive) throws IOException {
    List<String> names = new ArrayList<>();
    try (TarArchiveInputStream in = new TarArchiveInputStream(new java.io.ByteArrayInputStream(archive))) {
      for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        names.add(e.getName());
      }
    }
    return names;
  }

  private void unpackTo(byte[] archive) throws IOException {
    Path out = dir.resolve("out");
    try (TarArchiveInputStream in = new TarArchiveInputStream(new java.io.ByteArrayInputStream(archive))) {
      for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        Path f = out.resolve(e.getName());
        Files.createDirectories(f.getParent());
        Files.copy(in, f);
      }
    }
  }

  private Path handMade(String entryName) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      byte[] body = "x".getBytes(StandardCharsets.UTF_8);
      TarArchiveEntry ok = new TarArchiveEntry(RELEASE + "/modules.dep");
      ok.setSize(0);
      tar.putArchiveEntry(ok);
      tar.closeArchiveEntry();
      TarArchiveEntry e = new TarArchiveEntry(entryName, true);
      e.setSize(body.length);
      tar.putArchiveEntry(e);
      tar.write(body);
      tar.closeArchiveEntry();
    }
    return Files.write(dir.resolve("hand-made.tar"), bytes.toByteArray());
  }
}
