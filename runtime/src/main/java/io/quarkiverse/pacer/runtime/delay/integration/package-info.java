/**
 * Integrations with optional extensions: JTA schedule-on-commit and forwarding due messages to a Quarkus
 * Messaging channel.
 */
package io.quarkiverse.pacer.runtime.delay.integration;
