package dev.distlock.core.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The internal packages are layers, each importing only the ones below it (docs/architecture.md draws them). A plain
 * scan of the import lines of lock-core's main sources; the public API ({@code dev.distlock.core},
 * {@code reactive}) is the vocabulary every layer may use and is not part of the order.
 */
class LayerImportsTests {

    private static final String INTERNAL = "dev.distlock.core.internal";

    /** Top to bottom: a package may import the packages after it, never those before it. */
    private static final List<String> LAYERS = List.of(INTERNAL, INTERNAL + ".redlock", INTERNAL + ".waiting",
            INTERNAL + ".hold", INTERNAL + ".protocol", INTERNAL + ".scripts", INTERNAL + ".redis",
            INTERNAL + ".time");

    /**
     * Known exceptions (importing class -> imported class), each still to be moved. Keep this list shrinking: a new
     * upward import fails the test; an entry no longer needed fails it too.
     */
    private static final Map<String, Set<String>> KNOWN_UPWARD = Map.of(
            // LockEngine is the per-client context (script calls, keys, scheduler, clean-up, watchdog) still handed to
            // the protocols, HoldRelease and RedLock; the waiting layer has its WaitContext instead. A context per
            // layer, like WaitContext, is what is left of this layering.
            INTERNAL + ".LockEngine", Set.of("ReadProtocol", "WriteProtocol", "ReadWriteProtocols", "ForceRelease",
                    "QueuedProtocol", "LapsedOffers", "HoldRelease", "RedLockNodes", "RedLockProtocol", "RedLocks"));

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    private static final Pattern IMPORT = Pattern.compile(
            "^import (?:static )?(" + Pattern.quote(INTERNAL) + "[\\w.]*?)\\.([A-Z]\\w*)", Pattern.MULTILINE);

    @Test
    void lowerLayersNeverImportHigherOnes() throws IOException {
        List<String> upward = new ArrayList<>();
        List<String> allowedSeen = new ArrayList<>();
        for (Path file : internalSources()) {
            String source = Files.readString(file);
            Matcher pkg = PACKAGE.matcher(source);
            assertThat(pkg.find()).as("package line of %s", file).isTrue();
            int layer = layerOf(pkg.group(1), file);
            String importer = file.getFileName().toString().replace(".java", "");
            Matcher imports = IMPORT.matcher(source);
            while (imports.find()) {
                if (layerOf(imports.group(1), file) >= layer) {
                    continue;
                }
                String imported = imports.group(1) + "." + imports.group(2);
                String edge = pkg.group(1) + "." + importer + " -> " + imported;
                if (KNOWN_UPWARD.getOrDefault(imported, Set.of()).contains(importer)) {
                    allowedSeen.add(importer + " -> " + imported);
                }
                else {
                    upward.add(edge);
                }
            }
        }
        assertThat(upward).as("imports of a higher layer (move the piece down, or the caller up)").isEmpty();
        List<String> allowed = new ArrayList<>();
        KNOWN_UPWARD.forEach((imported, importers) -> importers.forEach((i) -> allowed.add(i + " -> " + imported)));
        assertThat(allowedSeen).as("known exceptions still present (remove the ones fixed)")
            .containsExactlyInAnyOrderElementsOf(allowed);
    }

    @Test
    void everyInternalPackageHasALayer() throws IOException {
        for (Path file : internalSources()) {
            Matcher pkg = PACKAGE.matcher(Files.readString(file));
            assertThat(pkg.find()).isTrue();
            assertThat(LAYERS).as("layer of %s (add its package to LAYERS)", file).contains(pkg.group(1));
        }
    }

    private static int layerOf(String pkg, Path file) {
        int index = LAYERS.indexOf(pkg);
        assertThat(index).as("layer of package %s, imported in %s", pkg, file).isNotNegative();
        return index;
    }

    private static List<Path> internalSources() throws IOException {
        Path root = Path.of("src/main/java/dev/distlock/core/internal");
        assertThat(root).as("run from the lock-core module directory").isDirectory();
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> sources = files.filter((p) -> p.toString().endsWith(".java")).toList();
            assertThat(sources).hasSizeGreaterThan(50);
            return sources;
        }
    }
}
