package dev.abfleet.controller.security;

import java.util.Map;
import java.util.Optional;

/**
 * What each gRPC method requires, by full method name. A method missing here is refused
 * (MethodRolesTest walks the generated service descriptors so none is forgotten).
 */
public final class MethodRoles {

  /**
   * A method's requirement.
   *
   * @param role the least token role that may call it; null = a worker certificate only
   * @param workers whether a worker's certificate also grants it (the artifact calls workers make)
   */
  public record Need(Role role, boolean workers) {
    static final Need WORKER_CERTIFICATE = new Need(null, true);

    static Need role(Role role) {
      return new Need(role, false);
    }

    /** True for WorkerService/Connect: a certificate, not a role. */
    public boolean workerOnly() {
      return role == null;
    }
  }

  private static final Map<String, Need> TABLE = Map.ofEntries(
      Map.entry("fleet.v1.ExperimentService/GetExperiment", Need.role(Role.READ)),
      Map.entry("fleet.v1.ExperimentService/WatchExperiment", Need.role(Role.READ)),
      Map.entry("fleet.v1.ExperimentService/ListHosts", Need.role(Role.READ)),
      Map.entry("fleet.v1.ExperimentService/ListExperiments", Need.role(Role.READ)),
      Map.entry("fleet.v1.ExperimentService/SubmitExperiment", Need.role(Role.SUBMIT)),
      // Submit may cancel its own experiments only; ExperimentServiceImpl checks the owner.
      Map.entry("fleet.v1.ExperimentService/CancelExperiment", Need.role(Role.SUBMIT)),
      Map.entry("fleet.v1.BisectService/GetBisect", Need.role(Role.READ)),
      Map.entry("fleet.v1.BisectService/WatchBisect", Need.role(Role.READ)),
      Map.entry("fleet.v1.BisectService/ListBisects", Need.role(Role.READ)),
      Map.entry("fleet.v1.BisectService/StartBisect", Need.role(Role.SUBMIT)),
      // Submit may cancel its own bisects only; BisectServiceImpl checks the owner.
      Map.entry("fleet.v1.BisectService/CancelBisect", Need.role(Role.SUBMIT)),
      Map.entry("fleet.v1.BuildService/GetBuild", Need.role(Role.READ)),
      Map.entry("fleet.v1.BuildService/WatchBuild", Need.role(Role.READ)),
      Map.entry("fleet.v1.BuildService/SubmitBuild", Need.role(Role.SUBMIT)),
      Map.entry("fleet.v1.NightlyService/ListSchedules", Need.role(Role.READ)),
      Map.entry("fleet.v1.NightlyService/GetRun", Need.role(Role.READ)),
      Map.entry("fleet.v1.NightlyService/GetSeries", Need.role(Role.READ)),
      Map.entry("fleet.v1.NightlyService/TriggerSchedule", Need.role(Role.SUBMIT)),
      // Imported runs become history every reader sees and baselines last_accepted schedules use.
      Map.entry("fleet.v1.NightlyService/ImportHistory", Need.role(Role.SUBMIT)),
      // Overrides the gate for a held run and moves a last_accepted baseline; final.
      Map.entry("fleet.v1.NightlyService/DecideRun", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.NoiseService/ListNoise", Need.role(Role.READ)),
      // A merged record is quoted by every report of its class and cannot be taken back.
      Map.entry("fleet.v1.NoiseService/MergeNoise", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.FleetService/DrainHost", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.FleetService/UndrainHost", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.FleetService/ReleaseHost", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.ArtifactService/GetArtifactStatus", new Need(Role.READ, true)),
      Map.entry("fleet.v1.ArtifactService/FetchArtifact", new Need(Role.READ, true)),
      // Workers upload boot console logs; artifacts are content-addressed (sha256 checked).
      Map.entry("fleet.v1.ArtifactService/UploadArtifact", new Need(Role.SUBMIT, true)),
      Map.entry("fleet.v1.WorkerService/Connect", Need.WORKER_CERTIFICATE),
      Map.entry("fleet.v1.AuthService/CreateToken", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.AuthService/ListTokens", Need.role(Role.OPERATOR)),
      Map.entry("fleet.v1.AuthService/RevokeToken", Need.role(Role.OPERATOR)));

  private MethodRoles() {}

  /** The requirement of {@code fullMethodName}, e.g. "fleet.v1.FleetService/DrainHost". */
  public static Optional<Need> of(String fullMethodName) {
    return Optional.ofNullable(TABLE.get(fullMethodName));
  }

  /** Every method in the table. */
  public static java.util.Set<String> methods() {
    return TABLE.keySet();
  }
}
