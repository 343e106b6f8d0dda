package io.xd.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.util.FileSystemUtils;

/** The second shelf's streams on the local bus. */
class LocalSecondShelfIntegrationTests extends AbstractSecondShelfIntegrationTests {

	private static Path data;

	private static SingleNode node;

	@BeforeAll
	static void start() throws IOException {
		data = Files.createTempDirectory("xd-second-shelf-");
		node = new SingleNode(data, arguments());
	}

	@AfterAll
	static void stop() {
		node.close();
		FileSystemUtils.deleteRecursively(data.toFile());
	}

	@Override
	SingleNode node() {
		return node;
	}

	@Override
	void restart() {
		node.close();
		node = new SingleNode(data, arguments());
	}

	@Override
	String name(String name) {
		return "local" + name;
	}
}
