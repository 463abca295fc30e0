package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentServiceGrpc;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.GetExperimentRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsRequest;
import dev.abfleet.proto.fleet.v1.ListExperimentsResponse;
import dev.abfleet.proto.fleet.v1.CancelExperimentRequest;
import dev.abfleet.proto.fleet.v1.ExperimentProgress;
import dev.abfleet.proto.fleet.v1.SubmitExperimentRequest;
import dev.abfleet.proto.fleet.v1.WatchExperimentRequest;
import dev.abfleet.cli.upload.SpecUploads;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.guest.GuestArtifacts;
import dev.abfleet.worker.artifact.ControllerArtifacts;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The CLI's side of ExperimentService, over a real gRPC channel. Submit, get and watch ride out
 * a controller restart ({@link Reconnect}); a submit is safe to repeat, since the controller
 * accepts the same id with the same spec once.
 */
public final class ExperimentClient implements AutoCloseable {
  static final Set<String> TERMINAL = Set.of("completed", "cancelled", "failed");

  private final ManagedChannel channel;
  private final ExperimentServiceGrpc.ExperimentServiceBlockingStub stub;
  private final Reconnect reconnect;
  private final String target;
  private final boolean embedded;

  public ExperimentClient(String target) {
    this(target, Reconnect.standard(target));
  }

  public ExperimentClient(String target, Reconnect reconnect) {
    this(target, reconnect, null);
  }

  /** A client of the embedded fleet's controller, secured as {@code security} says. */
  public ExperimentClient(String target, dev.abfleet.worker.link.ChannelSecurity security) {
    this(target, Reconnect.standard(target), security);
  }

  private ExperimentClient(String target, Reconnect reconnect,
      dev.abfleet.worker.link.ChannelSecurity security) {
    this.channel = security == null ? ControllerAddress.channel(target)
        : ControllerAddress.channel(target, security);
    this.stub = ExperimentServiceGrpc.newBlockingStub(channel);
    this.reconnect = reconnect;
    this.target = target;
    this.embedded = security != null;
  }

  /** The controller's address, HOST:PORT[,...]. */
  public String target() {
    return target;
  }

  /** The channel to the controller; other services of the same controller may share it. */
  public ManagedChannel channel() {
    return channel;
  }

  /** True for the embedded fleet's controller ({@code ab} without --controller): this machine's files are its. */
  public boolean embedded() {
    return embedded;
  }

  /**
   * Makes the guest artifacts of {@code spec} ({@link #prepared}), uploads every
   * artifact that is a file on this machine to the controller's store ({@link SpecUploads}), and
   * submits the spec that names them {@code abfleet:sha256:<hex>}: workers need no shared path.
   * The one way grpc submitters (ab --controller, nightly, bisect) send a spec.
   *
   * @param err where progress lines of the uploads go
   */
  public String submitUploading(String id, ExperimentSpec spec, PrintStream err) {
    return submit(id, prepareUploading(spec, err));
  }

  /**
   * {@link #submitUploading} without the submission: the spec with its guest artifacts made and
   * every local file uploaded, named {@code abfleet:sha256:<hex>} (bisect sends its kernels so).
   */
  public ExperimentSpec prepareUploading(ExperimentSpec spec, PrintStream err) {
    Path home = WorkerSettings.defaultHome();
    ExperimentSpec prepared = prepared(spec, home);
    return new SpecUploads(artifacts(), reconnect::call, home, err).upload(prepared);
  }

  /**
   * The spec with its guest artifacts made here ({@link GuestArtifacts#prepare}), caching them
   * under {@code home}.
   *
   * @throws Problem an image cannot be built here or the workload cannot be packed, with the fix
   */
  public static ExperimentSpec prepared(ExperimentSpec spec, Path home) {
    try {
      return GuestArtifacts.prepare(spec, home);
    } catch (GuestArtifacts.Unprepared e) {
      throw new Problem(e.getMessage());
    }
  }

  /** The controller's artifact store, over this client's connection. */
  public ControllerArtifacts artifacts() {
    return new ControllerArtifacts(channel, target);
  }

