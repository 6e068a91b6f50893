package dev.loomscope.analyzer.cli;

import dev.loomscope.options.Nearest;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The root's smallest answers without building a command line, each the same text picocli prints: its version (from the
 * provider picocli's would use), and, held equal by MainTest, its help (written out in {@code root-help.txt}, whose
 * list of commands is also the one the nearest names are taken from), no command, and a word that names no command
 * ({@link Main#named} finds none). Building picocli's model, even of names alone, took 0.15 s of a 0.22 s start.
 */
final class RootAnswers {
    private RootAnswers() {}

    /** The answer to {@code args}, printed, and its exit code; null when the command line must answer. */
    static Integer answer(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            for (String line : new VersionProvider().getVersion()) {
                out.println(line);
            }
            out.flush();
            return Errors.OK;
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.print(help());
            out.flush();
            return Errors.OK;
        }
        if (args.length == 0) {
            err.println("loomscope: Missing required subcommand (see 'loomscope --help')");
            err.flush();
            return Errors.USAGE;
        }
        String first = args[0];
        if (first.startsWith("-") || first.startsWith("@") || first.equals("help") || Main.named(first) != null) {
            return null; // a command's own answer (the help is read only to answer a word that names none)
        }
        List<String> commands = commands(help());
        StringBuilder b = new StringBuilder("loomscope: Unmatched argument")
                .append(args.length > 1 ? "s from index 0: " : " at index 0: ");
        for (int i = 0; i < args.length; i++) {
            b.append(i > 0 ? ", '" : "'").append(args[i]).append('\'');
        }
        b.append(Nearest.phrase(Nearest.of(first, commands))); // every name alike at all, as picocli's
        err.println(b.append(" (see 'loomscope --help')"));
        err.flush();
        return Errors.USAGE;
    }

    /** The root's help as {@code --help} prints it. */
    static String help() {
        try (InputStream in = RootAnswers.class.getResourceAsStream("root-help.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The commands the help lists: under "Commands:", each line that starts with two spaces and a name. */
    static List<String> commands(String help) {
        List<String> names = new ArrayList<>();
        boolean listed = false;
        for (String line : help.split("\n")) {
            if (line.equals("Commands:")) {
                listed = true;
            } else if (listed && line.isEmpty()) {
                break;
            } else if (listed && line.startsWith("  ") && line.length() > 2 && line.charAt(2) != ' ') {
                names.add(line.strip().split(" ", 2)[0]);
            }
        }
        return names;
    }
}
