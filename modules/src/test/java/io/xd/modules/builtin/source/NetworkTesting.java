package io.xd.modules.builtin.source;

import java.io.IOException;
import java.net.ServerSocket;

/** Test helpers for the network sources (modules are created and collected with {@code builtin.Modules}). */
final class NetworkTesting {

	private NetworkTesting() {
	}

	/** A port nobody listens on right now. */
	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}
}
