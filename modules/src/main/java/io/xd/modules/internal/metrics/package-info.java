/**
 * Counting on the hot path without allocation or contended atomics: {@link
 * io.xd.modules.internal.metrics.MessageCounter} and its per-thread slot mechanism. Used by the container's module
 * meters and by the built-in measuring modules (the only internal package they may import); not module SPI.
 */
package io.xd.modules.internal.metrics;
