/**
 * Built-in sources that listen on the network: {@code http}, {@code tcp}, {@code syslog-udp} and
 * {@code syslog-tcp}. Each binds to 127.0.0.1 unless its {@code address} option says otherwise, fails its
 * {@code start} with a message naming the port when the port cannot be bound, and gives every message the peer's
 * address and port, the receive time ({@code timestamp}) and an {@code id}.
 */
package io.xd.modules.builtin.source;
