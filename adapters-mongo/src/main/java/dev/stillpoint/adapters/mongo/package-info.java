/**
 * The MongoDB adapter: issue 6; a shell until that issue lands.
 */
package dev.stillpoint.adapters.mongo;
