package dev.abfleet.controller.grpc;

import com.google.protobuf.ByteString;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import dev.abfleet.proto.fleet.v1.BlockFinished;
import dev.abfleet.proto.fleet.v1.Heartbeat;
import dev.abfleet.proto.fleet.v1.Hello;
import dev.abfleet.proto.fleet.v1.HypervisorCapability;
import dev.abfleet.proto.fleet.v1.MetricSample;
import dev.abfleet.proto.fleet.v1.RunFailure;
import dev.abfleet.proto.fleet.v1.RunResult;
import dev.abfleet.proto.fleet.v1.WorkerMessage;
import io.grpc.Status.Code;
import java.util.List;

/**
 * Hostile client streams: worker streams sending garbage, and artifact uploads that must be
 * refused. A case with a null code must leave the stream open (the garbage is ignored, not
 * recorded).
 */
final class HostileStreamCases {
  private HostileStreamCases() {}

  /** Messages sent in order (as bytes, so that some need not be valid protobuf). */
  record StreamCase(String name, List<byte[]> messages, Code code, String problem, String fix) {
    @Override
    public String toString() {
      return name;
    }
  }

  static byte[] hello(String hostId) {
    return WorkerMessage.newBuilder().setHello(Hello.newBuilder().setHostId(hostId).setArch("x86_64").setCpus(2)
        .setMemoryMib(2048).addHypervisors(HypervisorCapability.newBuilder().setName("qemu").addAccelerators("tcg")))
        .build().toByteArray();
  }

  static byte[] result(String experimentId, String blockId) {
    return WorkerMessage.newBuilder().setRunResult(RunResult.newBuilder().setRunId("r-1").setExperimentId(experimentId)
        .setBlockId(blockId).setLeaseEpoch(7).addSamples(MetricSample.newBuilder().setMetric("metadata_stat")
            .setValue(1.0).setUnit("ops/s").setBetter("higher"))).build().toByteArray();
  }

  /** Hello of a host id made of the bytes given, which need not be UTF-8. */
  static byte[] helloWithRawId(byte[] id) {
    byte[] ok = hello("@".repeat(id.length));
    String s = new String(ok, java.nio.charset.StandardCharsets.ISO_8859_1);
    int at = s.indexOf("@".repeat(id.length));
    System.arraycopy(id, 0, ok, at, id.length);
    return ok;
  }

