package dev.abfleet.controller.grpc;

import dev.abfleet.controller.plan.ArtifactRef;
import dev.abfleet.controller.plan.GuestSetup;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.BootSpec;
import dev.abfleet.proto.fleet.v1.VmShape;

import com.google.protobuf.InvalidProtocolBufferException;

/**
 * The one mapping between the wire's {@link BootSpec} and the controller's boot fields, both
 * ways: the kernel, initrd, command line and shape an arm and each of its runs carry
 * ({@code ArmSpec}, {@code RunPlan}), and the rest in {@link GuestSetup}. A new boot field is
 * added to the proto, to {@code GuestSetup}, here and in the worker ({@code BootSpecsTest} fails
 * while a field of the message does not survive this mapping).
 */
final class BootSpecs {
  private BootSpecs() {}

  /**
   * The arm's boot. A client older than BootSpec sent the same fields on the Arm itself, under
   * the numbers BootSpec keeps (now reserved on Arm): they arrive as unknown fields and read back
   * as its BootSpec.
   */
  static BootSpec of(Arm a) {
    if (a.hasBoot() || a.getUnknownFields().asMap().isEmpty()) {
      return a.getBoot();
    }
    try {
      return BootSpec.parseFrom(a.getUnknownFields().toByteString());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("arm " + a.getName() + ": its boot fields do not parse: " + e.getMessage(), e);
    }
  }

  static ArtifactRef kernel(BootSpec boot) {
    return artifact(boot.getKernel());
  }

  /** The arm's own initramfs; null = the built-in harness image. */
  static ArtifactRef initrd(BootSpec boot) {
    return boot.getInitrd().getSha256().isEmpty() ? null : artifact(boot.getInitrd());
  }

  static GuestSetup guest(BootSpec boot) {
    return new GuestSetup(boot.getShape().getPinVcpus(), boot.getModulesList(), boot.getModulesDir(),
        boot.getVolumeOptions(), boot.getArch(),
        boot.getGuestImage().getSha256().isEmpty() ? null : artifact(boot.getGuestImage()),
        boot.getModulesTree().getSha256().isEmpty() ? null : artifact(boot.getModulesTree()),
        boot.getVolumeTransport(), boot.getVolumeCache());
  }

  /** The wire's BootSpec of an arm, or of one boot of it. */
  static BootSpec toProto(ArtifactRef kernel, ArtifactRef initrd, String cmdlineExtra, int vcpus, int memoryMib,
      GuestSetup guest) {
    BootSpec.Builder b = BootSpec.newBuilder()
        .setKernel(artifact(kernel))
        .setCmdlineExtra(cmdlineExtra)
        .setShape(VmShape.newBuilder().setVcpus(vcpus).setMemoryMib(memoryMib).setPinVcpus(guest.pinVcpus()))
        .addAllModules(guest.modules())
        .setModulesDir(guest.modulesDir())
        .setVolumeOptions(guest.volumeOptions())
        .setVolumeTransport(guest.volumeTransport())
        .setVolumeCache(guest.volumeCache())
        .setArch(guest.arch());
    if (initrd != null) {
      b.setInitrd(artifact(initrd));
    }
    if (guest.guestImage() != null) {
      b.setGuestImage(artifact(guest.guestImage()));
    }
    if (guest.modulesTree() != null) {
      b.setModulesTree(artifact(guest.modulesTree()));
    }
    return b.build();
  }

  static Artifact artifact(ArtifactRef a) {
    return Artifact.newBuilder().setSha256(a.sha256()).setUri(a.uri()).setSizeBytes(a.sizeBytes()).build();
  }

  static ArtifactRef artifact(Artifact a) {
    return new ArtifactRef(a.getSha256(), a.getUri(), a.getSizeBytes());
  }
}
