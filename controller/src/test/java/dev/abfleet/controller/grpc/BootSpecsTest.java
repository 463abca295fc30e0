package dev.abfleet.controller.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.BootSpec;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import org.junit.jupiter.api.Test;

class BootSpecsTest {

  @Test
  void everyFieldOfTheBootSpecSurvivesTheMappingToTheDomainAndBack() {
    BootSpec every = (BootSpec) filled(BootSpec.newBuilder());

    BootSpec back = BootSpecs.toProto(BootSpecs.kernel(every), BootSpecs.initrd(every), every.getCmdlineExtra(),
        every.getShape().getVcpus(), every.getShape().getMemoryMib(), BootSpecs.guest(every));

    assertThat(back).as("a BootSpec field the controller's domain drops: map it in BootSpecs and GuestSetup")
        .isEqualTo(every);
  }

  @Test
  void anArmBuiltThroughTheDomainCarriesTheSameBoot() {
    BootSpec every = (BootSpec) filled(BootSpec.newBuilder());
    Arm arm = Arm.newBuilder().setName("b").setRole("baseline").setBoot(every).build();

    var spec = ProtoToDomain.spec(dev.abfleet.proto.fleet.v1.ExperimentSpec.newBuilder().addArms(arm).build());

    assertThat(DomainToProto.spec(spec).getArms(0).getBoot()).isEqualTo(every);
  }

  /** Every field set to a value other than its default, nested messages included. */
  private static Message filled(Message.Builder b) {
    for (FieldDescriptor f : b.getDescriptorForType().getFields()) {
      Object value = switch (f.getJavaType()) {
        case STRING -> f.getName() + "-value";
        case INT -> 7 + f.getNumber();
        case LONG -> 4096L + f.getNumber();
        case BOOLEAN -> true;
        case DOUBLE -> 0.5;
        case FLOAT -> 0.25f;
        case ENUM -> f.getEnumType().getValues().get(f.getEnumType().getValues().size() - 1);
        case MESSAGE -> filled(b.newBuilderForField(f));
        default -> throw new AssertionError("no test value for " + f.getFullName() + " (" + f.getJavaType() + ")");
      };
      if (f.isRepeated()) {
        b.addRepeatedField(f, value);
      } else {
        b.setField(f, value);
      }
    }
    return b.build();
  }
}
