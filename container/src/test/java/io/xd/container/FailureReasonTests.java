package io.xd.container;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FailureReasonTests {

	@Test
	void showsTheFirstLineOfTheMessageCutToItsCap() {
		assertThat(ContainerServer.reason(new IllegalStateException("The file sink cannot open /x: denied")))
			.isEqualTo("The file sink cannot open /x: denied");
		assertThat(ContainerServer.reason(new OutOfMemoryError("Java heap space")))
			.isEqualTo("OutOfMemoryError: Java heap space");
		assertThat(ContainerServer.reason(new IllegalStateException("Syntax error in SQL statement\n"
				+ "root:x:0:0:root:/root:/bin/bash\nsecret line")))
			.isEqualTo("Syntax error in SQL statement ... (the rest is in the container's log)")
			.doesNotContain("root:x");
		assertThat(ContainerServer.reason(new IllegalStateException("x".repeat(1000))))
			.hasSize(ContainerServer.MAX_REASON_LENGTH + " ... (the rest is in the container's log)".length());
	}
}
