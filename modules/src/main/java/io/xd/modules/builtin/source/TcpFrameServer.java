package io.xd.modules.builtin.source;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.serializer.Deserializer;
import org.springframework.integration.ip.tcp.serializer.SoftEndOfStreamException;

import io.xd.modules.ModuleContext;

/**
 * A TCP server for the {@code tcp} and {@code syslog-tcp} sources: accepts connections, and on a thread per
 * connection reads frames with a Spring Integration deserializer and hands each to a {@link FrameHandler}. The
 * handler runs on the reading thread, so a stream that blocks stops the reading, and TCP's own flow control then
 * makes the client wait: nothing is buffered beyond one frame per connection. A frame over the deserializer's
 * maximum, a frame cut off by the peer, or a frame the handler fails on is logged with the peer's address and the
 * connection is closed (the framing of what follows cannot be trusted, and the client learns something went wrong).
 */
final class TcpFrameServer {

	/** Connections served at once; more are closed when accepted, with a warning. */
	static final int MAX_CONNECTIONS = 64;

	private static final Logger logger = LoggerFactory.getLogger(TcpFrameServer.class);

	/** Receives each frame read; may throw, which closes the connection the frame came on. */
	@FunctionalInterface
	interface FrameHandler {

		void frame(byte[] frame, InetSocketAddress peer);
	}

	private final ModuleContext context;

	private final String module;

	private final Deserializer<byte[]> deserializer;

	private final int maxFrameSize;

	private final int socketTimeoutMillis;

	private final FrameHandler handler;

	private final Semaphore connectionPermits = new Semaphore(MAX_CONNECTIONS);

	private final Set<Socket> connections = ConcurrentHashMap.newKeySet();

	private volatile boolean running;

	private ServerSocket serverSocket;

	private ExecutorService threads;

	TcpFrameServer(ModuleContext context, String module, Deserializer<byte[]> deserializer, int maxFrameSize,
			int socketTimeoutMillis, FrameHandler handler) {
		this.context = context;
		this.module = module;
		this.deserializer = deserializer;
		this.maxFrameSize = maxFrameSize;
		this.socketTimeoutMillis = socketTimeoutMillis;
		this.handler = handler;
	}

	/** Binds and starts accepting; throws naming the port when it cannot bind. */
	void start(InetSocketAddress address) {
		try {
			ServerSocket socket = new ServerSocket();
			try {
				socket.bind(address, 50);
			}
			catch (IOException ex) {
				socket.close();
				throw ex;
			}
			this.serverSocket = socket;
		}
		catch (IOException ex) {
			throw NetworkSources.cannotBind(this.context, this.module, address, ex);
		}
		this.running = true;
		this.threads = Executors.newCachedThreadPool(this.context.threadFactory(this.module));
		this.threads.execute(this::acceptLoop);
		logger.info("Stream '{}': {} source listening on {}:{}", this.context.streamName(), this.module,
				address.getHostString(), port());
	}

	int port() {
		return (this.serverSocket != null) ? this.serverSocket.getLocalPort() : -1;
	}

	private void acceptLoop() {
		while (this.running) {
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				if (this.running) {
					logger.error("Stream '{}': the {} source stopped accepting connections", this.context.streamName(),
							this.module, ex);
				}
				return;
			}
			if (!this.connectionPermits.tryAcquire()) {
				logger.warn("Stream '{}': {} source refused a connection from {}: already {} connections",
						this.context.streamName(), this.module, socket.getRemoteSocketAddress(), MAX_CONNECTIONS);
				closeQuietly(socket);
				continue;
			}
			this.connections.add(socket);
			this.threads.execute(() -> serve(socket));
		}
	}

	private void serve(Socket socket) {
		InetSocketAddress peer = (InetSocketAddress) socket.getRemoteSocketAddress();
		try (socket; InputStream in = new BufferedInputStream(socket.getInputStream())) {
			socket.setSoTimeout(this.socketTimeoutMillis);
			while (this.running) {
				byte[] frame = this.deserializer.deserialize(in);
				try {
					this.handler.frame(frame, peer);
				}
				catch (RuntimeException ex) {
					logger.error("Stream '{}': {} source could not deliver a frame of {} bytes from {}; "
							+ "closing the connection", this.context.streamName(), this.module, frame.length,
							NetworkSources.describe(peer), ex);
					return;
				}
			}
		}
		catch (SoftEndOfStreamException ex) {
			logger.debug("Stream '{}': {} closed the connection", this.context.streamName(), peer);
		}
		catch (SocketTimeoutException ex) {
			logger.info("Stream '{}': {} source closed the connection from {}, idle for {} ms (socketTimeout)",
					this.context.streamName(), this.module, NetworkSources.describe(peer), this.socketTimeoutMillis);
		}
		catch (IOException ex) {
			readFailed(peer, ex);
		}
		finally {
			this.connections.remove(socket);
			this.connectionPermits.release();
		}
	}

	private void readFailed(InetSocketAddress peer, IOException ex) {
		if (!this.running && ex instanceof SocketException) {
			return;
		}
		String reason = String.valueOf(ex.getMessage());
		if (reason.contains("max message length")) {
			// the deserializer's own sentence names its internal limit, which differs from bufferSize
			logger.error("Stream '{}': {} source closed the connection from {}: a frame is larger than bufferSize, "
					+ "{} bytes", this.context.streamName(), this.module, NetworkSources.describe(peer),
					this.maxFrameSize);
		}
		else {
			logger.error("Stream '{}': {} source closed the connection from {}: could not read a frame ({})",
					this.context.streamName(), this.module, NetworkSources.describe(peer), reason);
		}
	}

	void stop() {
		this.running = false;
		if (this.serverSocket != null) {
			closeQuietly(this.serverSocket);
		}
		this.connections.forEach(TcpFrameServer::closeQuietly);
		if (this.threads != null) {
			this.threads.shutdownNow();
			try {
				this.threads.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing on the way out: nothing left to tell anyone
		}
	}
}
