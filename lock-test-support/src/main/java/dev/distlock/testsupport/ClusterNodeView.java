package dev.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** One line of {@code CLUSTER NODES}. */
record ClusterNodeView(String id, String flags, String masterId, List<int[]> slots) {

    static ClusterNodeView parse(String line) {
        String[] parts = line.trim().split(" ");
        List<int[]> slots = new ArrayList<>();
        for (int i = 8; i < parts.length; i++) {
            if (parts[i].startsWith("[")) {
                continue; // a slot being imported or migrated
            }
            String[] range = parts[i].split("-");
            int from = Integer.parseInt(range[0]);
            slots.add(new int[] { from, (range.length > 1) ? Integer.parseInt(range[1]) : from });
        }
        return new ClusterNodeView(parts[0], parts[2], parts[3], slots);
    }

    boolean master() {
        return flags.contains("master");
    }

    boolean myself() {
        return flags.contains("myself");
    }

    boolean failed() {
        return flags.contains("fail") && !flags.contains("fail?");
    }

    boolean handshaking() {
        return flags.contains("handshake") || flags.contains("noaddr");
    }

    boolean serves(int slot) {
        return slots.stream().anyMatch(r -> r[0] <= slot && slot <= r[1]);
    }

    /** Role, master, slots and a confirmed failure: what every node must agree on. */
    String signature() {
        return id + ":" + (master() ? "master" : "replica") + ":" + masterId + ":" + (failed() ? "fail" : "ok")
                + ":" + slotText();
    }

    String slotText() {
        return slots.stream().map(r -> r[0] + "-" + r[1]).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return id + " " + flags + " " + slotText();
    }
}
