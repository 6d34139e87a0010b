/**
 * DynamoDB's request rules [R1-R4], stated once: every operation of the core service checks its
 * request here before any storage adapter sees it, so every backend accepts and refuses alike [R5].
 */
package dev.stillpoint.domain.request;
