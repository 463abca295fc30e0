package dev.abfleet.cli.tokens;

import dev.abfleet.cli.ClientAuthOptions;
import dev.abfleet.cli.ControllerAddress;
import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.AuthServiceGrpc;
import dev.abfleet.proto.fleet.v1.CreateTokenRequest;
import dev.abfleet.proto.fleet.v1.CreatedToken;
import dev.abfleet.proto.fleet.v1.ListTokensRequest;
import dev.abfleet.proto.fleet.v1.RevokeTokenRequest;
import dev.abfleet.proto.fleet.v1.TokenInfo;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code abfleet tokens create|list|revoke}: API tokens, through the controller's AuthService. */
@Command(name = "tokens", mixinStandardHelpOptions = true,
    description = "Create, list and revoke API tokens (needs an operator token).",
    subcommands = {TokensCommand.Create.class, TokensCommand.ListTokens.class, TokensCommand.Revoke.class})
public final class TokensCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    throw new Problem("tokens: missing subcommand; use create, list or revoke (see: abfleet tokens --help)");
  }

  /** The --controller, --ca and --token-file options of every subcommand. */
  static final class Target {
    @Option(names = "--controller", defaultValue = "127.0.0.1:7070", paramLabel = "HOST:PORT[,...]",
        description = "Controller gRPC address (default: ${DEFAULT-VALUE}).")
    String controller;

    @Mixin ClientAuthOptions auth;

    /** Runs {@code call}; INVALID_ARGUMENT and NOT_FOUND are the user's to fix (one line, exit 2). */
    <T> T call(Function<AuthServiceGrpc.AuthServiceBlockingStub, T> call) {
      String target = ControllerAddress.check(controller, auth);
      ManagedChannel channel = ControllerAddress.channel(target);
      try {
        return call.apply(AuthServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS));
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        if (code == Status.Code.INVALID_ARGUMENT || code == Status.Code.NOT_FOUND) {
          throw new Problem(e.getStatus().getDescription());
        }
        throw e;
      } finally {
        channel.shutdownNow();
      }
    }
  }

  /** {@code abfleet tokens create}. */
  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create a token and print it (once: the controller keeps only a hash).")
  static final class Create implements Callable<Integer> {
    @Mixin Target target;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "Who uses it, e.g. ci-nightly.")
    String name;

    @Option(names = "--role", required = true, paramLabel = "ROLE",
        description = "read (list, show, watch), submit (+ submit, cancel own), operator (+ hosts, tokens, cancel any).")
    String role;

    @Option(names = "--output", paramLabel = "FILE",
        description = "Write the token to FILE, created new and readable by its owner only (mode 0600), instead of"
            + " printing it. A shell redirect (> FILE) makes the file with the umask, often world-readable.")
    Path output;

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
      if (output != null) {
        TokenFiles.checkNew(output);
      }
      CreatedToken t = target.call(stub -> stub.createToken(
          CreateTokenRequest.newBuilder().setName(name).setRole(role).build()));
      String created = "abfleet: token " + t.getId() + " (" + t.getName() + ", role " + t.getRole() + ") created";
      if (output != null) {
        TokenFiles.write(output, t.getToken());
        err.println(created + "; written to " + output + " (mode 0600); pass it with --token-file " + output);
        return ExitCodes.OK;
      }
      err.println(created + "; it is shown once, store it now (e.g. with --output FILE, a file only you can read,"
          + " for --token-file)");
      out.println(t.getToken());
      return ExitCodes.OK;
    }
  }

  /** {@code abfleet tokens list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List tokens (never their secrets).")
  static final class ListTokens implements Callable<Integer> {
    @Mixin Target target;

    PrintStream out = System.out;

    @Override
    public Integer call() {
      var tokens = target.call(stub -> stub.listTokens(ListTokensRequest.getDefaultInstance()));
      out.printf("%-12s  %-8s  %-20s  %-20s  %s%n", "ID", "ROLE", "CREATED", "REVOKED", "NAME");
      for (TokenInfo t : tokens.getTokensList()) {
        out.printf("%-12s  %-8s  %-20s  %-20s  %s%n", t.getId(), t.getRole(), time(t.getCreatedAtMs()),
            t.getRevokedAtMs() == 0 ? "-" : time(t.getRevokedAtMs()), t.getName());
      }
      return ExitCodes.OK;
    }

    private static String time(long ms) {
      return Instant.ofEpochMilli(ms).toString().replaceFirst("\\.\\d+Z$", "Z");
    }
  }

  /** {@code abfleet tokens revoke}. */
  @Command(name = "revoke", mixinStandardHelpOptions = true,
      description = "Revoke a token: every controller node refuses it from the next call.")
  static final class Revoke implements Callable<Integer> {
    @Mixin Target target;

    @Parameters(paramLabel = "ID", description = "The token's id (as tokens list shows it).")
    String id;

    PrintStream out = System.out;

    @Override
    public Integer call() {
      TokenInfo t = target.call(stub -> stub.revokeToken(RevokeTokenRequest.newBuilder().setId(id).build()));
      out.println("token " + t.getId() + " (" + t.getName() + ", role " + t.getRole() + ") revoked");
      return ExitCodes.OK;
    }
  }
}
