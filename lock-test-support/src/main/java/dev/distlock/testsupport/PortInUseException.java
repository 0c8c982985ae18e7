package dev.distlock.testsupport;

/** The port was taken between choosing it and redis-server binding it. */
final class PortInUseException extends RedisServerException {

    private static final long serialVersionUID = 1L;

    PortInUseException(int port) {
        super("Port " + port + " is already in use");
    }
}
