package dev.loomscope.serverapp;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Fixture app for the agent's loomscope.Library: makes a HikariCP pool (no database: one is not asked for until a
 * connection is) and closes it, as a service's start-up does before its first query. Prints the pool's name.
 */
public final class PoolApp {
    private PoolApp() {}

    public static void main(String[] args) {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setPoolName("fixture");
            System.out.println("pool " + pool.getPoolName());
        }
    }
}
