package dev.distlock.reliability;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;

/** Checker (c): what a quiet system must not have left behind. */
final class Quiesce {

    private Quiesce() {
    }

    /**
     * Lock keys ({@code lock:*}) other than fencing counters ({@code :fence}) and tombstones of abandoned
     * acquisitions ({@code :abandoned:<owner>}), which are kept on purpose: a tombstone holds no lock, blocks nobody
     * but the one abandoned request, and expires by itself.
     */
    static List<String> leftoverLockKeys(RedisCommands<String, String> redis) {
        List<String> found = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches("lock:*").limit(1000));
            for (String key : page.getKeys()) {
                if (!key.endsWith(":fence") && !key.contains(":abandoned:")) {
                    found.add(key + " (pttl " + redis.pttl(key) + " ms)");
                }
            }
            cursor = page;
        }
        while (!cursor.isFinished());
        return found;
    }
}
