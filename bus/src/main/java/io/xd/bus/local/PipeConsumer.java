package io.xd.bus.local;

import org.springframework.messaging.MessageHandler;

/** A directly bound consumer as it was bound, and wrapped to report its failures. */
record PipeConsumer(MessageHandler handler, MessageHandler reporting) {
}
