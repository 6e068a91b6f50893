package dev.loomscope.serverapp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * Fixture app for the agent's default {@code work=requests}: embedded Tomcat (a servlet that forwards to another path,
 * so the servlet runs twice a request), Jetty 12 (a core handler) and the JDK's HttpServer (a handler that passes each
 * exchange to another handler) and Vert.x 5 (its event loop, a request counted as it begins, not timed; over HTTP/2 and
 * HTTP/1.1) each serve {@link #REQUESTS} GET requests, sent one after another, and stop. Prints the requests each
 * answered with 200. (A package of its own: the agent never changes its own classes.)
 */
public final class ServersApp {
    public static final int REQUESTS = 300;

    private ServersApp() {}

    /** The JDK HttpServer's inner handler: its exchange comes from {@link Outer}, counted there. */
    static final class Inner implements HttpHandler {
        @Override
        public void handle(HttpExchange exchange) throws IOException {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        }
    }

    static final class Outer implements HttpHandler {
        private final HttpHandler inner = new Inner();

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            inner.handle(exchange);
        }
    }

    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("tomcat").toString());
        tomcat.setPort(0);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "front", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp)
                    throws ServletException, IOException {
                if (req.getRequestURI().equals("/front")) {
                    req.getRequestDispatcher("/back").forward(req, resp);
                } else {
                    resp.setStatus(200);
                }
            }
        });
        ctx.addServletMappingDecoded("/*", "front");
        tomcat.start();
        System.out.println("tomcat " + send(client, tomcat.getConnector().getLocalPort(), "/front"));
        tomcat.stop();
        tomcat.destroy();

        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setPort(0);
        jetty.addConnector(connector);
        jetty.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        jetty.start();
        System.out.println("jetty " + send(client, connector.getLocalPort(), "/"));
        jetty.stop();

        HttpServer jdk = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jdk.createContext("/", new Outer());
        jdk.start();
        System.out.println("jdk " + send(client, jdk.getAddress().getPort(), "/"));
        jdk.stop(0);

        Vertx vertx = Vertx.vertx();
        io.vertx.core.http.HttpServer server = vertx.createHttpServer()
                .requestHandler(r -> r.response().setStatusCode(200).end())
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get();
        System.out.println("vertx "
                + send(client, server.actualPort(), "/")); // HTTP/2: the JDK's client asks for h2c, which Vert.x grants
        System.out.println("vertx-http1 "
                + send(
                        HttpClient.newBuilder()
                                .version(HttpClient.Version.HTTP_1_1)
                                .build(),
                        server.actualPort(),
                        "/"));
        vertx.close().toCompletionStage().toCompletableFuture().get();
    }

    private static int send(HttpClient client, int port, String path) throws Exception {
        int ok = 0;
        for (int i = 0; i < REQUESTS; i++) {
            HttpResponse<Void> r = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            ok += r.statusCode() == 200 ? 1 : 0;
        }
        return ok;
    }
}
