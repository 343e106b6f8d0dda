package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of one server, which the {@code chaos} suite can cut: while cut, it closes every
 * connection through it and every new one at once, as a network partition between one client and that server would
 * (the client sees its connection fail, not a clean close of the server). The {@code chaos} suite puts one in front
 * of ZooKeeper for each container, so that a container can lose ZooKeeper while it keeps Kafka.
 */
final class CuttableProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean cut;

	private volatile boolean closed;

	CuttableProxy(int port, int target) throws IOException {
		this.target = target;
		this.server = new ServerSocket();
		this.server.setReuseAddress(true);
		this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
		Thread acceptor = new Thread(this::accept, "chaos-proxy-" + port);
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	/** Closes every connection through the proxy and refuses new ones until {@link #restore()}. */
	void cut() {
		this.cut = true;
		closeAll();
	}

	void restore() {
		this.cut = false;
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				return; // closed
			}
			if (this.cut) {
				closeQuietly(client);
				continue;
			}
			try {
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.target);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				closeQuietly(client); // the server is down: so is the connection through the proxy
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// either side closed, or cut
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.sockets.remove(from);
				this.sockets.remove(to);
			}
		}, "chaos-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private void closeAll() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	@Override
	public void close() {
		this.closed = true;
		closeAll();
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}
}
