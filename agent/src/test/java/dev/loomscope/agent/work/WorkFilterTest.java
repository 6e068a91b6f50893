package dev.loomscope.agent.work;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkFilterTest {
    @Test
    void readsJfrsMethodFilterSyntax() {
        List<String> problems = new ArrayList<>();
        WorkFilter f = WorkFilter.parse("com.example.Handler::handle; com.example.Jobs ;@jakarta.ws.rs.GET", problems);
        assertThat(problems).isEmpty();
        assertThat(f.match("com/example/Handler", List.of(), "handle", "()V", List.of()))
                .isEqualTo(new WorkFilter.Match("com.example.Handler::handle", true, false));
        assertThat(f.match("com/example/Handler", List.of(), "close", "()V", List.of()))
                .isNull();
        assertThat(f.match("com/example/Jobs", List.of(), "anything", "()V", List.of()))
                .isNotNull();
        assertThat(f.match("com/example/Other", List.of(), "get", "()V", List.of("Ljakarta/ws/rs/GET;")))
                .isNotNull();
        assertThat(f.mayMatch("com/example/Other")).isTrue(); // an annotation may be on any class's method
        assertThat(WorkFilter.parse("com.example.Handler::handle", problems).mayMatch("com/example/Other"))
                .isFalse();
    }

    @Test
    void namesWhatItCannotRead() {
        List<String> problems = new ArrayList<>();
        WorkFilter f = WorkFilter.parse("com.example.Handler::; ::handle;a b::c", problems);
        assertThat(f.isEmpty()).isTrue();
        assertThat(problems)
                .hasSize(3)
                .allMatch(p -> p.endsWith("is not Class::method, Class, @Annotation or requests"));
    }

    /**
     * The default, requests: each server's entry, timed where the request's handler runs on the thread, counted only on
     * an event loop; the JDK HttpServer's handlers by the interface they implement, once an exchange.
     */
    @Test
    void requestsNamesTheServersEntries() {
        List<String> problems = new ArrayList<>();
        WorkFilter f = WorkFilter.parse("requests", problems);
        assertThat(problems).isEmpty();
        assertThat(f.requestsOnly()).isTrue();
        assertThat(WorkFilter.parse("requests;com.example.Jobs", problems).requestsOnly())
                .isFalse();
        assertThat(f.match("org/apache/catalina/connector/CoyoteAdapter", List.of(), "service", "(Lx;Ly;)V", List.of()))
                .isEqualTo(new WorkFilter.Match("org.apache.catalina.connector.CoyoteAdapter::service", true, false));
        assertThat(f.match(
                        "org/apache/catalina/connector/CoyoteAdapter",
                        List.of(),
                        "asyncDispatch",
                        "(Lx;Ly;)Z",
                        List.of()))
                .isNull();
        assertThat(f.match("io/vertx/core/http/impl/Http1xServerRequest", List.of(), "handleBegin", "(ZZ)V", List.of())
                        .timed())
                .isFalse();
        assertThat(f.match(
                        "com/example/Api",
                        List.of("com/sun/net/httpserver/HttpHandler"),
                        "handle",
                        "(Lcom/sun/net/httpserver/HttpExchange;)V",
                        List.of()))
                .isEqualTo(new WorkFilter.Match("com.example.Api::handle", true, true));
        assertThat(f.match(
                        "com/example/Api", List.of(), "handle", "(Lcom/sun/net/httpserver/HttpExchange;)V", List.of()))
                .isNull();
        assertThat(f.mayMatch("com/example/Anything")).isTrue(); // a handler may be any class
        // told by the class's header: only the servers' classes and the classes implementing HttpHandler are changed or
        // retransformed
        assertThat(f.mayMatch("com/example/Anything", List.of("java/lang/Runnable")))
                .isFalse();
        assertThat(f.mayMatch("com/example/Api", List.of("com/sun/net/httpserver/HttpHandler")))
                .isTrue();
        assertThat(f.mayMatch(
                        "org/apache/catalina/connector/CoyoteAdapter",
                        List.of("org/apache/catalina/connector/Adapter")))
                .isTrue();
        // a thread in a request is told from its stack: the entry's frame, or the JDK HttpServer's own below its
        // handlers
        StackTraceElement sleep = new StackTraceElement("java.lang.Thread", "sleep", null, -1);
        assertThat(f.unitOf(new StackTraceElement[] {
                    sleep,
                    new StackTraceElement("com.example.Api", "handle", null, 9),
                    new StackTraceElement("sun.net.httpserver.ServerImpl$Exchange", "run", null, 891)
                }))
                .isEqualTo("sun.net.httpserver.ServerImpl$Exchange::run");
        assertThat(f.unitOf(new StackTraceElement[] {
                    sleep, new StackTraceElement("org.apache.catalina.connector.CoyoteAdapter", "service", null, 1)
                }))
                .isEqualTo("org.apache.catalina.connector.CoyoteAdapter::service");
        assertThat(f.unitOf(new StackTraceElement[] {
                    sleep, new StackTraceElement("org.apache.tomcat.util.net.NioEndpoint$Poller", "run", null, 1)
                }))
                .isNull();
    }

    /** A thread's unit of work from its stack: the outermost frame a Class::method or Class rule names. */
    @Test
    void tellsTheUnitOfWorkFromAStack() {
        WorkFilter f = WorkFilter.parse("com.example.Handler::handle; com.example.Jobs", new ArrayList<>());
        StackTraceElement[] stack = {
            new StackTraceElement("java.lang.Thread", "sleep", null, -1),
            new StackTraceElement("com.example.Jobs", "step", null, 3),
            new StackTraceElement("com.example.Handler", "handle", null, 9),
            new StackTraceElement("com.example.Server", "run", null, 1)
        };
        assertThat(f.unitOf(stack)).isEqualTo("com.example.Handler::handle");
        assertThat(f.unitOf(new StackTraceElement[] {stack[0], stack[3]})).isNull();
    }
}
