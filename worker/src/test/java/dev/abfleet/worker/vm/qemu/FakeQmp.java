package dev.abfleet.worker.vm.qemu;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A paused QEMU's QMP server on a unix socket, for one client: greets, answers
 * qmp_capabilities, query-cpus-fast (one entry per given thread id, cpu-index in order, an
 * asynchronous event line before the reply), cont and quit, and records every command.
 */
final class FakeQmp implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServerSocketChannel server;
  private final List<Long> threadIds;
  private final List<String> commands = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Thread thread;

  FakeQmp(Path socket, List<Long> threadIds) throws IOException {
    Files.deleteIfExists(socket);
    this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    this.threadIds = List.copyOf(threadIds);
    this.thread = new Thread(this::serve, "fake-qmp");
    thread.setDaemon(true);
    thread.start();
  }

  /** Commands received, in order. */
  List<String> commands() {
    synchronized (commands) {
      return List.copyOf(commands);
    }
  }

  /** True once the client said cont or quit, or went away, within {@code seconds}. */
  boolean awaitEnd(long seconds) throws InterruptedException {
    return ended.await(seconds, TimeUnit.SECONDS);
  }

  private void serve() {
    try (SocketChannel client = server.accept();
        BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(client),
            StandardCharsets.UTF_8));
        OutputStream out = Channels.newOutputStream(client)) {
      send(out, "{\"QMP\": {\"version\": {\"qemu\": {\"major\": 7}}, \"capabilities\": [\"oob\"]}}");
      String line;
      while ((line = in.readLine()) != null) {
        String command = JSON.readTree(line).path("execute").asText();
        commands.add(command);
        switch (command) {
          case "query-cpus-fast" -> {
            send(out, "{\"event\": \"RTC_CHANGE\", \"data\": {\"offset\": 0}}");
            StringBuilder cpus = new StringBuilder("[");
            for (int i = 0; i < threadIds.size(); i++) {
              cpus.append(i == 0 ? "" : ", ").append("{\"cpu-index\": ").append(i)
                  .append(", \"qom-path\": \"/machine/unattached/device[").append(i)
                  .append("]\", \"thread-id\": ").append(threadIds.get(i)).append(", \"target\": \"x86_64\"}");
            }
            send(out, "{\"return\": " + cpus + "]}");
          }
          case "qmp_capabilities", "cont", "quit" -> send(out, "{\"return\": {}}");
          default -> send(out, "{\"error\": {\"class\": \"CommandNotFound\", \"desc\": \"The command "
              + command + " has not been found\"}}");
        }
        if (command.equals("cont") || command.equals("quit")) {
          break;
        }
      }
    } catch (IOException e) {
      // the client went away
    } finally {
      ended.countDown();
    }
  }

  private static void send(OutputStream out, String json) throws IOException {
    out.write((json + "\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
