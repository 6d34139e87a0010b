/**
 * The PostgreSQL adapter (jOOQ): issue 4; a shell until that issue lands.
 */
package dev.stillpoint.adapters.postgres;
