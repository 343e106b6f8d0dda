package io.xd.server;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The server-wide caps of xd.admin.limits: streams kept, and versions of history kept per stream. */
class StreamLimitsIntegrationTests {

	@TempDir
	Path data;

	@Test
	void keepsAtMostMaxStreamsAndTheNewestMaxReleasesVersionsOfEachStream() {
		try (SingleNode node = new SingleNode(this.data, "--xd.admin.limits.maxStreams=2",
				"--xd.admin.limits.maxReleases=3")) {
			assertThat(node.createStream("s1", "time | log", false).status()).isEqualTo(201);
			assertThat(node.createStream("s2", "time | log", false).status()).isEqualTo(201);
			AdminApi.Response third = node.createStream("s3", "time | log", false);
			assertThat(third.status()).isEqualTo(400);
			assertThat(third.body()).contains("StreamLimitException", "xd.admin.limits.maxStreams");

			for (int level = 0; level < 5; level++) {
				String properties = "app.log.expression='v" + level + "'";
				assertThat(node.postForm(level == 0 ? "/streams/deployments/s1" : "/streams/deployments/update/s1",
						Map.of("properties", properties)).status()).as("version " + (level + 1)).isIn(200, 201);
			}
			assertThat(node.get("/streams/deployments/history/s1").json().valueStream()
				.map(release -> release.get("version").asInt())
				.toList()).containsExactly(5, 4, 3);
			assertThat(node.post("/streams/deployments/rollback/s1/1", null, "").status()).isEqualTo(404);
			assertThat(node.post("/streams/deployments/rollback/s1/3", null, "").status()).isEqualTo(200);

			assertThat(node.delete("/streams/definitions/s2").status()).isEqualTo(200);
			assertThat(node.createStream("s3", "time | log", false).status()).isEqualTo(201);
		}
	}
}
