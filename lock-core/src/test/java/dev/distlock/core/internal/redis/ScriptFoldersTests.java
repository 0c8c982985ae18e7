package dev.distlock.core.internal.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The script files as {@link LuaScript} names them: a folder per lock family plus {@code lib/}, every file name
 * distinct across the folders, and no script file that no {@link LuaScript} loads (a file left behind keeps a header
 * that no caller matches any more).
 */
class ScriptFoldersTests {

    private static final Path ROOT = Path.of("src/main/resources/" + LuaScript.ROOT);

    private static final Set<String> FOLDERS = Set.of("queued", "readwrite", "redlock", "semaphore", "common", "lib");

    @Test
    void everyScriptLivesInAFamilyFolder() throws IOException {
        assertThat(scripts()).allSatisfy((path) -> assertThat(FOLDERS).as(path.toString())
            .contains(ROOT.relativize(path).getParent() == null ? "" : ROOT.relativize(path).getParent().toString()));
    }

    @Test
    void everyFileNameIsDistinctAcrossTheFolders() throws IOException {
        List<String> names = scripts().stream().map((path) -> path.getFileName().toString()).toList();
        assertThat(names).doesNotHaveDuplicates();
    }

    @Test
    void everyScriptFileOutsideLibIsLoaded() throws IOException {
        List<String> files = scripts().stream()
            .map((path) -> ROOT.relativize(path).toString().replace('\\', '/').replace(".lua", ""))
            .filter((name) -> !name.startsWith("lib/"))
            .toList();
        assertThat(LuaScript.ALL.stream().map(LuaScript::name).toList()).containsExactlyInAnyOrderElementsOf(files);
    }

    private static List<Path> scripts() throws IOException {
        assertThat(ROOT).as("run from the lock-core module directory").isDirectory();
        try (Stream<Path> files = Files.walk(ROOT)) {
            List<Path> scripts = files.filter((path) -> path.toString().endsWith(".lua")).toList();
            assertThat(scripts).hasSizeGreaterThan(LuaScript.ALL.size());
            return scripts;
        }
    }
}
