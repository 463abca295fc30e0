package dev.abfleet.worker.guest;

import java.io.IOException;
import java.io.InputStream;

/** The guest module's files, packaged in its jar under dev/abfleet/guest/. */
final class Resources {

  static final String HARNESS_SOURCE = "dev/abfleet/guest/fleetbench.c";
  static final String INIT_SCRIPT = "dev/abfleet/guest/init";

  private Resources() {}

  static byte[] read(String name) throws GuestImageException {
    ClassLoader loader = Resources.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        throw new GuestImageException(
            "classpath resource " + name + " missing: the abfleet-guest jar is not on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new GuestImageException("cannot read classpath resource " + name + ": " + e, e);
    }
  }
}
