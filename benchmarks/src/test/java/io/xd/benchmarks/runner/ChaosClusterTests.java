package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosClusterTests {

	@TempDir
	Path dir;

	@Test
	void aBrokerThatLostItsOnlyLogDirectoryAfterTheMarkHasGivenUpThoughItsProcessLivesOn() throws IOException {
		Path log = this.dir.resolve("broker.log");
		// an earlier incarnation's failure, before the mark, does not count
		Files.writeString(log, "[2026-11-28 07:30:00,000] ERROR Shutdown broker because all log dirs in /d have "
				+ "failed (kafka.log.LogManager)\n[2026-11-28 07:36:31,877] INFO Skipping recovery of 31 logs\n");
		long mark = Files.size(log);

		assertThat(ChaosCluster.gaveUp(log, mark)).isFalse();

		Files.writeString(log, "[2026-11-28 07:36:34,946] ERROR Error while writing to checkpoint file\n"
				+ "java.io.IOException: No space left on device\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		assertThat(ChaosCluster.gaveUp(log, mark)).as("a full disk the broker ran through").isFalse();

		Files.writeString(log, "[2026-11-28 07:36:34,946] ERROR Shutdown broker because all log dirs in "
				+ "/tmp/x/kafka/data have failed (kafka.log.LogManager)\n", StandardCharsets.UTF_8,
				StandardOpenOption.APPEND);
		assertThat(ChaosCluster.gaveUp(log, mark)).isTrue();
	}

	@Test
	void aFatalFaultIsGivingUpAndAMissingLogIsNot() throws IOException {
		Path log = this.dir.resolve("broker.log");

		assertThat(ChaosCluster.gaveUp(log, 0)).isFalse();

		Files.writeString(log, "[2026-11-28 07:36:38,315] ERROR Encountered fatal fault: Unexpected error in raft IO "
				+ "thread (org.apache.kafka.server.fault.ProcessTerminatingFaultHandler)\n");
		assertThat(ChaosCluster.gaveUp(log, 0)).isTrue();
	}
}
