package dev.distlock.benchmarks.contention;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Counts what Redis executed, on the harness's own connection: {@link #reset()} is {@code CONFIG RESETSTAT},
 * {@link #snapshot()} reads {@code INFO commandstats} and {@code INFO cpu}. The command count is the sum of
 * {@code calls} over all commands, which in Redis 7 includes the commands a Lua script runs; the harness's own
 * {@code CONFIG} and {@code INFO} calls are left out.
 */
final class RedisStats implements AutoCloseable {

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private final RedisCommands<String, String> commands;

    RedisStats(RedisURI uri) {
        this.client = RedisClient.create(uri);
        this.connection = this.client.connect();
        this.commands = this.connection.sync();
    }

    /** Command count at the last reset where {@code CONFIG RESETSTAT} is not allowed (managed Redis), else 0. */
    private long baseline;

    private boolean resetAllowed = true;

    /**
     * Zeroes the command statistics: {@code CONFIG RESETSTAT}, or, where a managed Redis refuses {@code CONFIG},
     * remembers the count to subtract.
     */
    void reset() {
        if (this.resetAllowed) {
            try {
                this.commands.configResetstat();
                return;
            }
            catch (RedisCommandExecutionException refused) {
                this.resetAllowed = false;
            }
        }
        String commandstats = this.commands.info("commandstats");
        this.baseline = commandCalls(commandstats);
        this.baselinePerCommand = perCommand(commandstats);
    }

    /** Per-command counts at the last reset where {@code CONFIG RESETSTAT} is not allowed, else empty. */
    private Map<String, CommandStat> baselinePerCommand = Map.of();

    /** Commands executed and CPU seconds used by Redis since start (CPU) and since the last reset (commands). */
    Snapshot snapshot() {
        String commandstats = this.commands.info("commandstats");
        long calls = commandCalls(commandstats) - this.baseline;
        double cpu = cpuSeconds(this.commands.info("cpu"));
        Map<String, CommandStat> perCommand = new TreeMap<>();
        perCommand(commandstats).forEach((command, stat) -> perCommand.put(command,
                stat.minus(this.baselinePerCommand.getOrDefault(command, CommandStat.NONE))));
        return new Snapshot(calls, cpu, perCommand);
    }

    /**
     * Calls and server time ({@code usec}) per command, the harness's own {@code INFO}/{@code CONFIG} left out. The time
     * of a script's {@code EVALSHA} includes the commands it runs, which are also counted under their own names.
     */
    static Map<String, CommandStat> perCommand(String commandstats) {
        Map<String, CommandStat> stats = new TreeMap<>();
        for (String line : commandstats.split("\r?\n")) {
            if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info:")
                    || line.startsWith("cmdstat_config|")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            stats.put(command, new CommandStat(longField(line, "calls="), longField(line, "usec=")));
        }
        return stats;
    }

    private static long longField(String line, String name) {
        int start = line.indexOf(name) + name.length();
        int end = line.indexOf(',', start);
        return Long.parseLong(line.substring(start, (end < 0) ? line.length() : end));
    }

    /** The server's {@code redis_version}. */
    String version() {
        return field(this.commands.info("server"), "redis_version");
    }

    static long commandCalls(String commandstats) {
        long total = 0;
        for (String line : commandstats.split("\r?\n")) {
            if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info:")
                    || line.startsWith("cmdstat_config|")) {
                continue;
            }
            int start = line.indexOf("calls=") + "calls=".length();
            int end = line.indexOf(',', start);
            total += Long.parseLong(line.substring(start, end));
        }
        return total;
    }

    private static double cpuSeconds(String cpu) {
        return Double.parseDouble(field(cpu, "used_cpu_user")) + Double.parseDouble(field(cpu, "used_cpu_sys"));
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO has no field " + name + ": " + info);
    }

    @Override
    public void close() {
        this.connection.close();
        this.client.shutdown(0, 2, TimeUnit.SECONDS);
    }

    /** Counters read at one moment. */
    record Snapshot(long commands, double cpuSeconds, Map<String, CommandStat> perCommand) {
    }

    /** One command's calls and total server time in microseconds. */
    record CommandStat(long calls, long usec) {

        static final CommandStat NONE = new CommandStat(0, 0);

        CommandStat plus(CommandStat other) {
            return new CommandStat(this.calls + other.calls, this.usec + other.usec);
        }

        CommandStat minus(CommandStat other) {
            return new CommandStat(this.calls - other.calls, this.usec - other.usec);
        }
    }
}
