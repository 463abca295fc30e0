package dev.abfleet.cli.analyze.samples;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 input, numbered from 1, ended by '\n' (a '\r' before it is dropped).
 * Each line is decoded on its own, so a line that is not UTF-8 is reported with its number and
 * the next line is read normally. A line longer than {@link #MAX_LINE_BYTES} ends the input: no
 * sample is that long, and a file without line breaks (a binary, /dev/zero) must not fill the
 * memory.
 */
public final class TextLines implements Closeable {
  public static final int MAX_LINE_BYTES = 1 << 20;

  /** A line: its text, or (text null) why it cannot be read. */
  public record Line(long number, String text, String problem) {}

  private final InputStream in;
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder(); // reports bad input
  private final byte[] buf = new byte[64 * 1024];
  private int pos;
  private int end;
  private byte[] line = new byte[256];
  private long number;
  private boolean done;

  public TextLines(InputStream in) {
    this.in = in;
  }

  public static TextLines of(String text) {
    return new TextLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** The next line, or null at the end of the input. */
  public Line next() throws IOException {
    if (done) {
      return null;
    }
    int len = 0;
    while (true) {
      if (pos == end) {
        end = in.read(buf);
        pos = 0;
        if (end <= 0) {
          end = 0;
          done = true;
          return len == 0 ? null : decode(len);
        }
      }
      int nl = pos;
      while (nl < end && buf[nl] != '\n') {
        nl++;
      }
      int chunk = nl - pos;
      if (len + chunk > MAX_LINE_BYTES) {
        done = true;
        return new Line(++number, null, "longer than " + (MAX_LINE_BYTES >> 20) + " MiB without a line"
            + " break; analyze reads one sample per line (is this the right file?)");
      }
      if (len + chunk > line.length) {
        line = Arrays.copyOf(line, Math.min(MAX_LINE_BYTES, Math.max(2 * line.length, len + chunk)));
      }
      System.arraycopy(buf, pos, line, len, chunk);
      len += chunk;
      pos = nl;
      if (nl < end) {
        pos++;
        return decode(len);
      }
    }
  }

  private Line decode(int len) {
    number++;
    if (len > 0 && line[len - 1] == '\r') {
      len--;
    }
    try {
      return new Line(number,
          utf8.decode(ByteBuffer.wrap(line, 0, len)).toString(), null);
    } catch (CharacterCodingException e) {
      return new Line(number, null,
          "not UTF-8 text; save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)");
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
