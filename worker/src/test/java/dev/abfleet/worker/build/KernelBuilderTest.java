package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.model.BuildSpec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder's flow on a fake toolchain ({@link FakeKbuild}): caching, failures as values, config handling. */
class KernelBuilderTest {

  @TempDir
  Path dir;

  FakeKbuild fake = new FakeKbuild();
  KernelBuilder builder;
  Path tarball;

  @BeforeEach
  void setUp() throws Exception {
    builder = new KernelBuilder(dir.resolve("home"), fake, Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L),
        ZoneOffset.UTC), tool -> true);
    tarball = Files.writeString(dir.resolve("linux-6.1.tar.xz"), "not really xz");
  }

  @Test
  void buildsOnceAndThenReturnsTheCachedEntryWithoutRunningAnything() throws Exception {
    BuildResult.Built first = (BuildResult.Built) builder.build(spec(), BuildListener.NONE);
    int callsAfterFirst = fake.calls.size();

    BuildResult.Built second = (BuildResult.Built) builder.build(spec(), BuildListener.NONE);

    assertThat(first.cached()).isFalse();
    assertThat(Files.readString(first.image())).isEqualTo("image");
    assertThat(first.manifest().release()).isEqualTo("6.1.176");
    assertThat(first.manifest().sourceLabel()).isEqualTo("linux-6.1.tar.xz");
    assertThat(second.cached()).isTrue();
    assertThat(second.key()).isEqualTo(first.key());
    assertThat(second.manifest()).isEqualTo(first.manifest());
    assertThat(fake.calls.subList(callsAfterFirst, fake.calls.size()))
        .allSatisfy(argv -> assertThat(argv.get(argv.size() - 1)).isEqualTo("--version"));
  }

  @Test
  void aPatchThatDoesNotApplyFailsAsPatchNamingThePatchAndKeepsTheLog() throws Exception {
    Path patch = Files.writeString(dir.resolve("0001-stat.patch"), "--- a/fs/stat.c\n");
    fake.override = argv -> argv.contains("apply")
        ? new FakeKbuild.Reply(1, "", "error: patch failed: fs/stat.c:123\nerror: fs/stat.c: patch does not apply\n")
        : null;

    BuildResult.Failed f = (BuildResult.Failed) builder.build(spec().withPatches(List.of(patch)), BuildListener.NONE);

    assertThat(f.kind()).isEqualTo(BuildResult.Kind.PATCH);
    assertThat(f.file()).isEqualTo(patch.toString());
    assertThat(f.firstError()).isEqualTo("0001-stat.patch: error: patch failed: fs/stat.c:123");
    assertThat(f.log()).isEqualTo(dir.resolve("home/failed").resolve(f.key()).resolve("build.log"));
    assertThat(Files.readString(f.log())).contains("patch does not apply");
    assertThat(fake.callsWith("bzImage")).isEmpty();
  }

  @Test
  void aCompileErrorFailsAsCompileWithTheSourceFileAndIsBuiltAgainOnRetry() throws Exception {
    Path home = dir.resolve("home").toAbsolutePath();
    fake.override = argv -> argv.contains("bzImage") ? new FakeKbuild.Reply(2, "  CC      fs/stat.o\n",
        "In file included from x.c:1:\n" + home.resolve("trees").resolve(treeKey()).resolve("src/fs/stat.c")
            + ":2:21: error: expected expression before ';' token\nmake: *** [Makefile:1] Error 2\n") : null;

    BuildResult.Failed f = (BuildResult.Failed) builder.build(spec(), BuildListener.NONE);
    BuildResult retry = builder.build(spec(), BuildListener.NONE);

    assertThat(f.kind()).isEqualTo(BuildResult.Kind.COMPILE);
    assertThat(f.file()).isEqualTo("fs/stat.c");
    assertThat(f.firstError()).isEqualTo("fs/stat.c:2:21: error: expected expression before ';' token");
    assertThat(retry).isInstanceOf(BuildResult.Failed.class);
    assertThat(fake.callsWith("bzImage")).hasSize(2);
  }

  @Test
  void missingToolsFailAsInfraNamingThePackagesToInstall() throws Exception {
    builder = new KernelBuilder(dir.resolve("home"), fake, Clock.systemUTC(),
        tool -> !tool.equals("flex") && !tool.equals("bc"));

    BuildResult.Failed f = (BuildResult.Failed) builder.build(spec(), BuildListener.NONE);

    assertThat(f.kind()).isEqualTo(BuildResult.Kind.INFRA);
    assertThat(f.firstError()).isEqualTo("not found on PATH: flex, bc; fix: apt-get install flex bc");
  }

  @Test
  void anUnreadableInputIsAFailedResultNotAnException() throws Exception {
    Path missing = dir.resolve("nope.patch");

    BuildResult.Failed f = (BuildResult.Failed) builder.build(spec().withPatches(List.of(missing)),
        BuildListener.NONE);

    assertThat(f.kind()).isEqualTo(BuildResult.Kind.PATCH);
    assertThat(f.key()).isNull();
    assertThat(f.file()).isEqualTo(missing.toString());
    assertThat(f.firstError()).contains(missing.toString());
  }

  @Test
  void reportsRequestedOptionsTheFinalConfigDropped() throws Exception {
    BuildSpec spec = new BuildSpec(new BuildSource.Tarball(tarball), List.of(), "tinyconfig", List.of(),
        List.of("CONFIG_FOO=y", "CONFIG_64BIT=y"), null, List.of());
    fake.override = argv -> {
      if (argv.contains("olddefconfig")) { // kconfig drops CONFIG_FOO: an unmet dependency
        Path cfg = Path.of(argv.stream().filter(a -> a.startsWith("O=")).findFirst().orElseThrow().substring(2));
        try {
          Files.writeString(cfg.resolve(".config"), "CONFIG_64BIT=y\n");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        return FakeKbuild.Reply.ok("");
      }
      return null;
    };

    BuildResult.Built b = (BuildResult.Built) builder.build(spec, BuildListener.NONE);
    BuildResult.Built cached = (BuildResult.Built) builder.build(spec, BuildListener.NONE);

    assertThat(b.droppedOptions()).containsExactly("CONFIG_FOO=y requested, final: not set");
    assertThat(cached.droppedOptions()).isEqualTo(b.droppedOptions());
  }

  @Test
  void aPatchedRebuildLeavesAnUnchangedConfigUntouched() throws Exception {
    BuildResult.Built base = (BuildResult.Built) builder.build(spec(), BuildListener.NONE);
    Path outConfig = dir.resolve("home/trees").resolve(treeKey()).resolve("out/.config");
    FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
    Files.setLastModifiedTime(outConfig, old);
    Path patch = Files.writeString(dir.resolve("p.patch"), "--- a/x\n");

    BuildResult.Built patched = (BuildResult.Built) builder.build(spec().withPatches(List.of(patch)),
        BuildListener.NONE);

    assertThat(patched.key()).isNotEqualTo(base.key());
    assertThat(Files.getLastModifiedTime(outConfig)).isEqualTo(old);
  }

  @Test
  void reportsCompiledObjectsAndExpectsTheLastFullBuildsCountOfTheConfiguration() throws Exception {
    builder.build(spec(), BuildListener.NONE);
    Path otherVersion = Files.writeString(dir.resolve("linux-6.2.tar.xz"), "another source");
    List<String> progress = new ArrayList<>();
    BuildListener listener = new BuildListener() {
      @Override
      public void phase(String phase) {
        progress.add(phase);
      }

      @Override
      public void compiled(int objects, int expected) {
        progress.add(objects + "/" + expected);
      }
    };

    builder.build(BuildSpec.of(new BuildSource.Tarball(otherVersion)), listener);

    assertThat(progress).containsExactly("unpack", "import", "config", "compile", "2/2", "store");
  }

  @Test
  void aWarmTreeThatCannotBeResetIsPreparedAgainFromTheSource() throws Exception {
    builder.build(spec(), BuildListener.NONE);
    Path patch = Files.writeString(dir.resolve("p.patch"), "--- a/x\n");
    fake.override = argv -> argv.contains("reset") ? new FakeKbuild.Reply(128, "", "fatal: not a git repository\n")
        : null;
    int untarsBefore = fake.callsWith("--strip-components=1").size();

    BuildResult r = builder.build(spec().withPatches(List.of(patch)), BuildListener.NONE);

    assertThat(r).isInstanceOf(BuildResult.Built.class);
    assertThat(fake.callsWith("--strip-components=1")).hasSize(untarsBefore + 1);
  }

  @Test
  void twoConcurrentBuildsOfOneSpecBuildOnceAndTheSecondGetsTheCachedEntry() throws Exception {
    List<BuildResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
    Runnable build = () -> {
      try {
        results.add(builder.build(spec(), BuildListener.NONE));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Thread a = new Thread(build);
    Thread b = new Thread(build);
    a.start();
    b.start();
    a.join();
    b.join();

    assertThat(results).hasSize(2).allMatch(r -> r instanceof BuildResult.Built);
    assertThat(results).extracting(r -> ((BuildResult.Built) r).cached()).containsExactlyInAnyOrder(false, true);
    assertThat(fake.callsWith("bzImage")).hasSize(1);
  }

  private BuildSpec spec() {
    return BuildSpec.of(new BuildSource.Tarball(tarball));
  }

  private String treeKey() {
    return new InputResolver(fake).resolve(spec(), dir).inputs().treeKey();
  }
}
