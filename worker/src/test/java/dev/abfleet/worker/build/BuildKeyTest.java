package dev.abfleet.worker.build;

import dev.abfleet.model.BuildSource;

import dev.abfleet.model.BuildSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build key over every input and the toolchain; the tree key over all but the patches. */
class BuildKeyTest {

  @TempDir
  Path dir;

  FakeKbuild fake = new FakeKbuild();
  Path tarball;
  Path patchA;
  Path patchB;
  Path fragment;

  @BeforeEach
  void setUp() throws Exception {
    tarball = Files.writeString(dir.resolve("linux.tar.xz"), "source v1");
    patchA = Files.writeString(dir.resolve("a.patch"), "patch a");
    patchB = Files.writeString(dir.resolve("b.patch"), "patch b");
    fragment = Files.writeString(dir.resolve("extra.config"), "CONFIG_FOO=y\n");
  }

  private BuildSpec spec() {
    return new BuildSpec(new BuildSource.Tarball(tarball), List.of(patchA, patchB), "tinyconfig", List.of(fragment),
        List.of("CONFIG_BAR=y"), "x86_64", List.of("KCFLAGS=-O2"));
  }

  private BuildKey keyOf(BuildSpec spec) {
    return new InputResolver(fake).resolve(spec, dir.resolve("probe")).inputs();
  }

  @Test
  void sameInputsGiveTheSameKey() {
    assertThat(keyOf(spec()).key()).isEqualTo(keyOf(spec()).key()).matches("[0-9a-f]{64}");
  }

