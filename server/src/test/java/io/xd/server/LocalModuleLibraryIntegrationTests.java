package io.xd.server;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The module library's pipelines on the local bus: every module of a stream in one container, in memory. */
class LocalModuleLibraryIntegrationTests extends AbstractModuleLibraryIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass(nodeArguments());

	@Override
	SingleNode node() {
		return node;
	}

	@Override
	String name(String name) {
		return "local" + name;
	}
}
