package dev.abfleet.model;

/**
 * What one client or one worker may ask of the gRPC server.
 *
 * @param callsPerSecond calls a client may start per second, sustained (a stream is one call)
 * @param burst calls a client may start at once after a quiet spell
 * @param workerMessagesPerSecond messages a worker may send per second on its stream (twice
 *     as many at once); past that the stream is closed with RESOURCE_EXHAUSTED
 * @param maxConcurrentCallsPerConnection calls open at once on one HTTP/2 connection
 */
public record Limits(double callsPerSecond, int burst, double workerMessagesPerSecond,
    int maxConcurrentCallsPerConnection) {
  public Limits {
    if (!(callsPerSecond > 0) || burst < 1 || !(workerMessagesPerSecond > 0)
        || maxConcurrentCallsPerConnection < 1) {
      throw new IllegalArgumentException("limits " + callsPerSecond + " calls/s, burst " + burst
          + ", " + workerMessagesPerSecond + " worker messages/s, "
          + maxConcurrentCallsPerConnection + " calls per connection: each must be positive");
    }
  }

  /** 50 calls/s (burst 200) per client, 500 worker messages/s, 100 calls per connection. */
  public static Limits defaults() {
    return new Limits(50, 200, 500, 100);
  }

  /**
   * No limit in practice: for benchmarks of the scheduler, whose hundreds of simulated workers
   * and watchers share one loopback address and would otherwise be measured against the limit.
   */
  public static Limits unlimited() {
    return new Limits(1e9, Integer.MAX_VALUE, 1e9, Integer.MAX_VALUE);
  }
}
