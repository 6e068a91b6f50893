import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

/**
 * A service as its authors wrote it, for loomscope to judge (benchmarks/apps.sh): Vert.x 5.0 on Netty, each request
 * answered by {@code SELECT 42 + SLEEP(...)} on a MySQL or MariaDB server through Vert.x's own reactive MySQL client (a
 * pool of 64 connections, Netty's I/O, no JDBC). Two ways its users write it:
 * <ul>
 *   <li>{@code platform}: the event-loop verticle, one instance an event loop (twice the processors), the query's
 *       answer handled by a callback on the loop: no thread waits;
 *   <li>{@code virtual}: the same verticle deployed with {@code ThreadingModel.VIRTUAL_THREAD}, each request on a
 *       virtual thread that awaits the query's answer ({@code Future.await}).
 * </ul>
 * Args: platform|virtual PORT mysql://USER@HOST:PORT/DATABASE WAIT_MS. Prints "ready" when it serves; ends on a line on
 * stdin, or its end.
 */
public final class VertxService extends VerticleBase {
    /** Connections, as a service's pool holds them. */
    static final int POOL = 64;

    private final boolean virtual;
    private final int port;
    private final Pool db;
    private final String sql;

    VertxService(boolean virtual, int port, Pool db, String sql) {
        this.virtual = virtual;
        this.port = port;
        this.db = db;
        this.sql = sql;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer()
                .requestHandler(virtual ? this::awaiting : this::onTheLoop)
                .listen(port);
    }

    /** The unit of work on the event loop: the query sent, the answer written when it comes. */
    private void onTheLoop(HttpServerRequest request) {
        db.query(sql).execute().onComplete(rows -> {
            if (rows.succeeded()) {
                request.response().end("value " + rows.result().iterator().next().getInteger(0) + "\n");
            } else {
                request.response().setStatusCode(500).end(rows.cause() + "\n");
            }
        });
    }

    /** The unit of work on a virtual thread: the query sent and its answer awaited. */
    private void awaiting(HttpServerRequest request) {
        try {
            RowSet<Row> rows = db.query(sql).execute().await();
            request.response().end("value " + rows.iterator().next().getInteger(0) + "\n");
        } catch (RuntimeException e) {
            request.response().setStatusCode(500).end(e + "\n");
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: VertxService platform|virtual PORT mysql://USER@HOST:PORT/DATABASE WAIT_MS");
            System.exit(2);
        }
        boolean virtual = args[0].equals("virtual");
        int port = Integer.parseInt(args[1]);
        int waitMs = Integer.parseInt(args[3]);
        Vertx vertx = Vertx.vertx();
        Pool db = MySQLBuilder.pool()
                .with(new PoolOptions().setMaxSize(POOL))
                .connectingTo(args[2])
                .using(vertx)
                .build();
        String sql = "SELECT 42 + SLEEP(" + waitMs / 1000.0 + ")";
        DeploymentOptions deployment = virtual
                ? new DeploymentOptions().setThreadingModel(ThreadingModel.VIRTUAL_THREAD)
                : new DeploymentOptions().setInstances(2 * Runtime.getRuntime().availableProcessors());
        vertx.deployVerticle(() -> new VertxService(virtual, port, db, sql), deployment)
                .await();
        System.out.println("ready");
        System.in.read();
        vertx.close().await();
    }
}
