package dev.loomscope.analyzer.scenarios;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;

/**
 * One scenario of the corpus ({@link Scenario}) as an HTTP service on the JDK's server, every request to any path doing
 * the scenario's work: {@code --threads platform} on a pool of 200 platform threads (a servlet container's default),
 * {@code virtual} on a virtual thread a request. Args: {@code --scenario NAME --port N --threads platform|virtual}.
 */
public final class ScenarioService {
    private ScenarioService() {}

    /** One request's work; what it answers. */
    interface Work {
        String serve() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String scenario = null;
        int port = 8080;
        String threads = "platform";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scenario" -> scenario = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = args[i + 1];
                default ->
                    throw new IllegalArgumentException(
                            "unknown option " + args[i] + " (use --scenario NAME --port N --threads platform|virtual)");
            }
        }
        if (scenario == null) {
            throw new IllegalArgumentException("--scenario NAME: which scenario to serve");
        }
        Work work = work(Scenario.named(scenario));
        ExecutorService executor = switch (threads) {
            case "platform" ->
                Executors.newFixedThreadPool(
                        200, Thread.ofPlatform().name("worker-", 1).factory());
            case "virtual" -> Executors.newVirtualThreadPerTaskExecutor();
            default -> throw new IllegalArgumentException("--threads " + threads + ": platform or virtual");
        };
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 1024);
        server.createContext("/", exchange -> {
            int status = 200;
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                body = work.serve() + "\n";
            } catch (Exception e) {
                status = 500;
                body = e + "\n";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.setExecutor(executor);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0)));
        System.out.println(scenario + " on " + threads + " threads at port " + port);
    }

    static Work work(Scenario s) throws Exception {
        return switch (s) {
            case SYNC_SLEEP -> syncSleep();
            case SYNC_SOCKET -> syncSocket();
            case H2_LEGACY -> h2Legacy();
            case OBJECT_WAIT -> objectWait();
            case CLASS_INIT -> ScenarioService::classInit;
            case JNA_NATIVE -> jnaNative();
            case COMMONS_POOL -> commonsPool();
            case SEMAPHORE -> semaphore();
            case YIELD_SPIN -> yieldSpin();
            case CPU_BURST -> ScenarioService::cpuBurst;
            case THREAD_LOCAL -> threadLocal();
            case JUC_DEADLOCK -> jucDeadlock();
            case IO_SLEEP ->
                () -> {
                    Thread.sleep(20);
                    return "slept";
                };
            case CPU_HASH -> ScenarioService::cpuHash;
            case REENTRANT_LOCK -> reentrantLock();
            case HTTP_DOWNSTREAM -> httpDownstream();
        };
    }

    private static Work syncSleep() {
        Object[] locks = new Object[64];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        return () -> {
            synchronized (locks[ThreadLocalRandom.current().nextInt(locks.length)]) {
                Thread.sleep(10);
            }
            return "held";
        };
    }

    /** A legacy client: one connection, its calls synchronized around the write and the blocking read. */
    static final class LegacyClient {
        private final Socket socket;

        LegacyClient(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
        }

        synchronized int call() throws IOException {
            socket.getOutputStream().write(1);
            return socket.getInputStream().read();
        }
    }

    private static Work syncSocket() throws IOException {
        ServerSocket downstream = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("downstream-accept").start(() -> {
            while (true) {
                try {
                    Socket c = downstream.accept();
                    c.setTcpNoDelay(true);
                    Thread.ofPlatform().daemon().name("downstream-", 1).start(() -> answerIn5ms(c));
                } catch (IOException e) {
                    return;
                }
            }
        });
        LegacyClient[] clients = new LegacyClient[64];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = new LegacyClient(downstream.getLocalPort());
        }
        return () -> "answer " + clients[ThreadLocalRandom.current().nextInt(clients.length)].call();
    }

    private static void answerIn5ms(Socket c) {
        try (c) {
            InputStream in = c.getInputStream();
            OutputStream out = c.getOutputStream();
            for (int b = in.read(); b >= 0; b = in.read()) {
                Thread.sleep(5);
                out.write(b);
            }
        } catch (IOException | InterruptedException e) {
            // the service ends
        }
    }

    /** Called by H2 inside its session's monitor: the query's wait. */
    public static int pause(int millis) throws InterruptedException {
        Thread.sleep(millis);
        return millis;
    }

    private static Work h2Legacy() throws Exception {
        BlockingQueue<Connection> pool = new LinkedBlockingQueue<>();
        for (int i = 0; i < 64; i++) {
            pool.add(DriverManager.getConnection("jdbc:h2:mem:corpus;DB_CLOSE_DELAY=-1"));
        }
        try (var st = pool.peek().createStatement()) {
            st.execute("CREATE ALIAS IF NOT EXISTS PAUSE FOR \"" + ScenarioService.class.getName() + ".pause\"");
        }
        return () -> {
            Connection db = pool.take();
            try (PreparedStatement q = db.prepareStatement("SELECT PAUSE(5)");
                    ResultSet r = q.executeQuery()) {
                r.next();
                return "value " + r.getInt(1);
            } finally {
                pool.put(db);
            }
        };
    }

    /** A legacy future: the answer handed over under the job's monitor. */
    static final class Job {
        private boolean done;

        synchronized void finish() {
            done = true;
            notifyAll();
        }

        synchronized void await() throws InterruptedException {
            while (!done) {
                wait();
            }
        }
    }

    private static Work objectWait() {
        BlockingQueue<Job> jobs = new LinkedBlockingQueue<>();
        for (int i = 0; i < 8; i++) {
            Thread.ofPlatform().daemon().name("legacy-worker-", i).start(() -> {
                try {
                    while (true) {
                        Job j = jobs.take();
                        Thread.sleep(5);
                        j.finish();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        return () -> {
            Job j = new Job();
            jobs.add(j);
            j.await();
            return "done";
        };
    }

    /** A class loader of one plugin: defines {@link Plugin} anew, so that its static initializer runs again. */
    static final class PluginLoader extends ClassLoader {
        private static final byte[] BYTES;

        static {
            try (InputStream in = Plugin.class.getResourceAsStream("Plugin.class")) {
                BYTES = in.readAllBytes();
            } catch (IOException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        PluginLoader() {
            super(PluginLoader.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Plugin.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, BYTES, 0, BYTES.length);
            }
        }
    }

    private static String classInit() throws Exception {
        Class<?> plugin = Class.forName(Plugin.class.getName(), true, new PluginLoader());
        return "loaded " + plugin.getField("LOADED").getLong(null);
    }

    /** The C library's usleep, through JNA. */
    public interface CLibrary extends Library {
        int usleep(int micros);
    }

    private static Work jnaNative() {
        CLibrary c = Native.load("c", CLibrary.class);
        return () -> "usleep " + c.usleep(5000);
    }

    private static Work commonsPool() {
        GenericObjectPool<StringBuilder> pool = new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public StringBuilder create() {
                return new StringBuilder();
            }

            @Override
            public PooledObject<StringBuilder> wrap(StringBuilder b) {
                return new DefaultPooledObject<>(b);
            }
        });
        pool.setMaxTotal(8);
        pool.setMaxIdle(8);
        pool.setMaxWait(Duration.ofSeconds(10));
        return () -> {
            StringBuilder b = pool.borrowObject();
            try {
                Thread.sleep(10);
                return "borrowed";
            } finally {
                pool.returnObject(b);
            }
        };
    }

    /**
     * A bulkhead in front of a downstream call that takes 0-20 ms (10 on average): the calls' spread queues requests at
     * the permits at 95% of capacity, as a real downstream's does; a call of exactly 10 ms behind a client that sends
     * at exact intervals would queue only by the machine's jitter.
     */
    private static Work semaphore() {
        Semaphore permits = new Semaphore(8);
        return () -> {
            permits.acquire();
            try {
                TimeUnit.NANOSECONDS.sleep(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(20)));
                return "permitted";
            } finally {
                permits.release();
            }
        };
    }

    /** An answer a helper thread sets. */
    static final class Answer {
        volatile boolean ready;
    }

    private static Work yieldSpin() {
        ExecutorService helpers = Executors.newFixedThreadPool(
                16, Thread.ofPlatform().daemon().name("helper-", 1).factory());
        return () -> {
            Answer a = new Answer();
            helpers.execute(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                a.ready = true;
            });
            while (!a.ready) {
                Thread.yield();
            }
            return "answered";
        };
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static String cpuBurst() {
        if (ThreadLocalRandom.current().nextInt(100) != 0) {
            return "quick";
        }
        long until = THREADS.getCurrentThreadCpuTime() + TimeUnit.MILLISECONDS.toNanos(1000);
        long x = 1;
        while (THREADS.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 1_000_000; i++) { // a millisecond or so between looks at the clock, which is native
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return "burst " + (x & 0xff);
    }

    private static Work threadLocal() {
        ThreadLocal<byte[]> buffers = ThreadLocal.withInitial(() -> new byte[4 << 20]);
        return () -> {
            byte[] b = buffers.get();
            for (int i = 0; i < 65_536; i += 64) {
                b[i]++;
            }
            return "buffered " + b[0];
        };
    }

    private static Work jucDeadlock() {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        return () -> {
            boolean ab = ThreadLocalRandom.current().nextBoolean();
            ReentrantLock first = ab ? a : b;
            ReentrantLock second = ab ? b : a;
            first.lock();
            try {
                // at 100/s, the next request comes within this: the deadlock does not wait on the machine's jitter
                Thread.sleep(20);
                second.lock();
                second.unlock();
            } finally {
                first.unlock();
            }
            return "locked";
        };
    }

    private static String cpuHash() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] data = new byte[65_536];
        ThreadLocalRandom.current().nextBytes(data);
        byte[] d = data;
        for (int i = 0; i < 4; i++) {
            sha.update(d);
            d = sha.digest();
            sha.update(data);
        }
        return "hashed " + (d[0] & 0xff);
    }

    private static Work reentrantLock() {
        ReentrantLock[] locks = new ReentrantLock[64];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
        return () -> {
            ReentrantLock l = locks[ThreadLocalRandom.current().nextInt(locks.length)];
            l.lock();
            try {
                Thread.sleep(10);
            } finally {
                l.unlock();
            }
            return "held";
        };
    }

    private static Work httpDownstream() throws IOException {
        HttpServer downstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        downstream.createContext("/", exchange -> {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, 2);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("ok".getBytes(StandardCharsets.US_ASCII));
            }
        });
        downstream.setExecutor(Executors.newFixedThreadPool(
                64, Thread.ofPlatform().daemon().name("downstream-", 1).factory()));
        downstream.start();
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI uri = URI.create("http://127.0.0.1:" + downstream.getAddress().getPort() + "/");
        return () -> client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
