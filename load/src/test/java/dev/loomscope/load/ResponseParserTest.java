package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Responses read as their bytes arrive, cut anywhere: every cut of the same bytes (one byte a read to all at once)
 * gives the same responses, the bytes after each left where the next one starts.
 */
class ResponseParserTest {
    private static final Target GET = Target.of("http://127.0.0.1:1/");

    private static final String RESPONSES = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nDate: Mon, 30 Nov 2026"
            + " 12:00:00 GMT\r\ncontent-LENGTH:  12 \r\n\r\nhello world!HTTP/1.1 201 Created\r\nTransfer-Encoding:"
            + " chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\nHTTP/1.1 204 No"
            + " Content\r\n\r\nHTTP/1.1 503 Busy\r\nContent-Length: +4\r\nConnection: close\r\n\r\nbusy";

    @Test
    void everyCutOfTheSameBytesGivesTheSameResponses() throws Exception {
        byte[] bytes = RESPONSES.getBytes(StandardCharsets.ISO_8859_1);
        for (int cut = 1; cut <= bytes.length; cut++) {
            List<String> read = new ArrayList<>();
            ResponseParser p = new ResponseParser();
            p.start(GET);
            ByteBuffer in = ByteBuffer.allocate(bytes.length + 10).limit(0);
            for (int at = 0; at < bytes.length; at += cut) {
                in.compact().put(bytes, at, Math.min(cut, bytes.length - at)).flip();
                while (in.hasRemaining() && p.feed(in)) {
                    read.add(p.code() + (p.keepAlive() ? " keep-alive" : " close"));
                    p.start(GET);
                }
            }
            assertThat(read)
                    .as("%d bytes a read", cut)
                    .containsExactly("200 keep-alive", "201 keep-alive", "204 keep-alive", "503 close");
            assertThat(in.hasRemaining()).isFalse();
        }
    }

    @Test
    void aLengthThatIsNoNumberIsAnError() {
        ResponseParser p = new ResponseParser();
        p.start(GET);
        ByteBuffer in =
                ByteBuffer.wrap("HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> p.feed(in)).isInstanceOf(NumberFormatException.class);
    }
}
