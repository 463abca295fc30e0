package dev.abfleet.cli.experiments;

import picocli.CommandLine.Command;

/**
 * {@code abfleet report ID}: a stored experiment's report, top-level because that is what one
 * asks for most; exactly {@code abfleet experiments show ID}, options included.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Print a stored experiment's report (as `abfleet experiments show ID`), e.g."
        + " --format html > report.html.")
public final class ReportCommand extends ShowExperimentCommand {}
