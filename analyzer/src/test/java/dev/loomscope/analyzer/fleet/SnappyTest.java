package dev.loomscope.analyzer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** loomscope's Snappy against snappy-java (the reference implementation's binding) both ways. */
class SnappyTest {

    /**
     * Inputs of every kind a Parquet page holds: empty, incompressible, runs, text, and around the 64 KB block edge.
     */
    private static List<byte[]> inputs() {
        Random r = new Random(42);
        List<byte[]> all = new ArrayList<>();
        all.add(new byte[0]);
        all.add(new byte[] {7});
        for (int n : new int[] {3, 4, 5, 59, 60, 61, 255, 256, 257, 65_535, 65_536, 65_537, 200_000, 1 << 20}) {
            byte[] random = new byte[n];
            r.nextBytes(random);
            all.add(random);
            byte[] runs = new byte[n];
            for (int i = 0; i < n; i++) {
                runs[i] = (byte) (i / 100 % 3);
            }
            all.add(runs);
            byte[] mixed = new byte[n]; // repeats at every distance, the far ones beyond 2 KB
            for (int i = 0; i < n; i++) {
                mixed[i] = i >= 3000 && r.nextInt(4) > 0
                        ? mixed[i - 1 - r.nextInt(i >= 70_000 ? 70_000 : 2999)]
                        : (byte) r.nextInt(256);
            }
            all.add(mixed);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("echo-virtual-f")
                    .append(i % 7)
                    .append(",jdk.VirtualThreadPinned,")
                    .append(i * 31L)
                    .append('\n');
        }
        all.add(text.toString().getBytes(StandardCharsets.UTF_8));
        return all;
    }

    @Test
    void whatItWritesTheReferenceReadsAndTheOtherWayRound() throws Exception {
        for (byte[] in : inputs()) {
            byte[] ours = Snappy.compress(in);
            assertThat(org.xerial.snappy.Snappy.uncompress(ours))
                    .as("%d bytes written by loomscope", in.length)
                    .isEqualTo(in);
            byte[] reference = org.xerial.snappy.Snappy.compress(in);
            byte[] out = new byte[Snappy.uncompressedLength(reference)];
            Snappy.uncompress(reference, out);
            assertThat(out).as("%d bytes written by snappy-java", in.length).isEqualTo(in);
        }
    }

    @Test
    void compressesWhatRepeatsAsTheReferenceDoes() {
        byte[] text = inputs().get(inputs().size() - 1);
        double ours = Snappy.compress(text).length;
        double reference;
        try {
            reference = org.xerial.snappy.Snappy.compress(text).length;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(ours / text.length).isLessThan(0.25);
        assertThat(ours / reference).isBetween(0.5, 1.5);
    }

    @Test
    void refusesDamagedBlocks() throws Exception {
        byte[] in = inputs().get(inputs().size() - 1);
        byte[] good = Snappy.compress(in);
        assertThatThrownBy(() -> Snappy.uncompress(Arrays.copyOf(good, good.length - 5), new byte[in.length]))
                .isInstanceOf(Snappy.CorruptException.class);
        assertThatThrownBy(() -> Snappy.uncompress(good, new byte[in.length - 1]))
                .hasMessageContaining("the page header says");
        // a copy reaching before the start of the output
        byte[] before = {10, 0x00, 'a', 0x01, 0x05};
        assertThatThrownBy(() -> Snappy.uncompress(before, new byte[10])).hasMessageContaining("a copy of");
        // a literal longer than what follows
        byte[] longLiteral = {100, (byte) (60 << 2), 98, 'x'};
        assertThatThrownBy(() -> Snappy.uncompress(longLiteral, new byte[100]))
                .hasMessageContaining("runs past its end");
        assertThatThrownBy(() -> Snappy.uncompressedLength(new byte[] {(byte) 0x80, (byte) 0x80}))
                .hasMessageContaining("no valid length");
        for (int cut = 1; cut < 40; cut++) { // every truncation is refused, none overruns
            byte[] cutShort = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> Snappy.uncompress(cutShort, new byte[in.length]))
                    .isInstanceOf(Snappy.CorruptException.class);
        }
    }
}
