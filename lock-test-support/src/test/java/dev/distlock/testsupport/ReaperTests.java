package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ReaperTests {

    @Test
    void serversAreKilledWhenTheJvmExitsWithoutStoppingThem() throws IOException, InterruptedException {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ForgetfulMain.class.getName())
                .redirectErrorStream(true)
                .start();
        child.getOutputStream().close();
        try {
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child JVM exited").isTrue();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.exitValue()).as(output).isZero();

            long pid = Long.parseLong(value(output, "pid="));
            Path dir = Paths.get(value(output, "dir="));
            Processes.assertDead(List.of(pid));
            assertThat(dir).doesNotExist();
        } finally {
            child.destroyForcibly();
        }
    }

    private static String value(String output, String prefix) {
        return output.lines().filter(line -> line.startsWith(prefix)).findFirst()
                .map(line -> line.substring(prefix.length()).trim())
                .orElseThrow(() -> new AssertionError("no " + prefix + " in child output:\n" + output));
    }
}
