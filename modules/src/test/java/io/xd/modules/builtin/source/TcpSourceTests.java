package io.xd.modules.builtin.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.builtin.Modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class TcpSourceTests {

	private TcpSource source;

	@AfterEach
	void stop() {
		if (this.source != null) {
			this.source.stop();
		}
	}

	private Modules.Collecting start(Map<String, String> options) {
		Modules.Collecting output = new Modules.Collecting();
		this.source = Modules.create(new TcpSource.Provider(), options);
		this.source.start(output);
		return output;
	}

	private Socket connect() throws IOException {
		return new Socket(InetAddress.getLoopbackAddress(), this.source.port());
	}

	@ParameterizedTest
	@CsvSource({ "CRLF", "LF", "NULL", "STXETX", "L1", "L2", "L4" })
	void decodesTwoFramesWithEachDecoder(String decoder) throws IOException {
		Modules.Collecting output = start(Map.of("port", "0", "decoder", decoder));

		try (Socket socket = connect(); OutputStream out = socket.getOutputStream()) {
			out.write(encode(decoder, "hello"));
			out.write(encode(decoder, "w\u00f6rld"));
			out.flush();
			assertThat(output.awaitPayloads(2)).containsExactly("hello", "w\u00f6rld");
		}
	}

	@Test
	void rawTakesTheWholeConnectionAsOneFrame() throws IOException {
		Modules.Collecting output = start(Map.of("port", "0", "decoder", "RAW"));

		try (Socket socket = connect()) {
			socket.getOutputStream().write("all of\r\nit".getBytes(StandardCharsets.UTF_8));
			socket.shutdownOutput();
			assertThat(output.awaitCount(1).get(0).getPayload()).isEqualTo("all of\r\nit");
		}
	}

	@Test
	void messagesCarryPeerIdAndReceiveTime() throws IOException {
		Modules.Collecting output = start(Map.of("port", "0"));

		try (Socket socket = connect()) {
			socket.getOutputStream().write("x\r\n".getBytes(StandardCharsets.UTF_8));
			Message<?> message = output.awaitCount(1).get(0);
			assertThat(message.getHeaders().get(NetworkSources.PEER_ADDRESS)).isEqualTo("127.0.0.1");
			assertThat(message.getHeaders().get(NetworkSources.PEER_PORT)).isEqualTo(socket.getLocalPort());
			assertThat(message.getHeaders().getId()).isNotNull();
			assertThat(message.getHeaders().getTimestamp()).isPositive();
		}
	}

	@ParameterizedTest
	@CsvSource({ "CRLF", "LF", "NULL", "STXETX", "L4" })
	void aFrameOverBufferSizeClosesItsConnectionWithAnErrorNamingThePeer(String decoder) throws IOException {
		Modules.Collecting output = start(Map.of("port", "0", "decoder", decoder, "bufferSize", "8"));
		Logger logger = (Logger) LoggerFactory.getLogger(TcpFrameServer.class);
		ListAppender<ILoggingEvent> log = new ListAppender<>();
		log.start();
		logger.addAppender(log);
		try (Socket socket = connect()) {
			socket.getOutputStream().write(encode(decoder, "12345678"));
			socket.getOutputStream().write(encode(decoder, "123456789"));
			InputStream in = socket.getInputStream();
			assertThat(in.read()).as("the server closes the connection").isEqualTo(-1);
			assertThat(output.awaitPayloads(1)).containsExactly("12345678");
			synchronized (log) {
				assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
					.anySatisfy(line -> assertThat(line).contains("larger than bufferSize, 8 bytes")
						.contains("127.0.0.1:" + socket.getLocalPort()));
			}
		}
		finally {
			logger.detachAppender(log);
		}
		try (Socket next = connect()) {
			next.getOutputStream().write(encode(decoder, "again"));
			assertThat(output.awaitCount(2).get(1).getPayload()).isEqualTo("again");
		}
	}

	@Test
	void aBlockedStreamStopsTheReadingSoTheClientWaits() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger received = new AtomicInteger();
		MessageChannel blocking = (message, timeout) -> {
			received.incrementAndGet();
			try {
				return release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		};
		this.source = Modules.create(new TcpSource.Provider(), Map.of("port", "0", "decoder", "LF"));
		this.source.start(blocking);
		int lines = 100_000;
		byte[] line = (("x".repeat(499)) + "\n").getBytes(StandardCharsets.UTF_8);
		try (Socket socket = connect()) {
			CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
				try {
					OutputStream out = socket.getOutputStream();
					for (int i = 0; i < lines; i++) {
						out.write(line);
					}
					out.flush();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			Thread.sleep(1000);
			assertThat(writing).as("50 MB cannot all be buffered while the stream blocks").isNotDone();
			assertThat(received.get()).isEqualTo(1);

			release.countDown();
			writing.get(30, TimeUnit.SECONDS);
			await().atMost(30, TimeUnit.SECONDS).until(() -> received.get() == lines);
		}
	}

	@Test
	void startFailsNamingThePortWhenItIsInUse() throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			TcpSource tcp = Modules.create(new TcpSource.Provider(),
					Map.of("port", String.valueOf(taken.getLocalPort())));

			assertThatIllegalStateException().isThrownBy(() -> tcp.start(new Modules.Collecting()))
				.withMessageContaining("port " + taken.getLocalPort())
				.withMessageContaining("tcp source of stream 'teststream'");
		}
	}

	private static byte[] encode(String decoder, String text) {
		byte[] body = text.getBytes(StandardCharsets.UTF_8);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		switch (decoder) {
			case "CRLF" -> out.writeBytes(concat(body, new byte[] { '\r', '\n' }));
			case "LF" -> out.writeBytes(concat(body, new byte[] { '\n' }));
			case "NULL" -> out.writeBytes(concat(body, new byte[] { 0 }));
			case "STXETX" -> {
				out.write(0x02);
				out.writeBytes(concat(body, new byte[] { 0x03 }));
			}
			case "L1" -> {
				out.write(body.length);
				out.writeBytes(body);
			}
			case "L2" -> {
				out.writeBytes(ByteBuffer.allocate(2).putShort((short) body.length).array());
				out.writeBytes(body);
			}
			case "L4" -> {
				out.writeBytes(ByteBuffer.allocate(4).putInt(body.length).array());
				out.writeBytes(body);
			}
			default -> throw new IllegalArgumentException(decoder);
		}
		return out.toByteArray();
	}

	private static byte[] concat(byte[] first, byte[] second) {
		byte[] all = new byte[first.length + second.length];
		System.arraycopy(first, 0, all, 0, first.length);
		System.arraycopy(second, 0, all, first.length, second.length);
		return all;
	}
}
