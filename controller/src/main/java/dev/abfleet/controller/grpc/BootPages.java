package dev.abfleet.controller.grpc;

import com.google.protobuf.CodedOutputStream;
import dev.abfleet.proto.fleet.v1.Boot;
import dev.abfleet.proto.fleet.v1.Experiment;
import io.grpc.Status;
import java.util.List;

/**
 * Cuts an experiment's boots into pages that keep each answer under the gRPC message limit:
 * a long experiment (thousands of boots with samples) is larger than 4 MiB whole.
 */
final class BootPages {
  /** Bytes of boots in one answer at most, leaving room under 4 MiB for the rest. */
  static final int BOOT_BYTES_PER_PAGE = 3 << 20;

  private BootPages() {}

  /**
   * The page of {@code whole}'s boots starting at {@code token} (empty = the first): at most
   * {@code pageSize} boots (0 = no count limit) and at most {@code budgetBytes} of them, but at
   * least one; {@code next_boots_page_token} set when boots remain.
   *
   * @throws io.grpc.StatusRuntimeException INVALID_ARGUMENT for a token this never issued
   */
  static Experiment page(Experiment whole, int pageSize, String token, int budgetBytes) {
    int from = offset(token, whole.getBootsCount());
    List<Boot> boots = whole.getBootsList();
    int bytes = 0;
    int to = from;
    while (to < boots.size() && (pageSize == 0 || to - from < pageSize)) {
      // Each repeated element costs its tag and length prefix besides its bytes.
      int size = CodedOutputStream.computeMessageSize(8, boots.get(to));
      if (to > from && bytes + size > budgetBytes) {
        break;
      }
      bytes += size;
      to++;
    }
    if (from == 0 && to == boots.size()) {
      return whole;
    }
    return whole.toBuilder().clearBoots().addAllBoots(boots.subList(from, to))
        .setNextBootsPageToken(to < boots.size() ? Integer.toString(to) : "").build();
  }

  private static int offset(String token, int boots) {
    if (token.isEmpty()) {
      return 0;
    }
    try {
      int offset = Integer.parseInt(token);
      if (offset >= 0 && offset <= boots) {
        return offset;
      }
    } catch (NumberFormatException notANumber) {
      // Refused below with the same message.
    }
    throw Status.INVALID_ARGUMENT.withDescription("boots_page_token '" + token + "' is not one"
        + " this controller gave; pass next_boots_page_token of the previous answer, or empty"
        + " for the first page").asRuntimeException();
  }
}
