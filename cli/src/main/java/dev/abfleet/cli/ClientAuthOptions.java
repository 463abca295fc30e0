package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.worker.link.ChannelSecurity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The --ca and --token-file options of every command that talks to a controller. Without --ca
 * (or ABFLEET_CA) a loopback controller is reached in plaintext and any other over TLS with the
 * JDK's default trust; the token goes with every call.
 */
public final class ClientAuthOptions {
  @Option(names = "--ca", paramLabel = "FILE",
      description = "CA certificate (PEM) that signed the controller's: TLS trusting it (env ABFLEET_CA)."
          + " Without it: plaintext to a loopback controller, TLS with the system's trust to others.")
  Path ca;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "File holding the API token to send (env ABFLEET_TOKEN holds the token itself);"
          + " `abfleet tokens create` makes one.")
  Path tokenFile;

  /**
   * The channel security these options and the environment ask for.
   *
   * @throws Problem naming an unreadable or empty file
   */
  public ChannelSecurity security() {
    Path caFile = ca != null ? ca : envPath("ABFLEET_CA");
    if (caFile != null && !Files.isReadable(caFile)) {
      throw new Problem((ca != null ? "--ca " : "ABFLEET_CA ") + caFile
          + ": no such readable file; pass the CA certificate (ca.pem of `abfleet certs init`)");
    }
    return ChannelSecurity.client(caFile, token());
  }

  private String token() {
    if (tokenFile != null) {
      try {
        String t = Files.readString(tokenFile).strip();
        if (t.isEmpty()) {
          throw new Problem("--token-file " + tokenFile + " is empty; put the token"
              + " `abfleet tokens create` printed in it");
        }
        return t;
      } catch (IOException e) {
        throw new Problem("--token-file " + tokenFile + ": cannot read it (" + e.getMessage()
            + "); pass a file holding an API token");
      }
    }
    String env = System.getenv("ABFLEET_TOKEN");
    return env == null || env.isBlank() ? null : env.strip();
  }

  private static Path envPath(String name) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? null : Path.of(v);
  }
}
