package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.bus.kafka.TopicRecords;
import io.xd.modules.builtin.ThroughputSink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A servers.yml with the settings of the seed's Kafka benchmark, written for Spring XD, runs a stream on Kafka. */
class KafkaServersYmlIntegrationTests {

	@TempDir
	Path data;

	@Test
	void loadsTheSeedsServersYmlAndWritesRawRecordsThatAPlainConsumerReadsUnchanged() throws Exception {
		String serversYml = SingleNode.serversYml(this.data, """
				xd:
				  transport: kafka
				  messagebus:
				    kafka:
				      brokers: %s
				      zkAddress: localhost:2181
				      mode: raw
				      default:
				        batchSize: 128000
				        minPartitionCount: 6
				        replicationFactor: 1
				""".formatted(SharedKafkaBroker.brokers()));
		try (SingleNode node = new SingleNode(this.data.resolve("xd"), serversYml)) {
			node.createStream("seedlike", "load-generator --messageCount=10000 --messageSize=100 | throughput", true);
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				ThroughputSink sink = (ThroughputSink) node.module("seedlike.sink.throughput.1");
				return sink != null && sink.totals().messages() == 10_000;
			});
		}

		try (KafkaConsumer<byte[], byte[]> consumer = TopicRecords.consumer()) {
			assertThat(consumer.partitionsFor("seedlike.0")).hasSize(6);
		}
		List<ConsumerRecord<byte[], byte[]>> records = TopicRecords.read("seedlike.0", 10_000, Duration.ofSeconds(30));
		assertThat(records).hasSize(10_000);
		assertThat(records).allSatisfy(record -> {
			assertThat(record.value()).hasSize(100);
			assertThat(record.headers().toArray()).isEmpty();
			assertThat(record.key()).isNull();
		});
		assertThat(records.stream().map(ConsumerRecord::partition).distinct().count()).isGreaterThan(1);
	}
}
