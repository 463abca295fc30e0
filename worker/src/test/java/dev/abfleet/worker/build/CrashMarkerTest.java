package dev.abfleet.worker.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrashMarkerTest {
  @TempDir
  Path out;

  @Test
  void aBuildAfterACleanOneRemovesNothing() throws Exception {
    Path obj = write("fs/stat.o", 100);
    CrashMarker.arm(out);
    CrashMarker.disarm(out);

    assertThat(CrashMarker.arm(out)).isZero();
    assertThat(obj).exists();
  }

  @Test
  void aBuildAfterAKilledOneRemovesWhatTheKilledOneWroteSoMakeWritesItWhole() throws Exception {
    Path old = write("fs/namei.o", 100);
    CrashMarker.arm(out);
    Files.setLastModifiedTime(out.resolve(CrashMarker.NAME), FileTime.from(Instant.ofEpochSecond(1000)));
    Path halfWritten = write("fs/stat.o", 2000);
    Path cmd = write("fs/.stat.o.cmd", 2000);
    Path config = write(".config", 2000);
    Path header = write("include/generated/autoconf.h", 2000);
    Path archHeader = write("arch/x86/include/generated/asm/unistd_64.h", 2000);
    // the killed build never disarmed its marker

    assertThat(CrashMarker.arm(out)).isEqualTo(2);
    assertThat(halfWritten).doesNotExist();
    assertThat(cmd).doesNotExist();
    assertThat(old).exists();
    assertThat(config).exists();
    assertThat(header).exists();
    assertThat(archHeader).exists();
  }

  private Path write(String rel, long epochSecond) throws Exception {
    Path p = out.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "x");
    Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(epochSecond)));
    return p;
  }
}
