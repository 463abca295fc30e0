package dev.abfleet.cli.sim;

import dev.abfleet.config.Problem;
import dev.abfleet.worker.link.ChannelSecurity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The worker certificates of {@code abfleet sim-fleet}: how each simulated host secures its
 * channel to a controller that serves TLS.
 *
 * <p>The controller binds a worker certificate to exactly one host id (its URI SAN
 * {@code urn:abfleet:host:ID} or CN must equal the id the worker says hello with), so one
 * certificate serves one simulated host. With several hosts, {@code --cert} and {@code --key}
 * name a file per host through the placeholder {@value #HOST}, which is replaced by each host id:
 * {@code --cert certs/{host}.pem --key certs/{host}-key.pem} are the files {@code abfleet certs
 * issue --worker ID --dir certs} writes.
 */
public final class SimCertificates {
  /** Replaced by each simulated host's id in --cert and --key. */
  public static final String HOST = "{host}";

  private SimCertificates() {}

  /**
   * Each host id's channel security: {@code client} (CA and token) alone without a certificate,
   * else with the host's certificate and key.
   *
   * @param hostIds every host id of the fleet, to check that each one's files are readable
   * @throws Problem naming the missing flag, the unreadable file, or a certificate that would
   *     have to serve several hosts
   */
  public static Function<String, ChannelSecurity> of(ChannelSecurity client, String cert, String key,
      List<String> hostIds) {
    if (cert == null && key == null) {
      return host -> client;
    }
    if (cert == null || key == null) {
      throw new Problem((cert == null ? "--key without --cert" : "--cert without --key")
          + "; a simulated worker's certificate needs both (`abfleet certs issue --worker HOST_ID`"
          + " writes HOST_ID.pem and HOST_ID-key.pem)");
    }
    if (client.ca() == null) {
      throw new Problem("--cert without --ca; pass the fleet's CA certificate (ca.pem of"
          + " `abfleet certs init`) so the workers can check the controller's certificate");
    }
    if (cert.contains(HOST) != key.contains(HOST)) {
      throw new Problem("--cert " + cert + " and --key " + key + ": use " + HOST + " in both or"
          + " in neither (e.g. --cert certs/" + HOST + ".pem --key certs/" + HOST + "-key.pem)");
    }
    if (!cert.contains(HOST) && hostIds.size() > 1) {
      throw new Problem("--cert " + cert + " for " + hostIds.size() + " workers: a worker"
          + " certificate names one host id; issue one per host (`abfleet certs issue --worker "
          + hostIds.get(0) + "`, ...) and pass --cert DIR/" + HOST + ".pem --key DIR/" + HOST
          + "-key.pem, or run --workers 1");
    }
    for (String host : hostIds) {
      readable("--cert", cert, host);
      readable("--key", key, host);
    }
    return host -> new ChannelSecurity(client.ca(), Path.of(expand(cert, host)),
        Path.of(expand(key, host)), client.token());
  }

  private static void readable(String flag, String pattern, String host) {
    Path file = Path.of(expand(pattern, host));
    if (!Files.isReadable(file)) {
      throw new Problem(flag + " " + file + ": no such readable file for host " + host
          + "; `abfleet certs issue --worker " + host + "` makes it");
    }
  }

  private static String expand(String pattern, String host) {
    return pattern.replace(HOST, host);
  }
}
