package dev.stillpoint.properties.kit;

/**
 * What an adapter supplies to run the conformance kit: how to start a fresh engine on a live
 * database, and what the backend declares. The kit owns every assertion.
 */
public interface ConformanceFixture {

    /** The backend's name, for messages. */
    String backendName();

    /**
     * A fresh engine with these settings. Engines started by one fixture share one database: a table
     * one engine creates, another sees (K6 creates a table on a second engine with a 1 h control-plane
     * delay and opens snapshots of the first engine's table there). Tables the kit creates have new
     * names, so runs may share a database too.
     */
    KitEngine start(KitSettings settings);

    /** What the backend declares. */
    Expectations expectations();
}
