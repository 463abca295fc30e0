package dev.abfleet.worker.sim;

import java.nio.charset.StandardCharsets;

/** Stable 64-bit seeds from a base seed and names (host id, boot key), the same on every JVM. */
final class SimSeeds {
  private SimSeeds() {}

  static long mix(long seed, String... parts) {
    long h = splitMix(seed);
    for (String part : parts) {
      h = splitMix(h ^ fnv1a(part));
    }
    return h;
  }

  private static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  private static long splitMix(long x) {
    long z = x + 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
