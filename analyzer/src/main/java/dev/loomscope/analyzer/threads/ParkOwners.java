package dev.loomscope.analyzer.threads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomscope.analyzer.read.JsonFile;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who owns the {@code java.util.concurrent} locks threads are parked on, as the loomscope agent saw them in the JVM
 * ({@code command=locks}): what a JDK 26 thread dump records as its park blocker's owner and JDK 21-25 dumps do not,
 * without which no deadlock over such locks can be told. Only owners seen the same before and after a dump
 * ({@link #sameIn}) are written into it ({@link #writeInto}), as JDK 26 writes them, so {@code threads} reads them as
 * it reads that JDK's.
 *
 * @param byThread the lock each parked thread waits for and its owner, by the parked thread's id
 */
public record ParkOwners(Map<Long, Parked> byThread) {

    /** A lock as the dumps name it ({@code class@identity-hash}) and the id of the thread owning it. */
    public record Parked(String lock, long owner) {}

    /** The field of the dump's {@code threadDump} saying the owners were added, and by whom. */
    public static final String ADDED = "loomscopeParkOwners";

    /**
     * The agent's reply lines, {@code TID LOCK OWNER-TID} each (what it logged meanwhile left out); {@code from} names
     * the JVM for an error.
     */
    public static ParkOwners parse(List<String> lines, String from) {
        Map<Long, Parked> byThread = new HashMap<>();
        for (String line : lines) {
            if (line.startsWith("loomscope-agent: ")) {
                continue;
            }
            String[] f = line.strip().split(" ");
            if (f.length != 3 || !f[0].matches("\\d{1,18}") || !f[2].matches("\\d{1,18}")) {
                throw new IllegalStateException(
                        from + ": the agent's lock owners hold a line not TID LOCK OWNER: '" + line + "'");
            }
            byThread.put(Long.valueOf(f[0]), new Parked(f[1], Long.parseLong(f[2])));
        }
        return new ParkOwners(Map.copyOf(byThread));
    }

    /** The owners this and a later look agree on: a thread parked on the same lock with the same owner in both. */
    public ParkOwners sameIn(ParkOwners later) {
        Map<Long, Parked> same = new HashMap<>();
        byThread.forEach((tid, p) -> {
            if (Objects.equals(later.byThread.get(tid), p)) {
                same.put(tid, p);
            }
        });
        return new ParkOwners(Map.copyOf(same));
    }

    /**
     * Writes the owners into the JSON dump {@code file}: each thread they name gets its park blocker's owner, where the
     * dump names the same blocker (JDK 25) or none (JDK 21-24, which record no blocker); a dump that records owners
     * itself (JDK 26) is left as it is. Returns how many owners were written.
     */
    public int writeInto(Path file) {
        JsonNode root = JsonFile.read(file, "a JSON thread dump", "the dump just taken");
        int written = 0;
        for (JsonNode c : root.path("threadDump").path("threadContainers")) {
            for (JsonNode t : c.path("threads")) {
                Parked p = byThread.get(t.path("tid").asLong(-1));
                JsonNode blocker = t.path("parkBlocker");
                if (p == null
                        || blocker.has("owner")
                        || blocker.has("object")
                                && !blocker.get("object").asText().equals(p.lock())) {
                    continue;
                }
                ObjectNode b = blocker.isObject() ? (ObjectNode) blocker : ((ObjectNode) t).putObject("parkBlocker");
                b.put("object", p.lock());
                b.put("owner", Long.toString(p.owner()));
                written++;
            }
        }
        if (written > 0 && root.path("threadDump") instanceof ObjectNode dump) {
            dump.put(
                    ADDED,
                    "the owners of java.util.concurrent locks threads are parked on, added by loomscope from its"
                            + " agent's look before and after this dump (JDK 26 records them itself)");
            try {
                new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
            } catch (IOException e) {
                throw new BadDataException(file + ": cannot write the lock owners into it: " + e.getMessage()
                        + " (check the directory's space)");
            }
        }
        return written;
    }
}
