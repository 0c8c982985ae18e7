package dev.distlock.testsupport;

/**
 * Run in a child JVM by {@link ReaperTests}: starts a server, prints its pid and directory, and exits without
 * stopping it, like a test that forgot to.
 */
public final class ForgetfulMain {

    private ForgetfulMain() {
    }

    public static void main(String[] args) {
        RedisServer server = RedisServer.start();
        System.out.println("pid=" + server.pid());
        System.out.println("dir=" + server.directory());
        System.out.flush();
    }
}
