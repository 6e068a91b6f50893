import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * A service as its authors wrote it, for loomscope to judge (benchmarks/server-verdict.sh, benchmarks/apps.sh): Jetty
 * 12.1 on 200 pooled platform threads or a virtual thread a request, answering each request from a back-end that
 * waits WAIT_MS:
 * <ul>
 *   <li>{@code h2}: an H2 1.4.200 query on a connection from a pool of 64; H2 1.4 runs a statement inside its
 *       session's monitor and the query calls a function that waits there (on JDK 21 a virtual thread in it pins);
 *   <li>{@code jdbc:...}: {@code SELECT SLEEP(...)} on a MySQL or MariaDB server ({@code pg_sleep} on PostgreSQL)
 *       through the JDBC driver on the class path, a pool of 64 connections (MySQL Connector/J before 9.0 holds its
 *       connection's monitor around the socket's read);
 *   <li>{@code cache}: a Caffeine cache of 10,000 entries over a million keys, nearly every request a miss whose loader
 *       waits (Caffeine runs it inside {@code ConcurrentHashMap.compute}, holding the map's lock on its bin).
 * </ul>
 * Args: platform|virtual PORT BACKEND WAIT_MS. Prints "ready" when it serves; ends on a line on stdin, or its end.
 */
public final class JettyService {
    /** JDBC connections, as a service's pool holds them. */
    static final int POOL = 64;

    private JettyService() {}

    /** The database's wait: called by H2 inside its session's monitor. */
    public static int pause(int millis) throws InterruptedException {
        Thread.sleep(millis);
        return millis;
    }

    /** What a request asks of the back-end: a number. */
    interface Backend {
        int answer() throws Exception;
    }

    /** A query on a pooled connection. */
    record Database(BlockingQueue<Connection> pool, String sql) implements Backend {
        static Database open(String url, int waitMs) throws SQLException {
            BlockingQueue<Connection> pool = new ArrayBlockingQueue<>(POOL);
            for (int i = 0; i < POOL; i++) {
                pool.add(DriverManager.getConnection(url));
            }
            if (url.startsWith("jdbc:postgresql:")) {
                return new Database(pool, "SELECT 42 FROM pg_sleep(" + waitMs / 1000.0 + ")");
            }
            if (!url.startsWith("jdbc:h2:")) {
                return new Database(pool, "SELECT 42 + SLEEP(" + waitMs / 1000.0 + ")");
            }
            try (Statement s = pool.peek().createStatement()) {
                s.execute("CREATE ALIAS PAUSE FOR \"JettyService.pause\"");
                s.execute("CREATE TABLE item(id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO item VALUES (1, 42)");
            }
            return new Database(pool, "SELECT v + PAUSE(" + waitMs + ") - " + waitMs + " FROM item WHERE id = 1");
        }

        @Override
        public int answer() throws Exception {
            Connection db = pool.take();
            try (PreparedStatement q = db.prepareStatement(sql);
                    ResultSet r = q.executeQuery()) {
                r.next();
                return r.getInt(1);
            } finally {
                pool.put(db);
            }
        }
    }

    /** A cache whose loader waits, asked for keys it mostly does not hold. */
    record Loading(Cache<Integer, Integer> cache, int waitMs) implements Backend {
        @Override
        public int answer() {
            return cache.get(ThreadLocalRandom.current().nextInt(1_000_000), key -> {
                try {
                    Thread.sleep(waitMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return key % 100;
            });
        }
    }

    /** The unit of work: one request, one answer of the back-end. */
    static final class Handle extends Handler.Abstract {
        private final Backend backend;

        Handle(Backend backend) {
            this.backend = backend;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            int value = backend.answer();
            response.setStatus(200);
            Content.Sink.write(response, true, "value " + value + "\n", callback);
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: JettyService platform|virtual PORT h2|cache|JDBC_URL WAIT_MS");
            System.exit(2);
        }
        boolean virtual = args[0].equals("virtual");
        int port = Integer.parseInt(args[1]);
        int waitMs = Integer.parseInt(args[3]);
        Backend backend = switch (args[2]) {
            case "h2" -> Database.open("jdbc:h2:mem:service;DB_CLOSE_DELAY=-1", waitMs);
            case "cache" -> new Loading(Caffeine.newBuilder().maximumSize(10_000).build(), waitMs);
            default -> Database.open(args[2], waitMs);
        };
        Server server = new Server(virtual ? new VirtualThreadPool() : new QueuedThreadPool(200));
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handle(backend));
        server.start();
        System.out.println("ready");
        System.in.read();
        server.stop();
    }
}
