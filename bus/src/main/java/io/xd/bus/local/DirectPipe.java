package io.xd.bus.local;

import java.util.ArrayList;
import java.util.List;

/** An anonymous pipe: its directly bound consumers and the producers wired to them. */
final class DirectPipe {

	final List<PipeConsumer> consumers = new ArrayList<>();

	final List<LocalProducerBinding> producers = new ArrayList<>();
}
