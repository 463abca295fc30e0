package dev.abfleet.worker.link;

import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Channels to one controller node or to any of several ({@code a:7070,b:7071,c:7072}). With
 * several, gRPC's pick_first balancer holds one connection, to a node picked at random (so that
 * workers and clients spread over the nodes), and moves to another node when that one is
 * unavailable; the callers keep their own retry and backoff on top.
 */
public final class ControllerTargets {
  private static final Pattern HOST_PORT =
      Pattern.compile("(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.-]+):(\\d{1,5})");

  private ControllerTargets() {}

  /** One controller address; {@code host} keeps the brackets of an IPv6 literal out. */
  public record HostPort(String host, int port) {
    @Override
    public String toString() {
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  /**
   * The addresses of a comma-separated HOST:PORT list, in order.
   *
   * @throws IllegalArgumentException naming the first bad entry and the expected form
   */
  public static List<HostPort> parse(String addresses) {
    List<HostPort> nodes = new ArrayList<>();
    for (String entry : (addresses == null ? "" : addresses).split(",", -1)) {
      var m = HOST_PORT.matcher(entry.trim());
      int port = m.matches() ? Integer.parseInt(m.group(2)) : -1;
      if (port < 1 || port > 65_535) {
        // Control characters shown as '?': the message is one line whatever was typed.
        throw new IllegalArgumentException("'" + entry.replaceAll("\\p{Cntrl}", "?") + "': expected HOST:PORT with a port 1 to"
            + " 65535, several separated by commas, e.g. 127.0.0.1:7070,127.0.0.1:7071");
      }
      String host = m.group(1);
      nodes.add(new HostPort(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port));
    }
    return nodes;
  }

  /**
   * A channel builder to the node, or to any of the nodes, of {@code addresses}, with
   * {@link ChannelSecurity#DEFAULT}: plaintext to loopback, TLS with default trust otherwise.
   */
  public static NettyChannelBuilder channel(String addresses) {
    return channel(addresses, ChannelSecurity.DEFAULT);
  }

  /**
   * A channel builder to the node, or to any of the nodes, of {@code addresses}, secured as
   * {@code security} says.
   *
   * @throws IllegalArgumentException for a bad address or unusable PEM files, naming them
   */
  public static NettyChannelBuilder channel(String addresses, ChannelSecurity security) {
    List<HostPort> nodes = parse(addresses);
    NettyChannelBuilder builder;
    if (nodes.size() == 1) {
      builder = NettyChannelBuilder.forTarget(nodes.get(0).toString());
    } else {
      String list = String.join(",", nodes.stream().map(HostPort::toString).toList());
      builder = NettyChannelBuilder
          .forTarget(ControllerListResolverProvider.SCHEME + ":///"
              + URLEncoder.encode(list, StandardCharsets.UTF_8))
          .defaultServiceConfig(Map.of("loadBalancingConfig",
              List.of(Map.of("pick_first", Map.of("shuffleAddressList", true)))));
    }
    security.apply(builder, nodes);
    return builder;
  }
}
