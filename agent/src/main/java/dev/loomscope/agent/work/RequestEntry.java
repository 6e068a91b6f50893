package dev.loomscope.agent.work;

/**
 * Where a server known to loomscope begins one request: a method called once a request, on the thread that runs the
 * request's handler (timed: its duration is the request's time in the server), or where an event loop takes one in
 * (counted only: the handler may finish later on another thread). The {@code work=} option's default,
 * {@link WorkFilter#REQUESTS}, names them all, so that a service's requests are counted with no handler named.
 */
enum RequestEntry {
    /** Tomcat 8.5 to 11 (Spring Boot's default server): the connector hands every request to its adapter once. */
    TOMCAT("org/apache/catalina/connector/CoyoteAdapter", "service", true, false),
    /**
     * Jetty 9 to 12: the server handles each request once ({@code handleAsync}, a resumed request, is not counted
     * again).
     */
    JETTY("org/eclipse/jetty/server/Server", "handle", true, false),
    /**
     * Undertow's servlets (WildFly, Spring Boot's Undertow): the first dispatch of each request to its servlet chain.
     */
    UNDERTOW("io/undertow/servlet/handlers/ServletInitialHandler", "handleFirstRequest", true, false),
    /**
     * The JDK's {@code com.sun.net.httpserver}: the application's handlers (the server's own classes cannot see the
     * agent's), each exchange once when handlers pass it on to others.
     */
    JDK_HTTP_SERVER("com/sun/net/httpserver/HttpHandler", "handle", true, true) {
        @Override
        String stackFrame() {
            // the server's frame below every handler of an exchange
            return "sun.net.httpserver.ServerImpl$Exchange::run";
        }
    },
    /** Spring WebFlux on Reactor Netty: each request adapted once; its handler completes later, so counted only. */
    WEBFLUX("org/springframework/http/server/reactive/ReactorHttpHandlerAdapter", "apply", false, false),
    /** Vert.x 4 and 5 (Quarkus's server): each HTTP/1 request begins once on its event loop; counted only. */
    VERTX("io/vertx/core/http/impl/Http1xServerRequest", "handleBegin", false, false),
    /**
     * Vert.x 4 and 5 over HTTP/2 (h2c upgraded or TLS): each stream's request dispatched once to the handler; counted
     * only.
     */
    VERTX_HTTP2("io/vertx/core/http/impl/Http2ServerRequest", "dispatch", false, false);

    private final String internalClass;
    private final String method;
    private final boolean timed;
    private final boolean implementations;

    RequestEntry(String internalClass, String method, boolean timed, boolean implementations) {
        this.internalClass = internalClass;
        this.method = method;
        this.timed = timed;
        this.implementations = implementations;
    }

    String internalClass() {
        return internalClass;
    }

    String method() {
        return method;
    }

    boolean timed() {
        return timed;
    }

    /**
     * The frame ({@code class::method}) that marks a thread's stack as inside one of the entry's requests: the entry's
     * own, or where its own cannot be told from a frame, the server's below it.
     */
    String stackFrame() {
        return internalClass.replace('/', '.') + "::" + method;
    }

    /**
     * Whether the entry is the method of the classes implementing {@link #internalClass} (an interface) rather than its
     * own.
     */
    boolean implementations() {
        return implementations;
    }
}
