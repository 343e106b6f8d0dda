package io.xd.benchmarks.runner;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One stream {@code <source> | <sink>} deployed on a singlenode through the REST API and watched through its
 * module meters until it is done, then destroyed. The source's {@code xd.module.messages.out} and the sink's
 * {@code xd.module.messages.in} are read from {@code /actuator/prometheus} every poll interval, and with Kafka the
 * sum of the pipe topic's end offsets too, so that rates come from samples (see {@link Rates}), not from logs.
 *
 * @param name the stream's name, fresh in this run
 * @param definition the stream's DSL
 * @param properties deployment properties, or empty
 * @param expected the messages the source sends ({@code --messageCount}), or 0 when the source runs for a
 * duration: then the run is done once the source has stopped counting and the sink has every message it sent (its
 * count still for 1.5 s, or for 0.3 s once the source's {@code --duration=<n>s}, when the definition gives one,
 * has passed since its first message was seen)
 * @param poll how often to read the meters
 * @param sinkStream the stream whose sink receives what the source sends: this one, or a stream deployed
 * beforehand that reads the named channel this one writes to ({@code ... > queue:q} and {@code queue:q > ...})
 */
record StreamRun(String name, String definition, String properties, long expected, Duration poll, String sinkStream) {

	StreamRun(String name, String definition, String properties, long expected, Duration poll) {
		this(name, definition, properties, expected, poll, name);
	}

	static final String SENT = "xd_module_messages_out_total";

	static final String RECEIVED = "xd_module_messages_in_total";

	private static final Duration TIMEOUT = Duration.ofSeconds(900);

	/** The source counts as stopped once its meter has not moved for this long. */
	private static final long IDLE_NANOS = Duration.ofMillis(1500).toNanos();

	/** As {@link #IDLE_NANOS}, once the source's own duration is over: only sends under way may still count. */
	private static final long IDLE_AFTER_DURATION_NANOS = Duration.ofMillis(300).toNanos();

	/** A paced source's {@code --duration=<n>s}. */
	private static final Pattern SOURCE_DURATION = Pattern.compile("^\\s*load-generator\\b[^|>]*?--duration=([0-9]+)s\\b");

	private static final long NO_METERS_NANOS = Duration.ofSeconds(60).toNanos();

	private static final long PROGRESS_NANOS = Duration.ofSeconds(5).toNanos();

	/**
	 * What a run recorded.
	 *
	 * @param sent the source's messages-out meter
	 * @param received the sink's messages-in meter
	 * @param acknowledged the sum of the pipe topic's end offsets (empty without Kafka)
	 * @param total the messages the source sent
	 * @param latency the sink's latency percentiles in microseconds (see {@link LatencySummary}), each n/a with its
	 * reason when the sink does not measure latency
	 */
	record Result(List<Sample> sent, List<Sample> received, List<Sample> acknowledged, long total,
			Map<String, Figure> latency) {

		/** Messages per second at the sink over the whole run. */
		Figure sinkRate() {
			return Rates.rate(this.received, 1, this.total);
		}

		/** Messages per second at the sink from a third of the messages on (after the warm-up). */
		Figure steadySinkRate() {
			return Rates.rate(this.received, this.total / 3, this.total);
		}

		/** Messages per second from the source's first message to the sink's last, for paced sources. */
		Figure deliveredRate() {
			return Rates.sinceFirstSent(this.sent, this.received, "the sink's meter", this.total);
		}

		/** The source's rate counted to the broker's acknowledgement; n/a without Kafka. */
		Figure producerRate() {
			return this.acknowledged.isEmpty() ? Figure.na("no Kafka topic between the modules")
					: Rates.sinceFirstSent(this.sent, this.acknowledged, "the topic's end offsets", this.total);
		}
	}

