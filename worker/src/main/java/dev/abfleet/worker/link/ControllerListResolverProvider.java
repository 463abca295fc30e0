package dev.abfleet.worker.link;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * gRPC name resolution for a fixed list of controller nodes: target
 * {@code abfleet-controllers:///HOST%3APORT%2CHOST%3APORT} (see {@link ControllerTargets}) resolves
 * to one address group per node, in the order given. The load balancer (pick_first) connects to
 * one of them and moves to the next when a connection fails; gRPC's own reconnect and the
 * callers' backoff stay as they are. Host names are looked up on each resolution, so a node that
 * moved is found again after a failure.
 */
public final class ControllerListResolverProvider extends NameResolverProvider {
  static final String SCHEME = "abfleet-controllers";

  @Override
  protected boolean isAvailable() {
    return true;
  }

  @Override
  protected int priority() {
    return 5;
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }

  @Override
  public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    if (!SCHEME.equals(targetUri.getScheme())) {
      return null;
    }
    return new ListResolver(targetUri.getAuthority() == null ? "" : targetUri.getAuthority(),
        ControllerTargets.parse(targetUri.getPath().substring(1)));
  }

  /** Resolves the listed host:port pairs; refresh looks the names up again. */
  private static final class ListResolver extends NameResolver {
    private final String authority;
    private final List<ControllerTargets.HostPort> nodes;
    private Listener2 listener;

    ListResolver(String authority, List<ControllerTargets.HostPort> nodes) {
      this.authority = authority.isEmpty() ? nodes.get(0).toString() : authority;
      this.nodes = nodes;
    }

    @Override
    public String getServiceAuthority() {
      return authority;
    }

    @Override
    public void start(Listener2 listener) {
      this.listener = listener;
      resolve();
    }

    @Override
    public void refresh() {
      resolve();
    }

    private void resolve() {
      List<EquivalentAddressGroup> groups = new ArrayList<>();
      for (ControllerTargets.HostPort node : nodes) {
        InetSocketAddress address = new InetSocketAddress(node.host(), node.port());
        if (!address.isUnresolved()) {
          // Each node's own name, so TLS verifies every node's certificate against its name.
          groups.add(new EquivalentAddressGroup(address, io.grpc.Attributes.newBuilder()
              .set(EquivalentAddressGroup.ATTR_AUTHORITY_OVERRIDE, node.toString()).build()));
        }
      }
      if (groups.isEmpty()) {
        listener.onError(Status.UNAVAILABLE.withDescription(
            "none of the controller addresses " + nodes + " resolves; check the host names"));
        return;
      }
      listener.onResult(ResolutionResult.newBuilder().setAddressesOrError(
          io.grpc.StatusOr.fromValue(groups)).build());
    }

    @Override
    public void shutdown() {}
  }
}
