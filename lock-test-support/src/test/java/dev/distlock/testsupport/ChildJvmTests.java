package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ChildJvmTests {

    @Test
    void childEchoesStdinAndFreezesUnderSigstopAndDiesUnderSigkill() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        try (ChildJvm child = ChildJvm.start("echo", EchoMain.class.getName(), ChildJvm.SMALL_JVM, List.of("hi"),
                lines::add)) {
            assertThat(lines.poll(20, TimeUnit.SECONDS)).isEqualTo("ready hi");
            child.send("one");
            assertThat(lines.poll(5, TimeUnit.SECONDS)).isEqualTo("echo one");

            child.pause();
            child.send("two");
            assertThat(lines.poll(300, TimeUnit.MILLISECONDS)).as("a stopped child answers nothing").isNull();
            child.resume();
            assertThat(lines.poll(5, TimeUnit.SECONDS)).isEqualTo("echo two");

            long pid = child.pid();
            child.kill9();
            assertThat(child.isAlive()).isFalse();
            assertThat(Processes.isAlive(pid)).isFalse();
        }
        Processes.assertNoneLeft();
    }

    @Test
    void closeEndsAPausedChild() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ChildJvm child = ChildJvm.start("paused", EchoMain.class.getName(), ChildJvm.SMALL_JVM, List.of("x"),
                lines::add);
        assertThat(lines.poll(20, TimeUnit.SECONDS)).isEqualTo("ready x");
        child.pause();
        child.close();
        assertThat(child.awaitExit(Duration.ofSeconds(1))).isTrue();
        Processes.assertNoneLeft();
    }
}