  static List<StreamCase> worker() {
    String hello = "the first message must be Hello with a host_id";
    String hostForm = "set the worker's --host-id";
    return List.of(
        new StreamCase("a report before Hello", List.of(result("e-1", "b-1")), Code.INVALID_ARGUMENT, hello,
            "got RUN_RESULT"),
        new StreamCase("a heartbeat before Hello", List.of(WorkerMessage.newBuilder()
            .setHeartbeat(Heartbeat.getDefaultInstance()).build().toByteArray()), Code.INVALID_ARGUMENT, hello,
            "got HEARTBEAT"),
        new StreamCase("an empty message first", List.of(new byte[0]), Code.INVALID_ARGUMENT, hello, "got KIND_NOT_SET"),
        new StreamCase("Hello with an empty host id", List.of(hello("")), Code.INVALID_ARGUMENT, hello, "got HELLO"),
        new StreamCase("Hello with host id rm -rf", List.of(hello("; rm -rf /")), Code.INVALID_ARGUMENT,
            "'; rm -rf /' is not a valid host id", hostForm),
        new StreamCase("Hello with host id ../../etc/passwd", List.of(hello("../../etc/passwd")), Code.INVALID_ARGUMENT,
            "'../../etc/passwd' is not a valid host id", hostForm),
        new StreamCase("Hello with host id $(id) and a newline", List.of(hello("$(id)\nh2")), Code.INVALID_ARGUMENT,
            "'$(id)?h2' is not a valid host id", hostForm),
        new StreamCase("Hello with a host id that is not UTF-8",
            List.of(helloWithRawId(new byte[] {'h', (byte) 0xc3, (byte) 0x28, '1'})), Code.INVALID_ARGUMENT,
            "Connect: a string field is not valid UTF-8", "send text as UTF-8"),
        new StreamCase("garbage bytes first", List.of(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01}),
            Code.INVALID_ARGUMENT, "Connect: the request does not parse", "build it from those files"),
        new StreamCase("a report for an unknown block", List.of(hello("h-unknown-block"), result("e-nope", "no-block")),
            null, "", ""),
        new StreamCase("a report whose experiment id is a path",
            List.of(hello("h-path-report"), result("../../etc/passwd", "b-1")), null, "", ""),
        new StreamCase("a failure of an unknown kind 999", List.of(hello("h-kind-999"), WorkerMessage.newBuilder()
            .setRunFailure(RunFailure.newBuilder().setRunId("r-9").setExperimentId("e-nope").setBlockId("b-9")
                .setKindValue(999).setMessage("?")).build().toByteArray()), null, "", ""),
        new StreamCase("block finished for an unknown block", List.of(hello("h-unknown-finish"), WorkerMessage
            .newBuilder().setBlockFinished(BlockFinished.newBuilder().setBlockId("nope").setLeaseEpoch(99))
            .build().toByteArray()), null, "", ""),
        new StreamCase("a second Hello", List.of(hello("h-twice"), hello("h-other")), null, "", ""));
  }

  static ArtifactChunk chunk(String sha256, long size, long offset, byte[] data) {
    ByteString bytes = ByteString.copyFrom(data);
    return ArtifactChunk.newBuilder().setSha256(sha256).setSizeBytes(size).setOffset(offset).setData(bytes)
        .setCrc32C(crc32c(data)).build();
  }

  private static int crc32c(byte[] data) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(data);
    return (int) crc.getValue();
  }

  static List<StreamCase> uploads() {
    String sha = "send the artifact's SHA-256 as 64 hex digits";
    byte[] data = "not the kernel you are looking for".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    String hex = "d".repeat(64);
    return List.of(
        new StreamCase("upload named ../../etc/passwd", List.of(chunk("../../etc/passwd", 4, 0, data).toByteArray()),
            Code.INVALID_ARGUMENT, "'../../etc/passwd' is not a sha256", sha),
        new StreamCase("upload named abfleet:sha256:zz", List.of(chunk("abfleet:sha256:zz", 4, 0, data).toByteArray()),
            Code.INVALID_ARGUMENT, "'abfleet:sha256:zz' is not a sha256", sha),
        new StreamCase("upload without a name", List.of(chunk("", 4, 0, data).toByteArray()), Code.INVALID_ARGUMENT,
            "the first chunk of an upload must carry sha256", "and size_bytes"),
        new StreamCase("upload of size -1", List.of(chunk(hex, -1, 0, data).toByteArray()), Code.INVALID_ARGUMENT,
            "size_bytes 18446744073709551615 is past any artifact", "send the artifact's size in bytes"),
        new StreamCase("upload whose bytes hash to another sha256",
            List.of(chunk(hex, data.length, 0, data).toByteArray()), Code.INVALID_ARGUMENT,
            "the uploaded bytes hash to", "the upload was discarded: check the file and send it again"),
        new StreamCase("upload chunk past the declared size", List.of(chunk(hex, 4, 0, data).toByteArray()),
            Code.FAILED_PRECONDITION, "ends past the declared size of 4 bytes", "declare the artifact's whole size"),
        new StreamCase("upload chunk at a far offset", List.of(chunk(hex, 1 << 20, 1 << 19, data).toByteArray()),
            Code.FAILED_PRECONDITION, "does not continue the 0 bytes held", "send from offset 0"),
        new StreamCase("upload chunk of 2 MiB", List.of(chunk(hex, 2 << 20, 0, new byte[2 << 20]).toByteArray()),
            Code.INVALID_ARGUMENT, "chunk at offset 0 holds 2097152 bytes", "send at most 1048576 bytes (1 MiB)"));
  }
}
