package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RespFramerTests {

    private static final String STREAM = "+OK\r\n"
            + ":42\r\n"
            + "$5\r\nhello\r\n"
            + "$-1\r\n"
            + "*3\r\n$7\r\nmessage\r\n$4\r\nchan\r\n$1\r\n1\r\n"
            + ">3\r\n$9\r\nsubscribe\r\n$4\r\nchan\r\n:1\r\n"
            + ">4\r\n$8\r\npmessage\r\n$2\r\nc*\r\n$4\r\nchan\r\n$1\r\n1\r\n"
            + "%1\r\n+key\r\n*2\r\n:1\r\n_\r\n"
            + ">3\r\n$8\r\nsmessage\r\n$4\r\nchan\r\n$1\r\n1\r\n"
            + "-ERR bad\r\n";

    @Test
    void cutsRepliesIntoWholeFramesWhateverTheChunking() throws Exception {
        byte[] bytes = STREAM.getBytes(StandardCharsets.US_ASCII);
        for (int chunk = 1; chunk <= bytes.length; chunk++) {
            RespFramer framer = new RespFramer();
            List<String> frames = new ArrayList<>();
            for (int at = 0; at < bytes.length; at += chunk) {
                int count = Math.min(chunk, bytes.length - at);
                byte[] piece = new byte[count];
                System.arraycopy(bytes, at, piece, 0, count);
                framer.feed(piece, count).forEach(f -> frames.add(new String(f, StandardCharsets.US_ASCII)));
            }
            assertThat(String.join("", frames)).isEqualTo(STREAM);
            assertThat(frames).hasSize(10);
        }
    }

    @Test
    void recognisesPubSubDeliveriesOnly() throws Exception {
        byte[] bytes = STREAM.getBytes(StandardCharsets.US_ASCII);
        List<byte[]> frames = new RespFramer().feed(bytes, bytes.length);
        List<Boolean> deliveries = frames.stream().map(RespFramer::isPubSubMessage).toList();
        assertThat(deliveries).containsExactly(false, false, false, false, true, false, true, false, true, false);
    }

    @Test
    void rejectsWhatIsNotResp() {
        byte[] bytes = "hello\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThatExceptionOfType(RespFramer.NotRespException.class)
                .isThrownBy(() -> new RespFramer().feed(bytes, bytes.length));
    }
}
