/**
 * The hexagon's centre: the one implementation of the driving ports. Every DynamoDB request rule is
 * applied here, once, before an adapter is called; adapters hold storage only.
 */
package dev.stillpoint.core;
