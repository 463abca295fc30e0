package dev.abfleet.worker.artifact;

import com.google.protobuf.ByteString;
import dev.abfleet.proto.fleet.v1.ArtifactChunk;
import java.util.zip.CRC32C;

/** The per-chunk checksum of artifact transfers (ArtifactChunk.crc32c), shared by both ends. */
public final class Chunks {

  /** Bytes per chunk: 1 MiB, a quarter of gRPC's default message limit. */
  public static final int CHUNK_BYTES = 1 << 20;

  private Chunks() {}

  /** CRC32C of {@code data} as the unsigned 32-bit value the proto carries. */
  public static int crc32c(ByteString data) {
    CRC32C crc = new CRC32C();
    crc.update(data.asReadOnlyByteBuffer());
    return (int) crc.getValue();
  }

  /** True when the chunk's data matches its checksum. */
  public static boolean intact(ArtifactChunk chunk) {
    return crc32c(chunk.getData()) == chunk.getCrc32C();
  }
}
