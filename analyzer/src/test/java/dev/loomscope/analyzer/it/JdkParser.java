package dev.loomscope.analyzer.it;

import dev.loomscope.analyzer.read.JdkEvent;
import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.recording.RecordingParts;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.io.IOException;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The JDK's own parser ({@link RecordingFile}) on a recording opened by loomscope's entrance: the reference loomscope's
 * reader is held to. Not used by main code.
 */
final class JdkParser {
    private JdkParser() {}

    /** The facts the reducers make of the JDK's reading of {@code source}. */
    static RecordingFacts facts(RecordingSource source) {
        return RecordingFacts.of(source, sink -> read(source, e -> sink.accept(new JdkEvent(e))));
    }

    /**
     * Every event of {@code source} into {@code sink}, as the JDK's parser reads it; what it stops on is damage,
     * located.
     */
    static RecordingSpan read(RecordingSource source, Consumer<RecordedEvent> sink) {
        return RecordingReader.withReadableParts(source, w -> {}, readable -> {
            for (RecordingParts.Part part : readable.parts()) {
                RecordingFile rf;
                try {
                    rf = new RecordingFile(part.readable());
                } catch (IOException | RuntimeException | InternalError | StackOverflowError | OutOfMemoryError e) {
                    throw RecordingReader.damaged(part, e);
                }
                try (rf) {
                    while (true) {
                        RecordedEvent e;
                        try {
                            if (!rf.hasMoreEvents()) {
                                break;
                            }
                            e = rf.readEvent();
                        } catch (IOException
                                | RuntimeException
                                | InternalError
                                | StackOverflowError
                                | OutOfMemoryError ex) {
                            throw RecordingReader.damaged(part, ex);
                        }
                        sink.accept(e);
                    }
                }
            }
            return readable.span();
        });
    }
}
