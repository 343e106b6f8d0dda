package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class SuiteJsonTests {

	@TempDir
	Path home;

	@Test
	void writesTheShapeTheReportReadsWithNullAndAReasonForAMissingFigure() throws IOException {
		Bench bench = new Bench(this.home, "test");
		SuiteJson json = new SuiteJson(bench, "partitions", "Kafka consumer scaling over partitions")
			.note("a note")
			.columns("partitions", "producer msg/s", "consumer msg/s")
			.row(1, Figure.of(181108.04), Figure.of(103789.0))
			.row(3, Figure.na("the topic's end offsets did not reach 400000"), SuiteJson.rounded(Figure.of(2.345), 2));
		json.chart("Consumer rate by partition count", "bar", "partitions", "msg/s", false)
			.series("consumer", List.of(1, 3), List.of(Figure.of(103789.0), Figure.na("x")));

		Path file = json.write();

		assertThat(file).isEqualTo(this.home.resolve("target/bench/partitions.json"));
		JsonNode root = JsonMapper.builder().build().readTree(Files.readString(file));
		assertThat(root.get("suite").asString()).isEqualTo("partitions");
		assertThat(root.get("machine").get("cpus").isInt()).isTrue();
		assertThat(root.at("/table/rows/0").toString()).isEqualTo("[1,181108.0,103789.0]");
		assertThat(root.at("/table/rows/1").toString()).isEqualTo("[3,null,2.35]");
		assertThat(root.at("/charts/0/series/0/points").toString())
			.isEqualTo("[{\"x\":1,\"y\":103789.0},{\"x\":3,\"y\":null}]");
		List<String> notes = new ArrayList<>();
		root.get("notes").forEach(note -> notes.add(note.asString()));
		assertThat(notes).containsExactly("a note",
				"n/a: producer msg/s at partitions 3: the topic's end offsets did not reach 400000.");
	}
}
