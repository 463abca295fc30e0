package dev.abfleet.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The browser helper itself: it must see what a broken page writes to its console. */
class HeadlessChromiumTest {

  @Test
  void reportsAConsoleErrorAndAnUncaughtExceptionOfThePage(@TempDir Path dir) throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    Path page = dir.resolve("broken.html");
    Files.writeString(page, "<!DOCTYPE html><html><head><title>broken</title></head><body><p>x</p>"
        + "<script>console.error('deliberate console error'); undefinedFunction();</script>"
        + "</body></html>");

    HeadlessChromium.Page p = browser.load(page, "helper-broken");

    assertThat(p.console()).hasSize(2);
    assertThat(p.console().get(0)).contains("deliberate console error");
    assertThat(p.console().get(1)).contains("Uncaught ReferenceError: undefinedFunction is not defined");
    assertThat(p.dom()).contains("<p>x</p>");
  }

  @Test
  void aCleanPageHasNoConsoleLinesAndAScreenshot(@TempDir Path dir) throws Exception {
    HeadlessChromium browser = HeadlessChromium.require();
    Path page = dir.resolve("clean.html");
    Files.writeString(page, "<!DOCTYPE html><html><head><title>clean</title></head><body>"
        + "<p id=\"ok\">fine</p></body></html>");

    HeadlessChromium.Page p = browser.load(page, "helper-clean");

    assertThat(p.console()).as(p.stderr()).isEmpty();
    assertThat(p.dom()).contains("<p id=\"ok\">fine</p>");
    assertThat(p.screenshot()).isNotEmptyFile();
  }

  @Test
  void browserNoiseIsNotThePagesConsole() {
    String stderr = """
        [19021:19050:1203/112243.642666:ERROR:dbus/bus.cc:405] Failed to connect to the bus: No such file
        [19074:19074:1203/112244.497184:WARNING:media/gpu/vaapi/vaapi_wrapper.cc:1655] drmGetDevices2() has not found any devices
        [19021:19021:1203/112245.682549:INFO:CONSOLE:2] "deliberate console error", source: file:///tmp/bad.html (2)
        """;

    assertThat(HeadlessChromium.console(stderr)).containsExactly(
        "[19021:19021:1203/112245.682549:INFO:CONSOLE:2] \"deliberate console error\", source: file:///tmp/bad.html (2)");
  }

  @Test
  void commandLineIsHeadlessWithoutSandboxAndDumpsTheDom() {
    assertThat(HeadlessChromium.argv(Path.of("/usr/bin/chromium"), Path.of("/r/a b.html"),
        Path.of("/tmp/p"), Path.of("/s/x.png"))).containsExactly("/usr/bin/chromium", "--headless",
        "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--user-data-dir=/tmp/p",
        "--screenshot=/s/x.png", "--window-size=1200,2400", "--dump-dom", "file:///r/a%20b.html");
  }

  @Test
  void findsChromiumOnThePathOnly(@TempDir Path dir) throws Exception {
    assertThat(HeadlessChromium.find(dir.toString())).isEmpty();
    Path bin = Files.createFile(dir.resolve("chromium"));
    assertThat(bin.toFile().setExecutable(true)).isTrue();
    assertThat(HeadlessChromium.find("/nonexistent:" + dir)).contains(bin);
    assertThat(HeadlessChromium.find(null)).isEqualTo(java.util.Optional.empty());
  }
}