  /**
   * Submits and returns the experiment id; INVALID_ARGUMENT becomes a {@link Problem}. An empty
   * {@code id} is chosen here, not by the controller: a submission that timed out after the
   * controller recorded it is then repeated under the same id instead of recorded twice.
   */
  public String submit(String id, ExperimentSpec spec) {
    String chosen = id.isEmpty() ? newId() : id;
    try {
      return reconnect.call(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
          .submitExperiment(SubmitExperimentRequest.newBuilder().setExperimentId(chosen).setSpec(spec).build())
          .getExperimentId());
    } catch (StatusRuntimeException e) {
      throw asProblem(e);
    }
  }

  /** The experiment with every boot: a long one comes in pages, fetched here one after another. */
  public Experiment get(String id) {
    return allBoots(request -> reconnect.call(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
        .getExperiment(request)), id);
  }

  /**
   * Asks {@code get} for the experiment's pages of boots until the last, and returns the first
   * page's experiment with every boot (in the controller's order).
   */
  static Experiment allBoots(java.util.function.Function<GetExperimentRequest, Experiment> get, String id) {
    Experiment first = get.apply(GetExperimentRequest.newBuilder().setExperimentId(id).build());
    if (first.getNextBootsPageToken().isEmpty()) {
      return first;
    }
    Experiment.Builder whole = first.toBuilder().setNextBootsPageToken("");
    String token = first.getNextBootsPageToken();
    while (!token.isEmpty()) {
      Experiment page = get.apply(GetExperimentRequest.newBuilder().setExperimentId(id)
          .setBootsPageToken(token).build());
      whole.addAllBoots(page.getBootsList());
      token = page.getNextBootsPageToken();
    }
    return whole.build();
  }

  public void cancel(String id, String reason) {
    stub.withDeadlineAfter(10, TimeUnit.SECONDS)
        .cancelExperiment(CancelExperimentRequest.newBuilder().setExperimentId(id).setReason(reason).build());
  }

  /** Cancels, riding out a controller that is away ({@link Reconnect}); returns the experiment. */
  public Experiment cancelAndGet(String id, String reason) {
    return reconnect.call(() -> stub.withDeadlineAfter(10, TimeUnit.SECONDS)
        .cancelExperiment(CancelExperimentRequest.newBuilder().setExperimentId(id).setReason(reason).build()));
  }

  /** One page of the experiments in {@code states} (empty = all), newest first. */
  public ListExperimentsResponse list(List<String> states, int pageSize, String pageToken) {
    return reconnect.call(() -> stub.withDeadlineAfter(60, TimeUnit.SECONDS)
        .listExperiments(ListExperimentsRequest.newBuilder().addAllStates(states)
            .setPageSize(pageSize).setPageToken(pageToken).build()));
  }

  /**
   * Follows the experiment until it is terminal and returns its final state. A stream that
   * breaks (controller restart or clean stop, keepalive failure) is opened again after a fresh
   * {@link #get}; an interrupt of this thread ends the watch with gRPC's CANCELLED.
   */
  public Experiment watch(String id, Consumer<Experiment> onChange) {
    Experiment last = null;
    while (last == null || !TERMINAL.contains(last.getState())) {
      try {
        Iterator<ExperimentProgress> it =
            stub.watchExperiment(WatchExperimentRequest.newBuilder().setExperimentId(id).build());
        while (it.hasNext()) {
          last = it.next().getExperiment();
          reconnect.reached();
          onChange.accept(last);
        }
      } catch (StatusRuntimeException e) {
        if (!Reconnect.streamBroken(e)) {
          throw e;
        }
        reconnect.backOff(e);
      }
      if (last == null || !TERMINAL.contains(last.getState())) {
        last = get(id);
        onChange.accept(last);
      }
    }
    // A long experiment's progress carries only the boots that fit in one message.
    return last.getNextBootsPageToken().isEmpty() ? last : get(id);
  }

  /** An id of the controller's form, e-XXXXXXXX (32 random bits, as the controller draws them). */
  static String newId() {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return "e-" + java.util.HexFormat.of().formatHex(bytes);
  }

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private static Problem asProblem(StatusRuntimeException e) {
    Status.Code c = e.getStatus().getCode();
    if (c == Status.Code.INVALID_ARGUMENT || c == Status.Code.FAILED_PRECONDITION) {
      return new Problem(e.getStatus().getDescription());
    }
    throw e;
  }

  @Override
  public void close() {
    ControllerAddress.close(channel);
  }
}
