package io.xd.benchmarks.runner;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Ports on the loopback interface. */
final class Net {

	private Net() {
	}

	/** Whether something accepts TCP connections on {@code host:port} (within 500 ms). */
	static boolean isOpen(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** The first port from {@code from} on that nothing on 127.0.0.1 listens on and that can be bound. */
	static int freePort(int from) {
		for (int port = from; port <= 65535; port++) {
			if (isOpen("127.0.0.1", port)) {
				continue;
			}
			try (ServerSocket socket = new ServerSocket()) {
				socket.bind(new InetSocketAddress("127.0.0.1", port));
				return port;
			}
			catch (IOException ex) {
				// taken between the probe and the bind; try the next one
			}
		}
		throw new IllegalStateException("no free port from " + from + " to 65535 on 127.0.0.1");
	}
}
