package dev.abfleet.cli.certs;

import dev.abfleet.cli.ExitCodes;
import dev.abfleet.config.Problem;
import dev.abfleet.controller.ControllerSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code abfleet certs init|issue}: a fleet's small CA and the certificates it signs. */
@Command(name = "certs", mixinStandardHelpOptions = true,
    description = "Make a CA for the fleet and the controller's and workers' certificates (PEM, EC P-256).",
    subcommands = {CertsCommand.Init.class, CertsCommand.Issue.class})
public final class CertsCommand implements Callable<Integer> {
  static final String CA = "ca.pem";
  static final String CA_KEY = "ca-key.pem";
  private static final String NAME = "[A-Za-z0-9_.-]{1,128}";

  @Override
  public Integer call() {
    throw new Problem("certs: missing subcommand; use init or issue (see: abfleet certs --help)");
  }

  static Path dir(Path given) {
    return given != null ? given : ControllerSettings.abfleetHome().resolve("certs");
  }

  static Duration days(int days) {
    if (days < 1 || days > 36_500) {
      throw new Problem("--days " + days + ": expected 1 to 36500");
    }
    return Duration.ofDays(days);
  }

  static void refuseOverwrite(Path file, boolean force) {
    if (Files.exists(file) && !force) {
      throw new Problem(file + " exists; pass --force to replace it");
    }
  }

  /** {@code abfleet certs init}. */
  @Command(name = "init", mixinStandardHelpOptions = true,
      description = "Create the fleet's CA: DIR/ca.pem and DIR/ca-key.pem (0600).")
  static final class Init implements Callable<Integer> {
    @Option(names = "--dir", paramLabel = "DIR", description = "Where the files go (default: $ABFLEET_HOME/certs).")
    Path dir;

    @Option(names = "--days", defaultValue = "3650", paramLabel = "N", description = "Validity in days (default: ${DEFAULT-VALUE}).")
    int days;

    @Option(names = "--force", description = "Replace an existing CA (certificates it signed stop being trusted).")
    boolean force;

    PrintStream out = System.out;

    @Override
    public Integer call() {
      Path d = dir(dir);
      Duration validity = days(days);
      refuseOverwrite(d.resolve(CA), force);
      CertificateAuthority ca = CertificateAuthority.create(validity);
      try {
        Pem.writeKey(d.resolve(CA_KEY), ca.key());
        Pem.writeCertificate(d.resolve(CA), ca.certificate());
      } catch (IOException e) {
        throw new Problem("cannot write the CA into " + d + ": " + e.getMessage() + "; choose another --dir");
      }
      out.println("CA: " + d.resolve(CA) + " (key " + d.resolve(CA_KEY) + ", keep it private), valid "
          + days + " days");
      return ExitCodes.OK;
    }
  }

  /** {@code abfleet certs issue}. */
  @Command(name = "issue", mixinStandardHelpOptions = true,
      description = {"Issue a certificate signed by the CA in DIR:",
          "  --controller NAME --san HOST,...  server certificate NAME.pem + NAME-key.pem",
          "  --worker HOST_ID                  client certificate HOST_ID.pem + HOST_ID-key.pem"})
  static final class Issue implements Callable<Integer> {
    @Option(names = "--controller", paramLabel = "NAME", description = "A controller's server certificate.")
    String controller;

    @Option(names = "--san", paramLabel = "HOST,...", split = ",",
        description = "With --controller: the DNS names and IP addresses clients use to reach it.")
    List<String> sans = new ArrayList<>();

    @Option(names = "--worker", paramLabel = "HOST_ID", description = "A worker's client certificate for this host id.")
    String worker;

    @Option(names = "--dir", paramLabel = "DIR", description = "The CA's directory; the files go there too (default: $ABFLEET_HOME/certs).")
    Path dir;

    @Option(names = "--days", defaultValue = "825", paramLabel = "N", description = "Validity in days (default: ${DEFAULT-VALUE}).")
    int days;

    @Option(names = "--force", description = "Replace existing files of the same name.")
    boolean force;

    PrintStream out = System.out;

    @Override
    public Integer call() {
      if ((controller == null) == (worker == null)) {
        throw new Problem("certs issue: pass exactly one of --controller NAME or --worker HOST_ID");
      }
      String name = controller != null ? controller : worker;
      String flag = controller != null ? "--controller" : "--worker";
      if (!name.matches(NAME)) {
        throw new Problem(flag + " '" + name + "' may only use letters, digits, '_', '.', '-'");
      }
      if (controller != null && sans.isEmpty()) {
        throw new Problem("--controller needs --san: the names and addresses clients use, e.g."
            + " --san 127.0.0.1,localhost,controller.example.org");
      }
      if (worker != null && !sans.isEmpty()) {
        throw new Problem("--san is for --controller; a worker certificate names its host id only");
      }
      Duration validity = days(days);
      Path d = dir(dir);
      Path certFile = d.resolve(name + ".pem");
      Path keyFile = d.resolve(name + "-key.pem");
      refuseOverwrite(certFile, force);
      CertificateAuthority ca = load(d);
      CertificateAuthority.Issued issued;
      try {
        issued = controller != null ? ca.issueServer(name, sans, validity) : ca.issueWorker(name, validity);
      } catch (IllegalArgumentException e) {
        throw new Problem(e.getMessage());
      }
      try {
        Pem.writeKey(keyFile, issued.key());
        Pem.writeCertificate(certFile, issued.certificate());
      } catch (IOException e) {
        throw new Problem("cannot write " + certFile + ": " + e.getMessage());
      }
      out.println((controller != null ? "controller" : "worker") + " certificate: " + certFile
          + " (key " + keyFile + "), " + (controller != null ? "SANs " + String.join(",", sans)
              : "host id " + name) + ", valid " + days + " days");
      return ExitCodes.OK;
    }

    private static CertificateAuthority load(Path d) {
      Path caFile = d.resolve(CA);
      if (!Files.exists(caFile) || !Files.exists(d.resolve(CA_KEY))) {
        throw new Problem("no CA in " + d + " (" + CA + ", " + CA_KEY + "); run `abfleet certs init"
            + " --dir " + d + "` first, or pass the CA's --dir");
      }
      try {
        return new CertificateAuthority(Pem.readCertificate(caFile), Pem.readEcKey(d.resolve(CA_KEY)));
      } catch (IOException e) {
        throw new Problem("cannot read the CA in " + d + ": " + e.getMessage());
      }
    }
  }
}
