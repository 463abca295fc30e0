package dev.abfleet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.abfleet.config.FleetConfigLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** A standalone controller without TLS says so as a warning, naming the setting and the fix. */
class PlaintextWarningTest {
  @TempDir Path home;
  private final Logger logger = (Logger) LoggerFactory.getLogger(ControllerConfigs.class);
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  @BeforeEach
  void capture() {
    events.start();
    logger.addAppender(events);
  }

  @AfterEach
  void release() {
    logger.detachAppender(events);
  }

  @Test
  void warnsWhenTheControllerServesPlaintext() {
    ControllerConfigs.security(FleetConfigLoader.embeddedDefault(), true, "127.0.0.1", home);

    assertThat(events.list).singleElement().satisfies(e -> {
      assertThat(e.getLevel()).isEqualTo(Level.WARN);
      assertThat(e.getFormattedMessage()).startsWith("gRPC on 127.0.0.1 is plaintext without client authentication"
          + " (--plaintext)").contains("set controller.tls");
    });
  }
}