  @Test
  void everyInputChangesTheKey() throws Exception {
    String base = keyOf(spec()).key();
    Path other = Files.writeString(dir.resolve("other.config"), "CONFIG_FOO=m\n");
    Path dotConfig = Files.writeString(dir.resolve("my.config"), "CONFIG_64BIT=y\n");
    List<UnaryOperator<BuildSpec>> changes = List.of(
        s -> s.withPatches(List.of(patchA)),
        s -> s.withPatches(List.of(patchB, patchA)),
        s -> new BuildSpec(s.source(), s.patches(), "defconfig", s.configFragments(), s.configLines(), s.arch(),
            s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), dotConfig.toString(), s.configFragments(), s.configLines(),
            s.arch(), s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), null, s.configFragments(), s.configLines(), s.arch(),
            s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), s.configBase(), List.of(other), s.configLines(), s.arch(),
            s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), s.configBase(), s.configFragments(), List.of("CONFIG_BAR=m"),
            s.arch(), s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), s.configBase(), s.configFragments(), s.configLines(), "aarch64",
            s.makeArgs()),
        s -> new BuildSpec(s.source(), s.patches(), s.configBase(), s.configFragments(), s.configLines(), s.arch(),
            List.of("KCFLAGS=-O3")));

    assertThat(changes).allSatisfy(change -> assertThat(keyOf(change.apply(spec())).key()).isNotEqualTo(base));
  }

  @Test
  void changedFileContentsChangeTheKey() throws Exception {
    String base = keyOf(spec()).key();

    Files.writeString(patchB, "patch b, revised");
    String revisedPatch = keyOf(spec()).key();
    Files.writeString(fragment, "CONFIG_FOO=n\n");
    String revisedFragment = keyOf(spec()).key();
    Files.writeString(tarball, "source v2");
    String revisedSource = keyOf(spec()).key();

    assertThat(List.of(base, revisedPatch, revisedFragment, revisedSource)).doesNotHaveDuplicates();
  }

  @Test
  void anotherCompilerVersionChangesTheKey() {
    String base = keyOf(spec()).key();

    fake.gccVersion = "gcc (Debian 12.2.0-15) 12.2.0";

    assertThat(keyOf(spec()).key()).isNotEqualTo(base);
  }

  @Test
  void theTreeKeyIgnoresPatchesButNotTheConfig() {
    BuildKey patched = keyOf(spec());
    BuildKey unpatched = keyOf(spec().withPatches(List.of()));
    BuildKey otherConfig = keyOf(new BuildSpec(spec().source(), List.of(), "defconfig", List.of(), List.of(),
        null, List.of("KCFLAGS=-O2")));

    assertThat(patched.treeKey()).isEqualTo(unpatched.treeKey());
    assertThat(patched.key()).isNotEqualTo(unpatched.key());
    assertThat(otherConfig.treeKey()).isNotEqualTo(unpatched.treeKey());
  }

  @Test
  void aGitSourceIsKeyedByTheCommitItsRefNames() throws Exception {
    Path repo = Files.createDirectories(dir.resolve("repo"));
    git(repo, "init", "-q");
    Files.writeString(repo.resolve("Makefile"), "v1\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "one");
    git(repo, "tag", "v1");
    InputResolver real = new InputResolver(new ProcessRunner());
    BuildSpec byTag = BuildSpec.of(new BuildSource.Git(repo, "v1"));
    BuildSpec byBranch = BuildSpec.of(new BuildSource.Git(repo, "HEAD"));

    InputResolver.Resolved tagged = real.resolve(byTag, dir.resolve("probe"));
    String sameCommit = real.resolve(byBranch, dir.resolve("probe")).key();
    Files.writeString(repo.resolve("Makefile"), "v2\n");
    git(repo, "commit", "-q", "-am", "two");
    InputResolver.Resolved next = real.resolve(byBranch, dir.resolve("probe"));
    String nextCommit = next.key();

    assertThat(sameCommit).isEqualTo(tagged.key());
    assertThat(nextCommit).isNotEqualTo(tagged.key());
    // One warm tree per repository: the next commit rebuilds incrementally from the last one built.
    assertThat(next.inputs().treeKey()).isEqualTo(tagged.inputs().treeKey());
    assertThat(tagged.inputs().sourceDigest()).matches("[0-9a-f]{40}");
    assertThat(tagged.sourceLabel()).isEqualTo("repo@" + tagged.inputs().sourceDigest().substring(0, 12));
    // The same repository through a symlink shares that warm tree.
    Path link = Files.createSymbolicLink(dir.resolve("linux"), repo);
    InputResolver.Resolved viaLink = real.resolve(BuildSpec.of(new BuildSource.Git(link, "HEAD")), dir.resolve("probe"));
    assertThat(viaLink.inputs().treeKey()).isEqualTo(tagged.inputs().treeKey());
    assertThat(viaLink.key()).isEqualTo(nextCommit);
  }

  @Test
  void aTreeSourceIsKeyedByItsListingSoATouchedFileChangesTheKey() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("linux"));
    Files.createDirectories(tree.resolve("kernel"));
    Path stat = Files.writeString(tree.resolve("Makefile"), "VERSION = 6\n");
    BuildSpec spec = BuildSpec.of(new BuildSource.Tree(tree));
    String before = keyOf(spec).key();

    Files.setLastModifiedTime(stat, java.nio.file.attribute.FileTime.fromMillis(1_000_000));

    assertThat(keyOf(spec).key()).isNotEqualTo(before);
    assertThatThrownBy(() -> keyOf(BuildSpec.of(new BuildSource.Tree(dir.resolve("probe-less")))))
        .hasMessageContaining("is not a kernel tree");
  }

  @Test
  void anUnknownGitRefIsASourceErrorNamingTheRef() throws Exception {
    Path repo = Files.createDirectories(dir.resolve("repo"));
    git(repo, "init", "-q");

    assertThatThrownBy(() -> new InputResolver(new ProcessRunner()).resolve(
        BuildSpec.of(new BuildSource.Git(repo, "no-such-branch")), dir.resolve("probe")))
        .isInstanceOfSatisfying(BuildInputException.class, e -> assertThat(e.kind()).isEqualTo(BuildResult.Kind.SOURCE))
        .hasMessageContaining("'no-such-branch' names no commit in " + repo);
  }

  @Test
  void unreadableInputsAreNamedWithTheirKind() {
    Path gone = dir.resolve("gone.config");

    assertThatThrownBy(() -> keyOf(new BuildSpec(spec().source(), List.of(), "tinyconfig", List.of(gone), List.of(),
        null, List.of())))
        .isInstanceOfSatisfying(BuildInputException.class, e -> assertThat(e.kind()).isEqualTo(BuildResult.Kind.CONFIG))
        .hasMessageContaining("cannot read config fragment " + gone);
    assertThatThrownBy(() -> keyOf(new BuildSpec(spec().source(), List.of(), "olddefconfig", List.of(), List.of(),
        null, List.of())))
        .hasMessageContaining("unknown config base 'olddefconfig'");
    assertThatThrownBy(() -> keyOf(BuildSpec.of(new BuildSource.Tarball(dir.resolve("gone.tar.xz")))))
        .isInstanceOfSatisfying(BuildInputException.class, e -> assertThat(e.kind()).isEqualTo(BuildResult.Kind.SOURCE));
    assertThatThrownBy(() -> keyOf(new BuildSpec(spec().source(), List.of(), null, List.of(), List.of("FOO=y"),
        null, List.of())))
        .hasMessageContaining("config line 'FOO=y' is neither");
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> argv = new java.util.ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "-C",
        repo.toString()));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
  }
}
