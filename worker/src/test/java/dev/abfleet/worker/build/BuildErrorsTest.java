package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Error lines read out of real git apply and make output. */
class BuildErrorsTest {

  static final String SRC = "/home/b/trees/3f2a/src";

  @Test
  void findsGccsFirstErrorAndNamesTheSourceFileRelativeToTheTree() {
    String stderr = """
        In file included from /home/b/trees/3f2a/src/fs/stat.c:9:
        /home/b/trees/3f2a/src/include/linux/export.h:1:9: warning: something odd [-Wodd]
        /home/b/trees/3f2a/src/fs/stat.c:2:22: error: expected expression before ‘;’ token
            2 | int abfleet_broken = ;
              |                      ^
        /home/b/trees/3f2a/src/fs/stat.c:40:1: error: second error
        make[3]: *** [/home/b/trees/3f2a/src/scripts/Makefile.build:250: fs/stat.o] Error 1
        make: *** [Makefile:2012: .] Error 2
        """;

    Problem p = BuildErrors.compile(stderr, stderr, SRC);

    assertThat(p.kind()).isEqualTo(BuildResult.Kind.COMPILE);
    assertThat(p.file()).isEqualTo("fs/stat.c");
    assertThat(p.firstError()).isEqualTo("fs/stat.c:2:22: error: expected expression before ‘;’ token");
  }

  @Test
  void namesTheFileOfAnErrorThatCcacheMadeRelativeToTheOutputDirectory() {
    String stderr = "../src/fs/stat.c:2:22: error: expected expression before ‘;’ token\n";

    Problem p = BuildErrors.compile(stderr, stderr, SRC, java.nio.file.Path.of(SRC).resolveSibling("out"));

    assertThat(p.file()).isEqualTo("fs/stat.c");
    assertThat(p.firstError()).isEqualTo("fs/stat.c:2:22: error: expected expression before ‘;’ token");
  }

  @Test
  void findsAFatalErrorInARelativePath() {
    String stderr = "./include/generated/x.h:3:10: fatal error: y.h: No such file or directory\n";

    Problem p = BuildErrors.compile(stderr, stderr, SRC);

    assertThat(p.file()).isEqualTo("include/generated/x.h");
    assertThat(p.firstError()).isEqualTo("include/generated/x.h:3:10: fatal error: y.h: No such file or directory");
  }

  @Test
  void fallsBackToTheLastLinesOfMakesStderrWithoutAGccError() {
    String stderr = "ld: fs/stat.o: in function `f':\nstat.c:(.text+0x1): undefined reference to `g'\n"
        + "make: *** [Makefile:1] Error 2\n";

    Problem p = BuildErrors.compile(stderr, stderr, SRC);

    assertThat(p.file()).isNull();
    assertThat(p.firstError()).endsWith("undefined reference to `g'\nmake: *** [Makefile:1] Error 2");
  }

  @Test
  void namesThePatchBeforeGitApplysFirstError() {
    String stderr = "error: patch failed: fs/stat.c:123\nerror: fs/stat.c: patch does not apply\n";

    assertThat(BuildErrors.patchError("0001-fix.patch", stderr))
        .isEqualTo("0001-fix.patch: error: patch failed: fs/stat.c:123");
    assertThat(BuildErrors.patchError("x.patch", "warning: x\nfatal: corrupt patch at line 5\n"))
        .isEqualTo("x.patch: warning: x");
  }

  @Test
  void seesAMissingToolWithItsPackage() {
    Problem p = BuildErrors.infra("  LEX     scripts/kconfig/lexer.lex.c\n/bin/sh: 1: flex: not found\n");

    assertThat(p.kind()).isEqualTo(BuildResult.Kind.INFRA);
    assertThat(p.firstError()).isEqualTo("flex not found: apt-get install flex");
  }

  @Test
  void seesAMissingCrossCompilerRunByMakeDirectly() {
    Problem p = BuildErrors.infra("make[1]: aarch64-linux-gnu-gcc: No such file or directory\n");

    assertThat(p.firstError()).isEqualTo("aarch64-linux-gnu-gcc not found: apt-get install gcc-aarch64-linux-gnu");
  }

  @Test
  void seesMissingLibraryHeadersAndAFullDisk() {
    assertThat(BuildErrors.infra("scripts/sign-file.c:25:10: fatal error: openssl/opensslv.h: No such file or"
        + " directory\n").firstError()).isEqualTo("header openssl/opensslv.h not found: apt-get install libssl-dev");
    assertThat(BuildErrors.infra("fs/stat.o: No space left on device\n").firstError()).startsWith("disk full");
    assertThat(BuildErrors.infra("gcc: fatal error: Killed signal terminated program cc1\n").firstError())
        .contains("out of memory");
  }

  @Test
  void aSourceFilesOwnErrorIsNotHostTrouble() {
    assertThat(BuildErrors.infra("fs/stat.c:2:22: error: expected expression before ';' token\n")).isNull();
    assertThat(BuildErrors.infra("fs/stat.c:9:10: fatal error: linux/nope.h: No such file or directory\n")).isNull();
  }
}
