package dev.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Creates temp directories that the {@link Reaper} deletes at JVM exit if no one deleted them before. */
final class TempDirs {

    private TempDirs() {
    }

    static Path create(String prefix) throws IOException {
        Path directory = Files.createTempDirectory(prefix);
        Reaper.trackDirectory(directory);
        return directory;
    }

    /** Deletes the directory and everything in it, and forgets it. Missing files are fine. */
    static void delete(Path directory) {
        deleteRecursively(directory);
        Reaper.untrackDirectory(directory);
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(directory)) {
            paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        } catch (IOException | UncheckedIOException e) {
            return; // best effort: it lives under java.io.tmpdir
        }
        for (Path path : paths) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // best effort
            }
        }
    }
}
