package io.xd.benchmarks.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.ValueMapper;

/**
 * The Kafka Streams side of the {@code peer} suite, run in a JVM of its own ({@link PeerSuite} forks it, so that its
 * first instance pays a cold JVM as XD's first stream does): the hop XD's {@code bridge} or {@code transform
 * --expression=payload.toUpperCase()} makes, as a topology with Kafka Streams' default settings, one instance after
 * the other in the same JVM.
 * <p>
 * {@code KafkaStreamsHop BOOTSTRAP HOP STATE_DIR GUARANTEE IN OUT [GUARANTEE IN OUT ...]}: {@code HOP} is
 * {@code bridge} ({@code builder.stream(in).to(out)} with byte-array serdes) or {@code transform}
 * ({@code .mapValues(String::toUpperCase)} with String serdes); each {@code GUARANTEE} is its instance's
 * {@code processing.guarantee} ({@code at_least_once}, {@code exactly_once_v2}). Starts an instance on the first
 * triple (application id {@code peer-OUT}); each line read from standard input closes the running instance and
 * starts the next; after the last, the process exits. It
 * exits with status 1 when an instance fails, so that the runner, watching the output topic, sees it die.
 */
public final class KafkaStreamsHop {

	private KafkaStreamsHop() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length < 6 || args.length % 3 != 0) {
			System.err.println("Usage: KafkaStreamsHop BOOTSTRAP bridge|transform STATE_DIR GUARANTEE IN OUT "
					+ "[GUARANTEE IN OUT ...]");
			System.exit(2);
		}
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (int i = 3; i < args.length; i += 3) {
			KafkaStreams streams = new KafkaStreams(topology(args[1], args[i + 1], args[i + 2]),
					config(args[0], args[i], Path.of(args[2]), "peer-" + args[i + 2]));
			streams.setUncaughtExceptionHandler(ex -> {
				ex.printStackTrace();
				Runtime.getRuntime().halt(1);
				return null;
			});
			streams.start();
			System.err.println("started " + args[i + 1] + " -> " + args[i + 2] + " (" + args[i] + ")");
			String line = commands.readLine();
			streams.close(Duration.ofSeconds(30));
			if (line == null) {
				break;
			}
		}
	}

	/** The hop's topology: records copied as bytes, or their values upper-cased as text. */
	static Topology topology(String hop, String in, String out) {
		StreamsBuilder builder = new StreamsBuilder();
		switch (hop) {
			case "bridge" -> builder.stream(in, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
				.to(out, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
			case "transform" -> builder.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
				.mapValues((ValueMapper<String, String>) String::toUpperCase)
				.to(out, Produced.with(Serdes.String(), Serdes.String()));
			default -> throw new IllegalArgumentException("no hop " + hop + " (bridge or transform)");
		}
		return builder.build();
	}

	private static Properties config(String bootstrap, String guarantee, Path stateDir, String applicationId) {
		Properties config = new Properties();
		config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
		config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
		config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
		// where Kafka Streams keeps its (here empty) task directories: under the run's work directory, not /tmp
		config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
		return config;
	}
}