	/**
	 * Deploys the stream, samples it until done, reads the sink's latency meter when {@code latency} (waiting until
	 * it covers every message) and destroys the stream.
	 * @param offsets the Kafka offsets reader for a stream over Kafka, or {@code null} over the local bus
	 * @param progress receives a progress line every 5 s
	 * @throws IOException when the stream does not complete within 900 s or the server dies, with the log's end
	 */
	Result run(Singlenode singlenode, KafkaOffsets offsets, boolean latency, Consumer<String> progress)
			throws IOException, InterruptedException {
		singlenode.createStream(this.name, this.definition);
		singlenode.deployStream(this.name, this.properties);
		Map<String, String> source = Map.of("stream", this.name, "type", "source");
		Map<String, String> sink = Map.of("stream", this.sinkStream, "type", "sink");
		String topic = KafkaOffsets.pipeTopic(this.name, 0);
		List<Sample> sent = new ArrayList<>();
		List<Sample> received = new ArrayList<>();
		List<Sample> acknowledged = new ArrayList<>();
		long begin = System.nanoTime();
		long lastProgress = begin;
		long lastChange = begin;
		long duration = sourceDuration(this.definition).map(Duration::toNanos).orElse(-1L);
		long firstSent = 0;
		while (true) {
			long before = System.nanoTime();
			Prometheus meters = singlenode.prometheus(family(SENT), family(RECEIVED));
			long acked = (offsets != null) ? offsets.endOffsets(topic) : 0;
			long now = System.nanoTime();
			long at = before + (now - before) / 2;
			long out = count(meters.sum(SENT, source));
			long in = count(meters.sum(RECEIVED, sink));
			if (out != Rates.last(sent)) {
				lastChange = now;
			}
			if (out > 0 && firstSent == 0) {
				firstSent = now;
			}
			sent.add(new Sample(at, out));
			received.add(new Sample(at, in));
			if (offsets != null) {
				acknowledged.add(new Sample(at, acked));
			}
			// the source sent its first message before this poll's reading, so its duration is over by then
			boolean sourceOver = duration >= 0 && firstSent != 0 && now - firstSent >= duration;
			if (isDone(out, in, now - lastChange, sourceOver)) {
				break;
			}
			if (out == 0 && in == 0 && meters.metrics().isEmpty() && now - begin > NO_METERS_NANOS) {
				throw new IOException("No module meters for stream " + this.name + " after 60 s (" + SENT + ", "
						+ RECEIVED + " in /actuator/prometheus); the end of the singlenode's log:\n"
						+ singlenode.tail(20));
			}
			if (now - begin > TIMEOUT.toNanos() || !singlenode.isAlive()) {
				throw new IOException("Stream " + this.name + " did not complete (sent " + out + ", received " + in
						+ "); the end of the singlenode's log:\n" + singlenode.tail(20));
			}
			if (now - lastProgress >= PROGRESS_NANOS) {
				progress.accept(String.format("  %s: %d s, sent %,d, received %,d%s", this.name,
						(now - begin) / 1_000_000_000L, out, in, this.expected > 0 ? " of " + String.format("%,d", this.expected) : ""));
				lastProgress = now;
			}
			Thread.sleep(Math.max(1, this.poll.toMillis() - (System.nanoTime() - before) / 1_000_000));
		}
		long total = this.expected > 0 ? this.expected : Rates.last(sent);
		Map<String, Figure> percentiles = latency ? sinkLatency(singlenode, total) : Map.of();
		singlenode.destroyStream(this.name);
		return new Result(List.copyOf(sent), List.copyOf(received), List.copyOf(acknowledged), total, percentiles);
	}

	/**
	 * The sink's latency percentiles once they cover {@code total} messages: its messages-in meter counts a message
	 * just before the sink records its latency, so the last one may lag by a moment. Waits up to 10 s.
	 */
	private Map<String, Figure> sinkLatency(Singlenode singlenode, long total) throws IOException,
			InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (true) {
			Prometheus meters = singlenode.prometheus(LatencySummary.LATENCY, LatencySummary.MEASURED);
			if (LatencySummary.measured(meters, this.sinkStream) >= total || System.nanoTime() > deadline) {
				return LatencySummary.of(meters, this.sinkStream);
			}
			Thread.sleep(100);
		}
	}

	private boolean isDone(long out, long in, long idleNanos, boolean sourceOver) {
		if (this.expected > 0) {
			return in >= this.expected;
		}
		return out > 0 && in >= out && idleNanos >= (sourceOver ? IDLE_AFTER_DURATION_NANOS : IDLE_NANOS);
	}

	/** The {@code --duration=<n>s} of a definition's {@code load-generator} source, if it has one. */
	static Optional<Duration> sourceDuration(String definition) {
		Matcher matcher = SOURCE_DURATION.matcher(definition);
		return matcher.find() ? Optional.of(Duration.ofSeconds(Long.parseLong(matcher.group(1)))) : Optional.empty();
	}

	/** Actuator's {@code includedNames} filters by metric family: a counter's name without {@code _total}. */
	private static String family(String sample) {
		return sample.endsWith("_total") ? sample.substring(0, sample.length() - "_total".length()) : sample;
	}

	private static long count(Double value) {
		return value == null ? 0 : Math.round(value);
	}
}
