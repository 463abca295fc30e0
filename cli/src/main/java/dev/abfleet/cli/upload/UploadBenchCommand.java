package dev.abfleet.cli.upload;

import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerNode;
import dev.abfleet.controller.ControllerSettings;
import dev.abfleet.controller.artifact.ArtifactStoreSettings;
import dev.abfleet.worker.artifact.ArtifactCache;
import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code abfleet bench upload}: throughput of the artifact transfer a submission and a worker's
 * cache miss go through, on a random artifact: upload (chunks, per-chunk CRC32C, the store's
 * final SHA-256 check), upload of an artifact already stored, upload with one corrupted chunk
 * re-sent, and fetch (with the worker's SHA-256 check).
 */
@Command(name = "upload", mixinStandardHelpOptions = true,
    description = {"Measure artifact upload and fetch throughput against a controller (an embedded one on loopback",
        "when --controller is not given). Artifacts sent to a --controller stay in its store."})
public final class UploadBenchCommand implements Callable<Integer> {

  @Option(names = "--size-mib", defaultValue = "100", paramLabel = "N",
      description = "Size of the artifact in MiB (default: ${DEFAULT-VALUE}).")
  int sizeMib;

  @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
      description = "Repetitions, each with a fresh random artifact (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--controller", paramLabel = "HOST:PORT", description = "A running controller; default: an"
      + " embedded one on loopback with its store in a temporary directory.")
  String controller;

  @picocli.CommandLine.Mixin dev.abfleet.cli.ClientAuthOptions auth;


  private final PrintStream out;

  public UploadBenchCommand() {
    this(System.out);
  }

  UploadBenchCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    if (sizeMib < 1 || sizeMib > 16_384) {
      throw new Problem("--size-mib " + sizeMib + ": expected 1 to 16384");
    }
    if (runs < 1 || runs > 100) {
      throw new Problem("--runs " + runs + ": expected 1 to 100");
    }
    Path work = Files.createTempDirectory("abfleet-bench-upload-");
    ControllerNode node = null;
    try {
      String target;
      if (controller == null) {
        long cap = 4L * (sizeMib + 1) * runs << 20;
        node = ControllerNode.start(ControllerSettings.inMemory(),
            new ArtifactStoreSettings(work.resolve("store"), cap));
        target = "127.0.0.1:" + node.grpcPort();
      } else {
        target = ControllerAddress.check(controller, auth);
      }
      out.println("abfleet bench upload: " + sizeMib + " MiB random artifact, " + runs + " run(s), controller "
          + (controller == null ? "embedded on loopback (" + target + ")" : target) + ", chunks of 1 MiB");
      ManagedChannel channel = controller == null
          ? ControllerAddress.channel(target, dev.abfleet.worker.link.ChannelSecurity.DEFAULT)
          : ControllerAddress.channel(target);
      try {
        measure(channel, target, work);
      } finally {
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
      }
      return ExitCodes.OK;
    } finally {
      if (node != null) {
        node.close();
      }
      CacheFiles.deleteTree(work);
    }
  }

  private void measure(ManagedChannel channel, String target, Path work) throws Exception {
    List<Double> hash = new ArrayList<>();
    List<Double> upload = new ArrayList<>();
    List<Double> again = new ArrayList<>();
    List<Double> corrupted = new ArrayList<>();
    List<Double> fetch = new ArrayList<>();
    ControllerArtifacts client = new ControllerArtifacts(channel, target);
    for (int run = 0; run < runs; run++) {
      Path file = randomFile(work.resolve("artifact-" + run), System.nanoTime());
      long t0 = System.nanoTime();
      String sha = ArtifactCache.sha256(file);
      hash.add(seconds(t0));
      t0 = System.nanoTime();
      client.upload(file, sha);
      upload.add(seconds(t0));
      t0 = System.nanoTime();
      client.upload(file, sha);
      again.add(seconds(t0));
      Path fetched = work.resolve("fetched-" + run);
      t0 = System.nanoTime();
      client.fetchInto(sha, fetched);
      if (!ArtifactCache.sha256(fetched).equals(sha)) {
        throw new IllegalStateException("fetched bytes differ from the upload");
      }
      fetch.add(seconds(t0));
      Files.delete(fetched);

      Path other = randomFile(work.resolve("corrupted-" + run), System.nanoTime());
      String otherSha = ArtifactCache.sha256(other);
      t0 = System.nanoTime();
      ControllerArtifacts.Uploaded u = ControllerArtifacts.corruptingOnce(channel, target, sizeMib / 2)
          .upload(other, otherSha);
      corrupted.add(seconds(t0));
      if (u.resentChunks() != 1) {
        throw new IllegalStateException("expected one re-sent chunk, got " + u.resentChunks());
      }
      Files.delete(file);
      Files.delete(other);
    }
    row("sha256 of the file (client)", hash);
    row("upload (new artifact)", upload);
    row("upload, one chunk corrupted + re-sent", corrupted);
    row("fetch + sha256 check (worker)", fetch);
    out.printf(Locale.ROOT, "%-40s %8.1f ms median (status call only; nothing sent)%n",
        "upload (already stored)", median(again) * 1000);
  }

  private void row(String what, List<Double> secs) {
    StringBuilder each = new StringBuilder();
    for (double s : secs) {
      each.append(String.format(Locale.ROOT, " %.0f", sizeMib / s));
    }
    out.printf(Locale.ROOT, "%-40s %8.0f MiB/s median (%.2f s); runs:%s MiB/s%n", what, sizeMib / median(secs),
        median(secs), each);
  }

  private Path randomFile(Path p, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] buf = new byte[1 << 20];
    try (OutputStream o = Files.newOutputStream(p)) {
      for (int i = 0; i < sizeMib; i++) {
        for (int j = 0; j < buf.length; j += 8) {
          long v = r.nextLong();
          for (int k = 0; k < 8; k++) {
            buf[j + k] = (byte) (v >>> (8 * k));
          }
        }
        o.write(buf);
      }
    }
    return p;
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static double median(List<Double> xs) {
    List<Double> s = xs.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
