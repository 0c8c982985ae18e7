package dev.distlock.core.internal.scripts;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.core.internal.redis.LuaScript;
import org.junit.jupiter.api.Test;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each script's ARGV record agrees with the script's header: one line {@code -- ARGV[n] name: ...} per component, in
 * the component order and with its name ({@code WriteReleaseArgs} counts as the components of its {@code ReleaseArgs}
 * and then its own), and {@code argv()} gives one string per line. The headers number their KEYS and ARGV lines from 1
 * without gaps, and a script's body uses no KEYS[n] or ARGV[n] beyond them.
 */
class ScriptContractsTests {

    /** The scripts without ARGV. */
    record NoArgv() implements ScriptArgs {

        @Override
        public String[] argv() {
            return new String[0];
        }
    }

    private static final Map<LuaScript, Class<? extends ScriptArgs>> CONTRACTS = Map.ofEntries(
            entry(LuaScript.ACQUIRE, AcquireArgs.class), entry(LuaScript.TAKE, TakeArgs.class),
            entry(LuaScript.UNLOCK, UnlockArgs.class), entry(LuaScript.UNLOCK_TAKEN, UnlockTakenArgs.class),
            entry(LuaScript.RELEASE, ReleaseArgs.class),
            entry(LuaScript.MINT, MintArgs.class),
            entry(LuaScript.READ_ACQUIRE, ReadAcquireArgs.class), entry(LuaScript.READ_RELEASE, ReadReleaseArgs.class),
            entry(LuaScript.READ_ABANDON, ReadAbandonArgs.class), entry(LuaScript.WRITE_ACQUIRE, AcquireArgs.class),
            entry(LuaScript.WRITE_RELEASE, WriteReleaseArgs.class), entry(LuaScript.RENEW, RenewArgs.class),
            entry(LuaScript.RENEW_MEMBER, RenewArgs.class), entry(LuaScript.FORCE_RELEASE, ForceReleaseArgs.class),
            entry(LuaScript.INSPECT, NoArgv.class), entry(LuaScript.REDLOCK_ACQUIRE, RedLockAcquireArgs.class),
            entry(LuaScript.REDLOCK_FENCE, RedLockFenceArgs.class),
            entry(LuaScript.REDLOCK_RELEASE, RedLockReleaseArgs.class),
            entry(LuaScript.REDLOCK_ABANDON, RedLockAbandonArgs.class),
            entry(LuaScript.REDLOCK_FORCE_RELEASE, RedLockForceReleaseArgs.class),
            entry(LuaScript.SEMAPHORE_ACQUIRE, SemaphoreAcquireArgs.class),
            entry(LuaScript.SEMAPHORE_RELEASE, SemaphoreReleaseArgs.class),
            entry(LuaScript.SEMAPHORE_LEAVE, SemaphoreLeaveArgs.class),
            entry(LuaScript.SEMAPHORE_SET_PERMITS, SemaphoreSetPermitsArgs.class),
            entry(LuaScript.SEMAPHORE_INSPECT, NoArgv.class));

    private static final Pattern ARGV_LINE = Pattern.compile("^-- ARGV\\[(\\d+)\\] (\\w+): ");

    private static final Pattern KEYS_LINE = Pattern.compile("^-- KEYS\\[(\\d+)\\] ");

    @Test
    void everyScriptHasAContract() {
        assertThat(CONTRACTS.keySet()).containsExactlyInAnyOrderElementsOf(LuaScript.ALL);
    }

    @Test
    void everyRecordNamesItsScriptsArgvInHeaderOrder() {
        List<String> problems = new ArrayList<>();
        CONTRACTS.forEach((script, contract) -> {
            List<String> header = headerArgvNames(script, problems);
            List<String> components = componentNames(contract);
            if (!header.equals(components)) {
                problems.add(script.name() + ".lua header ARGV " + header + " but " + contract.getSimpleName() + " "
                        + components);
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void argvGivesOneStringPerHeaderLine() throws ReflectiveOperationException {
        for (Map.Entry<LuaScript, Class<? extends ScriptArgs>> contract : CONTRACTS.entrySet()) {
            String[] argv = ((ScriptArgs) sample(contract.getValue())).argv();
            assertThat(argv).as(contract.getValue().getSimpleName()).doesNotContainNull()
                .hasSize(headerArgvNames(contract.getKey(), new ArrayList<>()).size());
        }
    }

    @Test
    void headersNumberKeysAndArgvWithoutGapsAndCoverTheBody() {
        List<String> problems = new ArrayList<>();
        for (LuaScript script : LuaScript.ALL) {
            int keys = 0;
            int argv = 0;
            for (String line : header(script)) {
                Matcher key = KEYS_LINE.matcher(line);
                if (key.find() && Integer.parseInt(key.group(1)) != ++keys) {
                    problems.add(script.name() + ": KEYS line out of order: " + line);
                }
                if (line.startsWith("-- ARGV[")) {
                    argv++;
                }
            }
            checkUses(script, "KEYS", keys, problems);
            checkUses(script, "ARGV", argv, problems);
        }
        assertThat(problems).isEmpty();
    }

    private static void checkUses(LuaScript script, String table, int declared, List<String> problems) {
        Matcher use = Pattern.compile(table + "\\[(\\d+)\\]").matcher(code(script));
        while (use.find()) {
            if (Integer.parseInt(use.group(1)) > declared) {
                problems.add(script.name() + " uses " + use.group() + " but its header declares " + declared);
            }
        }
    }

    private static List<String> headerArgvNames(LuaScript script, List<String> problems) {
        List<String> names = new ArrayList<>();
        for (String line : header(script)) {
            if (!line.startsWith("-- ARGV[")) {
                continue;
            }
            Matcher argv = ARGV_LINE.matcher(line);
            if (!argv.find()) {
                problems.add(script.name() + ": ARGV line without 'name: ': " + line);
            }
            else if (Integer.parseInt(argv.group(1)) != names.size() + 1) {
                problems.add(script.name() + ": ARGV line out of order: " + line);
            }
            else {
                names.add(argv.group(2));
            }
        }
        return names;
    }

    /** The comment lines a script starts with, up to its first include or code line. */
    private static List<String> header(LuaScript script) {
        List<String> lines = new ArrayList<>();
        for (String line : script.body().split("\n")) {
            if (!line.startsWith("--") || line.startsWith("--@include")) {
                break;
            }
            lines.add(line);
        }
        return lines;
    }

    /** The script's lines without comments (includes expanded). */
    private static String code(LuaScript script) {
        StringBuilder code = new StringBuilder();
        for (String line : script.body().split("\n")) {
            int comment = line.indexOf("--");
            code.append((comment < 0) ? line : line.substring(0, comment)).append('\n');
        }
        return code.toString();
    }

    /** The record's component names, a component that is itself a record counted as its components. */
    private static List<String> componentNames(Class<?> record) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : record.getRecordComponents()) {
            if (component.getType().isRecord()) {
                names.addAll(componentNames(component.getType()));
            }
            else {
                names.add(component.getName());
            }
        }
        return names;
    }

    private static Object sample(Class<?> record) throws ReflectiveOperationException {
        RecordComponent[] components = record.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            Class<?> type = components[i].getType();
            types[i] = type;
            values[i] = type.isRecord() ? sample(type) : (type == String.class) ? "s" + i
                    : (type == long.class) ? (long) i + 1 : (type == int.class) ? i + 1
                    : (type == boolean.class) ? true : type.getEnumConstants()[0];
        }
        Constructor<?> constructor = record.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return constructor.newInstance(values);
    }
}
