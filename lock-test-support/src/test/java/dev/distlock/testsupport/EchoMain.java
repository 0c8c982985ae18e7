package dev.distlock.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Run in a child JVM by {@link ChildJvmTests}: says ready, then echoes stdin lines until stdin closes. */
public final class EchoMain {

    private EchoMain() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("ready " + args[0]);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println("echo " + line);
            System.out.flush();
        }
    }
}
