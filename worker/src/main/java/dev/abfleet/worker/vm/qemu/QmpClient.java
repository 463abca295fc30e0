package dev.abfleet.worker.vm.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A QEMU Machine Protocol client over a unix socket: one JSON object per line each way. The
 * server greets first ({@code {"QMP": ...}}); each command gets {@code {"return": ...}} or
 * {@code {"error": {"class", "desc"}}}; asynchronous {@code {"event": ...}} lines may come in
 * between and are skipped. Every wait ends at the deadline given to {@link #connect}.
 */
final class QmpClient implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A reply longer than this is not QMP talking to us. */
  private static final int MAX_LINE = 1 << 20;
  /** How often a missing socket is looked for again while QEMU starts. */
  private static final long CONNECT_RETRY_MS = 20;

  private final SocketChannel channel;
  private final Selector selector;
  private final long deadlineNanos;
  private final ByteBuffer buffer = ByteBuffer.allocate(8192);
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private QmpClient(SocketChannel channel, Selector selector, long deadlineNanos) {
    this.channel = channel;
    this.selector = selector;
    this.deadlineNanos = deadlineNanos;
    buffer.flip();
  }

  /**
   * Connects to {@code socket} (retrying while QEMU has not created it yet), reads the greeting
   * and leaves command mode negotiated ({@code qmp_capabilities}).
   *
   * @param deadlineNanos {@link System#nanoTime()} after which every wait fails
   * @param gone true once QEMU has exited: connecting stops at once
   */
  static QmpClient connect(Path socket, long deadlineNanos, BooleanSupplier gone)
      throws IOException, InterruptedException {
    SocketChannel channel = open(socket, deadlineNanos, gone);
    QmpClient client;
    try {
      channel.configureBlocking(false);
      Selector selector = Selector.open();
      channel.register(selector, SelectionKey.OP_READ);
      client = new QmpClient(channel, selector, deadlineNanos);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    try {
      JsonNode greeting = client.next();
      if (!greeting.has("QMP")) {
        throw new IOException("QMP greeting expected, got " + greeting);
      }
      client.execute("qmp_capabilities");
      return client;
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static SocketChannel open(Path socket, long deadlineNanos, BooleanSupplier gone)
      throws IOException, InterruptedException {
    UnixDomainSocketAddress address = UnixDomainSocketAddress.of(socket);
    while (true) {
      SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      try {
        channel.connect(address);
        return channel;
      } catch (IOException e) {
        channel.close();
        if (gone.getAsBoolean()) {
          throw new IOException("QEMU exited before its QMP socket " + socket + " accepted a connection");
        }
        if (System.nanoTime() - deadlineNanos >= 0) {
          throw new IOException("QMP socket " + socket + " did not accept a connection in time: " + e.getMessage());
        }
        Thread.sleep(CONNECT_RETRY_MS);
      }
    }
  }

  /** Runs {@code command} (no arguments) and returns its "return" value. */
  JsonNode execute(String command) throws IOException {
    byte[] request = ("{\"execute\":\"" + command + "\"}\n").getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.wrap(request);
    while (out.hasRemaining()) {
      channel.write(out);
      if (out.hasRemaining()) {
        waitFor(SelectionKey.OP_WRITE);
      }
    }
    while (true) {
      JsonNode reply = next();
      if (reply.has("return")) {
        return reply.get("return");
      }
      if (reply.has("error")) {
        JsonNode error = reply.get("error");
        throw new IOException("QMP " + command + " failed: " + error.path("class").asText() + ": "
            + error.path("desc").asText());
      }
      // an asynchronous event: not the reply
    }
  }

  /** The next JSON object from the server. */
  private JsonNode next() throws IOException {
    line.reset();
    while (true) {
      while (buffer.hasRemaining()) {
        byte b = buffer.get();
        if (b == '\n') {
          String text = line.toString(StandardCharsets.UTF_8).strip();
          line.reset();
          if (!text.isEmpty()) {
            return parse(text);
          }
        } else {
          line.write(b);
          if (line.size() > MAX_LINE) {
            throw new IOException("QMP reply longer than " + MAX_LINE + " bytes");
          }
        }
      }
      buffer.clear();
      int n = channel.read(buffer);
      buffer.flip();
      if (n < 0) {
        throw new IOException("QEMU closed its QMP socket");
      }
      if (n == 0) {
        waitFor(SelectionKey.OP_READ);
      }
    }
  }

  private static JsonNode parse(String text) throws IOException {
    JsonNode node = JSON.readTree(text);
    if (node == null || !node.isObject()) {
      throw new IOException("QMP sent something other than a JSON object: " + text);
    }
    return node;
  }

  private void waitFor(int op) throws IOException {
    channel.keyFor(selector).interestOps(op);
    while (true) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        throw new IOException("QMP: no answer from QEMU in time");
      }
      if (selector.select(Math.max(1, left / 1_000_000)) > 0) {
        selector.selectedKeys().clear();
        return;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new java.io.InterruptedIOException("interrupted while waiting for QMP");
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      selector.close();
    } finally {
      channel.close();
    }
  }
}
