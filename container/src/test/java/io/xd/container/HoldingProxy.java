package io.xd.container;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of one server that can hold what passes through it: while held, connections
 * stay open and nothing reaches either side, as in a network partition that drops packets (the client learns only
 * when its own timeouts say so); released, what was held goes through.
 */
final class HoldingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean held;

	HoldingProxy(int target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "holding-proxy");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	void hold() {
		this.held = true;
	}

	void release() {
		this.held = false;
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.target);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// closed, or the server is gone: the client sees its connection fail
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					while (this.held) {
						Thread.sleep(5);
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// one side closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "holding-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closed already
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		this.sockets.forEach(HoldingProxy::closeQuietly);
	}
}
