package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.loomscope.load.RequestFileTest;
import java.io.FileInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope load} as a user runs it: a request file with {@code --port}, and a POST with a JSON body and a
 * header over TLS with a self-signed certificate (refused with the option that allows it named, then loaded with it).
 */
class LoadCommandTest {
    @TempDir
    Path dir;

    @Test
    void aRequestFileIsLoadedWithItsPortGiven() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        server.createContext("/", x -> {
            String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean right = x.getRequestMethod().equals("GET")
                    || body.equals("{\"item\": 42}")
                            && "Bearer t0k3n".equals(x.getRequestHeaders().getFirst("Authorization"));
            x.sendResponseHeaders(right ? 200 : 400, -1);
            x.close();
        });
        server.start();
        try {
            Path f = Files.writeString(dir.resolve("shop.http"), RequestFileTest.MIX);
            Run r = load(List.of(
                    "--request-file",
                    f.toString(),
                    "--port",
                    Integer.toString(server.getAddress().getPort()),
                    "--windows",
                    "1",
                    "--histogram-log",
                    dir.resolve("windows.hlog").toString()));
            assertThat(r.code()).as(r.all()).isZero();
            assertThat(r.out())
                    .contains("requests shop.http at 20/s: 1 window, 1.0 s: ")
                    .contains(", 0 errors, ");
            // the window's histogram, as HdrHistogram's own reader reads it
            HistogramLogReader log =
                    new HistogramLogReader(dir.resolve("windows.hlog").toString());
            List<String> tags = new ArrayList<>();
            for (EncodableHistogram h = log.nextIntervalHistogram(); h != null; h = log.nextIntervalHistogram()) {
                tags.add(h.getTag());
            }
            assertThat(tags).endsWith("measured:requests_shop.http@20/s").contains("warm-up:requests_shop.http@20/s");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aPostWithAJsonBodyAndAHeaderOverHttpsIsLoadedAndJudged() throws Exception {
        Path keystore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "s",
                        "-keyalg",
                        "EC",
                        "-dname",
                        "CN=localhost",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keystore.toString(),
                        "-storepass",
                        "secret")
                .redirectErrorStream(true)
                .start();
        assertThat(keytool.waitFor())
                .as(new String(keytool.getInputStream().readAllBytes()))
                .isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(keystore.toFile())) {
            ks.load(in, "secret".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "secret".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/orders", x -> {
            byte[] body = x.getRequestBody().readAllBytes();
            boolean right = x.getRequestMethod().equals("POST")
                    && "Bearer t0k3n".equals(x.getRequestHeaders().getFirst("Authorization"))
                    && List.of("application/json").equals(x.getRequestHeaders().get("Content-Type"))
                    && new String(body, StandardCharsets.UTF_8).equals("{\"item\":42}");
            x.sendResponseHeaders(right ? 201 : 400, -1);
            x.close();
        });
        server.start();
        try {
            String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/orders";
            Path body = Files.writeString(dir.resolve("order.json"), "{\"item\":42}");
            // the URL where wrk and ab take it, among the options; POST because of the body, as curl
            List<String> args = List.of(
                    url,
                    "--header",
                    "Authorization: Bearer t0k3n",
                    "--header",
                    "Content-Type: application/json",
                    "--body",
                    "@" + body,
                    "--windows",
                    "2");
            Run refused = load(args);
            assertThat(refused.code()).isEqualTo(2);
            assertThat(refused.err())
                    .contains(url + ": TLS failed")
                    .contains("a self-signed certificate needs --insecure");
            List<String> insecure = new ArrayList<>(args);
            insecure.add("--insecure");
            Run r = load(insecure);
            assertThat(r.code()).as(r.all()).isZero();
            // 201s, all of them: the server answered 400 to a request without the header or the body
            assertThat(r.out())
                    .containsPattern(
                            "POST /orders at 20/s: 2 windows, 2\\.0 s: [\\d,]+ offered(?: and [\\d,]+ late before)?:"
                                    + " [\\d,]+ answered \\([\\d.]+/s\\), 0 errors, [\\d,]+ late at the end; latency"
                                    + " from each request's intended start");
        } finally {
            server.stop(0);
        }
    }

    /** What {@code loomscope load} said and returned. */
    record Run(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** {@code loomscope load} with {@code args} at 20/s, a warm-up of 1-5 s and windows of a second. */
    private static Run load(List<String> args) {
        List<String> all = new ArrayList<>(List.of("load"));
        all.addAll(args);
        all.addAll(List.of("--rate", "20", "--min-warmup", "1s", "--max-warmup", "5s", "--window", "1s"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }
}
