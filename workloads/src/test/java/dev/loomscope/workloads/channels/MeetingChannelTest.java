package dev.loomscope.workloads.channels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.workloads.core.ThreadKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MeetingChannelTest {
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSenderWaitsUntilTheReceiverTookItsValue(ThreadKind kind) throws Exception {
        LongChannel meeting = new MeetingChannel(0, 0);
        CountDownLatch sent = new CountDownLatch(1);
        Thread sender = kind.start("sender", () -> {
            try {
                meeting.send(42);
                sent.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // A one-slot buffer would let the send return at once; a rendezvous holds the sender until a receiver comes.
        assertThat(sent.await(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(meeting.receive()).isEqualTo(42);
        assertThat(sent.await(10, TimeUnit.SECONDS)).isTrue();
        sender.join();

        LongChannel buffer = new ParkChannel(0, 0, false);
        buffer.send(7); // the contrast: nobody receives, yet the send returns
        assertThat(buffer.receive()).isEqualTo(7);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReceiverWaitsForTheSenderWhicheverComesFirst(ThreadKind kind) throws Exception {
        // spins, then yields, then parks: every way of waiting ends with the sum of what was sent
        for (MeetingChannel channel :
                new MeetingChannel[] {new MeetingChannel(0, 0), new MeetingChannel(0, 4), new MeetingChannel(1_000, 0)
                }) {
            AtomicLong sum = new AtomicLong();
            Thread receiver = kind.start("receiver", () -> {
                try {
                    long s = 0;
                    for (int i = 0; i < 10_000; i++) {
                        s += channel.receive();
                    }
                    sum.set(s);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (long i = 1; i <= 10_000; i++) {
                channel.send(i);
            }
            receiver.join();
            assertThat(sum.get()).isEqualTo(10_000L * 10_001 / 2);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaitingReceiverCanBeInterrupted(ThreadKind kind) throws Exception {
        LongChannel meeting = new MeetingChannel(0, 0);
        AtomicLong outcome = new AtomicLong();
        Thread receiver = kind.start("receiver", () -> {
            try {
                meeting.receive();
                outcome.set(1);
            } catch (InterruptedException e) {
                outcome.set(2);
            }
        });
        Thread.sleep(100);
        receiver.interrupt();
        receiver.join(10_000);
        assertThat(outcome.get()).isEqualTo(2);
        assertThatThrownBy(() -> meeting.send(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }
}
