package dev.abfleet.worker.vm.vz;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A {@code vfkit} for Linux: a shell script that checks its command line the way a VZ boot
 * needs it and then plays back a guest recorded in {@code src/test/resources/vz/} (see the
 * README there). Run by the real {@link dev.abfleet.worker.process.ProcessRunner}.
 *
 * <p>Checks: every option is one vfkit knows ({@code --cpus}, {@code --memory},
 * {@code --restful-uri none://}, {@code --bootloader}, {@code --device} virtio-serial /
 * virtio-fs / virtio-rng); cpus and memory are the expected ones; the bootloader is
 * {@code linux,kernel=K,initrd=I,cmdline="..."} with the expected, existing files; the command
 * line has {@code console=hvc0}, {@code abfleet.share=TAG} and {@code abfleet.out=/mnt/TAG/FILE}
 * and every expected parameter; a virtio-fs device with tag TAG shares an existing directory; no
 * two devices share a tag; a host volume ({@code abfleet.volume_tag=T}) has a device of its own.
 * Anything else: exit 64 with "fake vfkit: ..." on stderr.
 *
 * <p>Then, as the guest: writes the recorded console to {@code logFilePath} and, if the guest
 * got that far, the recorded results to {@code FILE} in the directory shared as TAG (the
 * host-side path of the guest's {@code abfleet.out}), and a file into the volume.
 */
public final class FakeVfkit {

  /** What the played-back guest does. */
  public enum Guest {
    /** Mounts the share and writes all six metrics ({@code results.jsonl}, {@code console.txt}). */
    RECORDED_RUN("results.jsonl", "console.txt"),
    /** The same with the host volume mounted beside the share ({@code *-with-volume}). */
    RECORDED_RUN_WITH_VOLUME("results-with-volume.jsonl", "console-with-volume.txt"),
    /** A kernel without virtiofs: /init's setup_error on the console, nothing on the share. */
    NO_VIRTIOFS(null, "console-no-virtiofs.txt"),
    /** virtiofs but no device with the tag: the mount fails; console only. */
    NO_SHARE_DEVICE(null, "console-no-share-device.txt"),
    /** vfkit refuses the VM configuration: exits 1 with an error on stderr, no console. */
    REFUSED(null, null),
    /** Never exits (a guest that hangs); writes its pid to {@code vfkit.pid}. */
    HANGS(null, null);

    private final String results;
    private final String console;

    Guest(String results, String console) {
      this.results = results;
      this.console = console;
    }
  }

  /** What vfkit's error looks like when Virtualization.framework refuses a configuration. */
  public static final String REFUSAL = "level=fatal msg=\"virtual machine configuration is invalid: Error"
      + " Domain=VZErrorDomain Code=2 Description=\\\"Invalid virtual machine configuration.\\\"\"";

  private final Path script;

  private FakeVfkit(Path script) {
    this.script = script;
  }

  /**
   * Writes {@code dir/vfkit} (and the recordings it plays) for one boot.
   *
   * @param cpus      the expected {@code --cpus}
   * @param memoryMib the expected {@code --memory}
   * @param kernel    the expected bootloader kernel
   * @param initrd    the expected bootloader initrd
   * @param params    kernel parameters the command line must contain
   */
  public static FakeVfkit install(Path dir, Guest guest, int cpus, int memoryMib, Path kernel, Path initrd,
      List<String> params) throws IOException {
    Files.createDirectories(dir);
    Path results = guest.results == null ? null : copyRecording(guest.results, dir);
    Path console = guest.console == null ? null : copyRecording(guest.console, dir);
    String vars = String.join("\n",
        "GUEST=" + guest.name(),
        "WANT_CPUS=" + cpus,
        "WANT_MEMORY=" + memoryMib,
        "WANT_KERNEL='" + kernel + "'",
        "WANT_INITRD='" + initrd + "'",
        "WANT_PARAMS='" + String.join(" ", params) + "'",
        "RECORDED_RESULTS='" + (results == null ? "" : results) + "'",
        "RECORDED_CONSOLE='" + (console == null ? "" : console) + "'",
        "PIDFILE='" + dir.resolve("vfkit.pid") + "'",
        "ARGVFILE='" + dir.resolve("vfkit.argv") + "'",
        "REFUSAL='" + REFUSAL + "'");
    Path script = dir.resolve("vfkit");
    Files.writeString(script, "#!/bin/sh\n" + vars + "\n" + SCRIPT);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new FakeVfkit(script);
  }

  /** The driver's {@code which}: finds this fake as {@code vfkit}, nothing else. */
  public Function<String, Optional<Path>> which() {
    return name -> name.equals("vfkit") ? Optional.of(script) : Optional.empty();
  }

  /** The pid the {@link Guest#HANGS} fake wrote, once it runs. */
  public Optional<Long> pid() throws IOException {
    Path f = script.resolveSibling("vfkit.pid");
    return Files.exists(f) ? Optional.of(Long.parseLong(Files.readString(f).strip())) : Optional.empty();
  }

  /** The argv the fake was started with, one argument per line. */
  public List<String> argv() throws IOException {
    return Files.readAllLines(script.resolveSibling("vfkit.argv"));
  }

  private static Path copyRecording(String name, Path dir) throws IOException {
    try (InputStream in = FakeVfkit.class.getResourceAsStream("/vz/" + name)) {
      if (in == null) {
        throw new IOException("no recording /vz/" + name + " on the test class path");
      }
      Path target = dir.resolve("recorded-" + name);
      Files.write(target, in.readAllBytes());
      return target;
    }
  }

  private static final String SCRIPT = """
      set -uf
      fail() { echo "fake vfkit: $*" >&2; exit 64; }
      : > "$ARGVFILE"
      for a in "$@"; do printf '%s\\n' "$a" >> "$ARGVFILE"; done

      cpus= memory= bootloader= console= shares=
      while [ $# -gt 0 ]; do
          [ $# -ge 2 ] || fail "option $1 has no value"
          case "$1" in
              --cpus) cpus=$2 ;;
              --memory) memory=$2 ;;
              --restful-uri) [ "$2" = "none://" ] || fail "--restful-uri $2: expected none://" ;;
              --bootloader) bootloader=$2 ;;
              --device)
                  case "$2" in
                      virtio-serial,logFilePath=*)
                          console=${2#virtio-serial,logFilePath=}
                          [ -d "$(dirname "$console")" ] || fail "console log $console: no such directory" ;;
                      virtio-fs,sharedDir=*,mountTag=*)
                          spec=${2#virtio-fs,sharedDir=}
                          dir=${spec%,mountTag=*}
                          tag=${spec##*,mountTag=}
                          [ -d "$dir" ] || fail "virtio-fs sharedDir $dir is not a directory"
                          case " $(printf '%s\\n' "$shares" | cut -d' ' -f1 | tr '\\n' ' ') " in
                              *" $tag "*) fail "two virtio-fs devices are tagged $tag" ;;
                          esac
                          shares="$shares
      $tag $dir" ;;
                      virtio-rng) ;;
                      *) fail "unknown device '$2'" ;;
                  esac ;;
              *) fail "unknown option '$1'" ;;
          esac
          shift 2
      done
      shared_dir() { printf '%s\\n' "$shares" | while read -r t d; do [ "$t" = "$1" ] && printf '%s' "$d"; done; }

      [ "$cpus" = "$WANT_CPUS" ] || fail "--cpus '$cpus', expected $WANT_CPUS"
      [ "$memory" = "$WANT_MEMORY" ] || fail "--memory '$memory', expected $WANT_MEMORY"
      [ -n "$console" ] || fail "no virtio-serial console device"
      case "$bootloader" in
          "linux,kernel=$WANT_KERNEL,initrd=$WANT_INITRD,cmdline=\\""*"\\"") ;;
          *) fail "--bootloader '$bootloader', expected linux,kernel=$WANT_KERNEL,initrd=$WANT_INITRD,cmdline=\\"...\\"" ;;
      esac
      [ -f "$WANT_KERNEL" ] && [ -f "$WANT_INITRD" ] || fail "kernel or initrd missing"
      cmdline=${bootloader#*,cmdline=\\"}
      cmdline=${cmdline%\\"}
      param() { for p in $cmdline; do case "$p" in "$1="*) printf '%s' "${p#*=}" ;; esac; done; }
      for want in console=hvc0 $WANT_PARAMS; do
          case " $cmdline " in *" $want "*) ;; *) fail "kernel command line '$cmdline' lacks $want" ;; esac
      done
      tag=$(param abfleet.share)
      [ -n "$tag" ] || fail "kernel command line '$cmdline' has no abfleet.share="
      out=$(param abfleet.out)
      case "$out" in
          "/mnt/$tag/"?*) ;;
          *) fail "abfleet.out=$out is not a file on the share (/mnt/$tag/...)" ;;
      esac
      share=$(shared_dir "$tag")
      [ -n "$share" ] || fail "no virtio-fs device tagged $tag (abfleet.share=$tag)"
      volume_tag=$(param abfleet.volume_tag)
      volume=
      if [ -n "$volume_tag" ]; then
          [ "$(param abfleet.volume)" = virtiofs ] || fail "abfleet.volume=$(param abfleet.volume) on VZ, expected virtiofs"
          volume=$(shared_dir "$volume_tag")
          [ -n "$volume" ] || fail "no virtio-fs device tagged $volume_tag (abfleet.volume_tag=$volume_tag)"
      fi

      # The guest.
      case "$GUEST" in
          REFUSED) printf '%s\\n' "$REFUSAL" >&2; exit 1 ;;
          HANGS) echo $$ > "$PIDFILE"; while :; do sleep 1; done ;;
      esac
      cp "$RECORDED_CONSOLE" "$console"
      if [ -n "$RECORDED_RESULTS" ]; then
          cp "$RECORDED_RESULTS" "$share/${out#/mnt/$tag/}"
          [ -z "$volume" ] || mkdir "$volume/fleetbench-meta"
      fi
      exit 0
      """;
}
