package io.xd.benchmarks.runner;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTests {

	private static final String SCRAPE = """
			# HELP xd_module_messages_in_total messages the module handled
			# TYPE xd_module_messages_in_total counter
			xd_module_messages_in_total{instance="0",module="throughput",stream="direct100",type="sink"} 5.0E7
			xd_module_messages_in_total{instance="1",module="throughput",stream="part3",type="sink"} 1200.0
			xd_module_messages_in_total{instance="2",module="throughput",stream="part3",type="sink"} 800.0
			# HELP xd_module_messages_out_total messages the module sent
			xd_module_messages_out_total{instance="0",module="load-generator",stream="direct100",type="source"} 5.0E7
			jvm_info{runtime="OpenJDK Runtime Environment",vendor="Eclipse Adoptium",version="17.0.15+6"} 1
			process_uptime_seconds 12.5 1732350000000
			odd_label{text="a \\"quoted\\", comma} , brace"} NaN
			not a metric line
			""";

	@Test
	void sumsTheSamplesWhoseLabelsMatch() {
		Prometheus prometheus = Prometheus.parse(SCRAPE);

		assertThat(prometheus.sum("xd_module_messages_in_total", Map.of("stream", "part3", "type", "sink")))
			.isEqualTo(2000.0);
		assertThat(prometheus.sum("xd_module_messages_in_total", Map.of("stream", "direct100"))).isEqualTo(5.0E7);
		assertThat(prometheus.sum("xd_module_messages_out_total", Map.of("type", "source"))).isEqualTo(5.0E7);
	}

	@Test
	void answersNullForAMeterThatIsNotRegistered() {
		Prometheus prometheus = Prometheus.parse(SCRAPE);

		assertThat(prometheus.sum("xd_module_messages_in_total", Map.of("stream", "gone"))).isNull();
	}

	@Test
	void readsUnlabelledSamplesTimestampsAndEscapedLabels() {
		Prometheus prometheus = Prometheus.parse(SCRAPE);

		assertThat(prometheus.sum("process_uptime_seconds", Map.of())).isEqualTo(12.5);
		assertThat(prometheus.metrics()).anySatisfy(metric -> {
			assertThat(metric.name()).isEqualTo("odd_label");
			assertThat(metric.labels()).containsEntry("text", "a \"quoted\", comma} , brace");
			assertThat(metric.value()).isNaN();
		});
		assertThat(prometheus.metrics()).hasSize(7);
	}
}
