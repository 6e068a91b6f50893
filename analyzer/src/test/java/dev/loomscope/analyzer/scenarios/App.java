package dev.loomscope.analyzer.scenarios;

/**
 * The real-application corpus: applications and back-ends nobody here wrote, run as their users run them, each with its
 * known answer. Built and started by {@code benchmarks/apps.sh}, which gives where they are as system properties:
 * {@code loomscope.apps} (a directory holding Spring PetClinic built with its own Maven wrapper, once as released and
 * once with MySQL Connector/J 8.4.0), {@code loomscope.jetty} (benchmarks/server/JettyService.java's class path: Jetty
 * 12.1, H2 1.4.200, Caffeine), {@code loomscope.vertx} (benchmarks/server/VertxService.java's: Vert.x 5.0, its reactive
 * MySQL client, Netty), {@code loomscope.cj8}, {@code loomscope.cj9} and {@code loomscope.pgjdbc} (the drivers' jars),
 * {@code loomscope.mariadb} and {@code loomscope.postgres} (the database servers' host:port).
 */
public enum App implements Case {
    PETCLINIC(
            "Spring PetClinic (Spring Boot 4.0.3, Tomcat, Hibernate, HikariCP 7.0.2, H2) shows an owner and their pets",
            Launch.PETCLINIC,
            "",
            "/owners/1",
            200,
            "same",
            "same",
            Scenario.Hazard.SPINS),
    PETCLINIC_MARIADB(
            "the same on MariaDB through Connector/J 9 (as released): a few queries a page",
            Launch.PETCLINIC,
            "--spring.profiles.active=mysql --spring.datasource.url=jdbc:mysql://{mariadb}/petclinic",
            "/owners/1",
            200,
            "same",
            "same",
            Scenario.Hazard.SPINS),
    PETCLINIC_MARIADB_CJ8(
            "the same built with Connector/J 8.4.0, which holds a monitor around each query's socket read",
            Launch.PETCLINIC_CJ8,
            "--spring.profiles.active=mysql --spring.datasource.url=jdbc:mysql://{mariadb}/petclinic",
            "/owners/1",
            200,
            "same",
            "same",
            Scenario.Hazard.MONITOR,
            Scenario.Hazard.SPINS),
    JETTY_H2(
            "Jetty 12.1: an H2 1.4.200 query waiting 5 ms inside H2's session monitor, a pool of 64 connections",
            Launch.JETTY,
            "h2 5",
            "/",
            500,
            "worse",
            "same",
            Scenario.Hazard.MONITOR),
    JETTY_MARIADB_CJ8(
            "Jetty 12.1: SELECT SLEEP(0.005) on MariaDB through Connector/J 8.4.0, a pool of 64 connections",
            Launch.JETTY_CJ8,
            "jdbc:mysql://{mariadb}/mysql 5",
            "/",
            500,
            "worse",
            "same",
            Scenario.Hazard.MONITOR),
    JETTY_MARIADB_CJ9(
            "the same through Connector/J 9.6.0 (PetClinic's), whose locks are ReentrantLocks (healthy)",
            Launch.JETTY_CJ9,
            "jdbc:mysql://{mariadb}/mysql 5",
            "/",
            500,
            "same",
            "same"),
    JETTY_POSTGRES(
            "Jetty 12.1: SELECT 42 FROM pg_sleep(0.005) on PostgreSQL through pgjdbc 42.7.10, whose locks are"
                    + " ReentrantLocks, a pool of 64 connections (healthy)",
            Launch.JETTY_PGJDBC,
            "jdbc:postgresql://{postgres}/postgres?user=postgres 5",
            "/",
            500,
            "same",
            "same"),
    JETTY_CACHE(
            "Jetty 12.1: a Caffeine cache whose loader waits 5 ms, inside ConcurrentHashMap.compute, on nearly every"
                    + " request",
            Launch.JETTY,
            "cache 5",
            "/",
            500,
            "worse",
            "same",
            Scenario.Hazard.MONITOR),
    VERTX_MARIADB(
            "Vert.x 5.0 on Netty: SELECT SLEEP(0.005) on MariaDB through Vert.x's reactive MySQL client (a pool of 64),"
                    + " answered on the event loop or awaited on a virtual thread (healthy)",
            Launch.VERTX,
            "mysql://root@{mariadb}/mysql 5",
            "/",
            500,
            "same",
            "same");

    /** How an application starts: the command before its own arguments. */
    private enum Launch {
        PETCLINIC("java -jar {apps}/spring-petclinic.jar --server.port={port}"
                + " --spring.threads.virtual.enabled={virtual}"),
        PETCLINIC_CJ8("java -jar {apps}/spring-petclinic-cj8.jar --server.port={port}"
                + " --spring.threads.virtual.enabled={virtual}"),
        JETTY("java -cp {jetty} JettyService {threads} {port}"),
        JETTY_CJ8("java -cp {jetty}:{cj8} JettyService {threads} {port}"),
        JETTY_CJ9("java -cp {jetty}:{cj9} JettyService {threads} {port}"),
        JETTY_PGJDBC("java -cp {jetty}:{pgjdbc} JettyService {threads} {port}"),
        VERTX("java -cp {vertx} VertxService {threads} {port}");

        private final String command;

        Launch(String command) {
            this.command = command;
        }
    }

    private final Launch launch;
    private final String arguments;
    private final String path;
    private final Known known;

    App(
            String what,
            Launch launch,
            String arguments,
            String path,
            int rate,
            String jdk21,
            String jdk25,
            Scenario.Hazard... hazards) {
        this.launch = launch;
        this.arguments = arguments;
        this.path = path;
        this.known = Known.of(what, rate, jdk21, jdk25, hazards);
    }

    public static App named(String label) {
        return Case.named(App.class, label);
    }

    @Override
    public Known known() {
        return known;
    }

    @Override
    public String path() {
        return path;
    }

    /** An application is read as users read their recordings: no {@code --rate}. */
    @Override
    public boolean adviseAtRate() {
        return false;
    }

    /** The launch's command and this application's arguments, with where apps.sh put things filled in. */
    @Override
    public String command() {
        String line = (launch.command + " " + arguments).strip();
        for (String place : new String[] {"apps", "jetty", "vertx", "cj8", "cj9", "pgjdbc", "mariadb", "postgres"}) {
            String token = "{" + place + "}";
            if (line.contains(token)) {
                String value = System.getProperty("loomscope." + place);
                if (value == null) {
                    throw new IllegalStateException(
                            label() + " needs -Dloomscope." + place + " (benchmarks/apps.sh gives it)");
                }
                line = line.replace(token, value);
            }
        }
        return line;
    }
}
