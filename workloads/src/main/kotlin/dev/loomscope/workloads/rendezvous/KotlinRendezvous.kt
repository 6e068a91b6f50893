package dev.loomscope.workloads.rendezvous

import java.util.concurrent.atomic.AtomicReference
import kotlin.coroutines.Continuation
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking

/**
 * The rendezvous experiment's Kotlin baseline, after "Limits of Loom's performance": two coroutines
 * meet [n] times, the sender handing over 1..n and the receiver summing them.
 *
 * - `kotlin-continuations`: the article's algorithm. An [AtomicReference] holds the waiting party's
 *   continuation; each party, inside `suspendCoroutine`, tries to put its own there: the winner of
 *   the CAS suspends, the loser takes the winner's and resumes both (the winner with the loser's
 *   value, itself with the winner's). Inside `runBlocking`: one thread runs both coroutines.
 * - `kotlin-continuations-default`: the same, both coroutines on `Dispatchers.Default`.
 * - `kotlin-channel`: kotlinx-coroutines' own rendezvous [Channel] (capacity 0), in `runBlocking`.
 */
object KotlinRendezvous {
    @JvmField
    val VARIANTS: List<String> = listOf("kotlin-continuations", "kotlin-continuations-default", "kotlin-channel")

    /** The receiver's sum of 1..n after [n] meetings, on the calling thread (which `runBlocking` occupies). */
    @JvmStatic
    fun run(variant: String, n: Long): Long = when (variant) {
        "kotlin-continuations" -> runBlocking { continuations(this, n) }
        "kotlin-continuations-default" -> runBlocking(Dispatchers.Default) { continuations(this, n) }
        "kotlin-channel" -> runBlocking { channel(this, n) }
        else -> throw IllegalArgumentException("not a Kotlin rendezvous variant: $variant")
    }

    private class Waiter(val value: Long, val continuation: Continuation<Long>)

    /** Where two parties meet: the first to arrive waits with its value; the second hands over its own and takes the first's. */
    private class Meeting {
        private val waiting = AtomicReference<Waiter?>(null)

        suspend fun meet(value: Long): Long = suspendCoroutine { self ->
            if (!waiting.compareAndSet(null, Waiter(value, self))) {
                val other = waiting.getAndSet(null) ?: throw IllegalStateException("a third party at a meeting of two")
                other.continuation.resume(value)
                self.resume(other.value)
            }
        }
    }

    private suspend fun continuations(scope: kotlinx.coroutines.CoroutineScope, n: Long): Long {
        val meeting = Meeting()
        var sum = 0L
        val receiver = scope.launch {
            for (i in 1..n) {
                sum += meeting.meet(0)
            }
        }
        val sender = scope.launch {
            for (i in 1..n) {
                meeting.meet(i)
            }
        }
        sender.join()
        receiver.join()
        return sum
    }

    private suspend fun channel(scope: kotlinx.coroutines.CoroutineScope, n: Long): Long {
        val channel = Channel<Long>(Channel.RENDEZVOUS)
        var sum = 0L
        val receiver = scope.launch {
            for (i in 1..n) {
                sum += channel.receive()
            }
        }
        scope.launch {
            for (i in 1..n) {
                channel.send(i)
            }
        }.join()
        receiver.join()
        return sum
    }
}
